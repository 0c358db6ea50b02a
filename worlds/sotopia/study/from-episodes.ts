import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { UsageError } from '../../../src/index.ts';
import { DIMENSION_NAMES, type Dimension } from '../dimensions.ts';
import type { EpisodeLog } from '../episode-log.ts';
import type { AgentScores, EpisodeScores } from '../judge-reply.ts';
import type { SotopiaEnvironment } from '../records.ts';
import type { SotopiaSummary } from '../summary.ts';
import { type ActionType, type TurnRecord, wordCount } from '../transcript.ts';
import { type LocatedEpisodeLog, readEpisodeLogs } from './episode-log-reader.ts';
import type { PlannedEpisode, StudyConfig } from './plan.ts';
import { buildReport, METHOD_NOTES, renderReportMarkdown, reportJson, type StudyReport } from './report.ts';
import { renderReportHtml } from './report-html.ts';
import type { EpisodeResult } from './report-rows.ts';
import { writeFileAtomic } from './runner.ts';

/** A `--mode-from-tag` rule: tags matching `pattern` (a regular expression, searched) get `mode`. */
export interface TagRule {
  pattern: RegExp;
  mode: string;
}

/** The mode of a tag-less episode. */
export const UNTAGGED_MODE = 'untagged';

/**
 * Parses `--mode-from-tag PATTERN=MODE,...` (PATTERN a regular expression searched in the
 * tag; the first matching rule wins; a tag no rule matches keeps itself as its mode).
 *
 * @throws UsageError on an empty rule, a missing `=`, or a bad regular expression.
 */
export function parseModeFromTag(spec: string): TagRule[] {
  return spec.split(',').map((part) => {
    const eq = part.lastIndexOf('=');
    const source = part.slice(0, eq).trim();
    const mode = part.slice(eq + 1).trim();
    if (eq < 0 || source === '' || mode === '')
      throw new UsageError(`--mode-from-tag: "${part}" is not PATTERN=MODE`, {
        hint: 'e.g. --mode-from-tag "omniscient=mindreaders,script=script,.*=agents"',
      });
    try {
      return { pattern: new RegExp(source), mode };
    } catch (e) {
      throw new UsageError(`--mode-from-tag: bad pattern "${source}": ${(e as Error).message}`);
    }
  });
}

/** The mode of an episode's tag under `rules` (no rules: the tag itself). */
export function modeOfTag(tag: string | null | undefined, rules: readonly TagRule[]): string {
  if (tag === null || tag === undefined || tag === '') return UNTAGGED_MODE;
  return rules.find((r) => r.pattern.test(tag))?.mode ?? tag;
}

const ACTION_PREFIX = /^\[(non-verbal communication|action)\] ([\s\S]*)$/;
const SAID = /^said: "([\s\S]*)"$/;

/** One agent message of Sotopia's natural-language form as a turn (null for "did nothing"). */
function turnOf(text: string): { action: ActionType; text: string } | null {
  if (text.includes('did nothing')) return null;
  if (text === 'left the conversation') return { action: 'leave', text: '' };
  const said = SAID.exec(text);
  if (said) return { action: 'speak', text: said[1].trim() };
  const act = ACTION_PREFIX.exec(text);
  if (act) return { action: act[1] as ActionType, text: act[2].trim() };
  return { action: 'speak', text: text.trim() };
}

/**
 * The characters' turns of an EpisodeLog's messages: the agents' messages to the
 * Environment, without Sotopia's "did nothing" turns (its judge reads the transcript without
 * them), numbered 1.. in order. Seats follow the first turn's Environment messages (Sotopia's
 * agent order, the order of `rewards`).
 */
export function episodeTranscript(log: EpisodeLog): { names: string[]; transcript: TurnRecord[] } {
  const names: string[] = [];
  for (const [from, to] of log.messages[0] ?? [])
    if (from === 'Environment' && !names.includes(to)) names.push(to);
  const transcript: TurnRecord[] = [];
  for (const turn of log.messages)
    for (const [from, to, text] of turn) {
      if (to !== 'Environment' || from === 'Environment') continue;
      const t = turnOf(text);
      if (!t) continue;
      if (!names.includes(from)) names.push(from);
      transcript.push({
        turn: transcript.length + 1,
        speaker: names.indexOf(from),
        name: from,
        ...t,
        fallback: false,
      });
    }
  return { names, transcript };
}

/** Per agent the seven dimensions and `overall` (their unweighted mean); null when the rewards are bare numbers. */
function scoresOf(log: EpisodeLog): EpisodeScores | null {
  const per = log.rewards.map((r): AgentScores | null => {
    if (typeof r === 'number') return null;
    const dims = Object.fromEntries(DIMENSION_NAMES.map((d) => [d, r[1][d]])) as Record<Dimension, number>;
    const reasoning = Object.fromEntries(DIMENSION_NAMES.map((d) => [d, ''])) as Record<Dimension, string>;
    const overall = DIMENSION_NAMES.reduce((s, d) => s + dims[d], 0) / DIMENSION_NAMES.length;
    return { ...dims, overall, reasoning };
  });
  if (!per[0] || !per[1]) return null;
  return { agent0: per[0], agent1: per[1] };
}

/** An environment id not in the profiles: its id as codename, source `unknown`. */
function unknownEnvironment(id: string): SotopiaEnvironment {
  return {
    env_id: id,
    codename: id,
    source: 'unknown',
    scenario: '',
    agent_goals: [],
    relationship: 'stranger',
    age_constraint: null,
    occupation_constraint: null,
    agent_constraint: null,
  };
}

function distinct(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}

/** The report's modes: those the rules name (in rule order), then the others in order of first appearance. */
function orderModes(found: readonly string[], rules: readonly TagRule[]): string[] {
  const named = distinct(rules.map((r) => r.mode)).filter((m) => found.includes(m));
  return [...named, ...distinct(found).filter((m) => !named.includes(m))];
}

/** One episode as the report's result: plan entry and run summary rebuilt from the EpisodeLog. */
function resultOf(x: LocatedEpisodeLog, env: SotopiaEnvironment, mode: string, pair: number): EpisodeResult {
  const log = x.record;
  const { names, transcript } = episodeTranscript(log);
  const episode: PlannedEpisode = {
    envId: log.environment,
    codename: env.codename,
    source: env.source,
    pair,
    mode: mode as PlannedEpisode['mode'],
    seed: 0,
    log: x.where,
    unit: `${log.environment}/p${pair}`,
  };
  const scores = scoresOf(log);
  const words = transcript.reduce((n, t) => n + wordCount(t.text), 0);
  const endReason = transcript.some((t) => t.action === 'leave') ? 'leave' : 'recorded';
  const summary = {
    envId: log.environment,
    codename: env.codename,
    source: env.source,
    mode: episode.mode,
    pair,
    relationship: String(env.relationship),
    agents: log.agents.map((id, seat) => ({ seat, id, name: names[seat] ?? '' })),
    endReason: endReason as SotopiaSummary['endReason'],
    turns: transcript.length,
    words,
    wordsBySeat: [0, 1].map((s) =>
      transcript.filter((t) => t.speaker === s).reduce((n, t) => n + wordCount(t.text), 0),
    ) as [number, number],
    fallbackTurns: 0,
    transcript,
    scores,
    judge: null,
    models: log.models
      ? { seat0: log.models[1] ?? '', seat1: log.models[2] ?? '', judge: log.models[0] ?? null }
      : undefined,
  } satisfies SotopiaSummary;
  const digest = createHash('sha256').update(x.text).digest('hex');
  return { episode, summary, digest, reason: 'episode-end' };
}

/** Method notes added to a reanalysis report. */
export const REANALYSIS_NOTES = [
  'Reanalysis of recorded Sotopia EpisodeLog records (--from-episodes): mode from the tag (--mode-from-tag), scenario = environment, pair = the environment’s agent combination (index in code-unit order of the agents’ ids); modes are paired over the (environment, agents) units both have.',
  'Scores are the recorded rewards’ seven dimensions per agent; overall = their unweighted mean (Sotopia’s overall_score); an agent whose reward is a bare number makes the episode unscored.',
  'Turns and words: the agents’ messages to the Environment without Sotopia’s “did nothing” turns (as its judge reads the transcript); speech is the text inside said: "…". Unlike a grapevine study, idle turns are not counted; end reason `leave` if an agent left, else `recorded`.',
];

/** Options of a reanalysis. */
export interface ReanalysisOptions {
  /** `--mode-from-tag` rules (empty: each tag is its mode). */
  rules: readonly TagRule[];
  /** The Sotopia environments known (names and sources of the ids). */
  environments: readonly SotopiaEnvironment[];
  /** What `study.scenarios` says (the input path). */
  input: string;
}

/**
 * The study report of recorded EpisodeLog records (the same {@link buildReport} as a
 * study's): modes from tags, units = (environment, agents), scores from `rewards`.
 */
export function reanalyseEpisodes(logs: readonly LocatedEpisodeLog[], opts: ReanalysisOptions): StudyReport {
  const known = new Map(opts.environments.map((e) => [e.env_id, e]));
  const envIds = distinct(logs.map((x) => x.record.environment));
  const envs = envIds.map((id) => known.get(id) ?? unknownEnvironment(id));
  const combos = new Map<string, string[]>();
  for (const x of logs) {
    const list = combos.get(x.record.environment) ?? [];
    const key = x.record.agents.join(',');
    if (!list.includes(key)) list.push(key);
    combos.set(x.record.environment, list);
  }
  for (const list of combos.values()) list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const modeOf = (x: LocatedEpisodeLog) => modeOfTag(x.record.tag, opts.rules);
  const results = logs.map((x) =>
    resultOf(
      x,
      envs[envIds.indexOf(x.record.environment)],
      modeOf(x),
      combos.get(x.record.environment)!.indexOf(x.record.agents.join(',')),
    ),
  );
  const modes = orderModes(logs.map(modeOf), opts.rules);
  const seatModels = distinct(
    logs.map((x) => (x.record.models ? `${x.record.models[1]} vs ${x.record.models[2]}` : 'unknown')),
  );
  const judges = distinct(logs.map((x) => x.record.models?.[0] ?? 'unknown'));
  const config: StudyConfig = {
    kind: 'sotopia',
    modes: modes as StudyConfig['modes'],
    scenarios: `from-episodes:${opts.input}`,
    pairs: Math.max(...[...combos.values()].map((l) => l.length)),
    seed: 0,
    maxTurns: 20,
    model: seatModels.join('; '),
    judgeModel: judges.join('; '),
    judgeSame: false,
    protocol: 'sotopia-episode-log' as StudyConfig['protocol'],
    rubric: 'basic',
    models: null,
    templates: '',
    templateHashes: {},
    data: '',
  };
  const report = buildReport(config, envs, results);
  return { ...report, method: [...METHOD_NOTES, ...REANALYSIS_NOTES] };
}

/** The files a reanalysis writes. */
export const REANALYSIS_OUTPUTS = ['report.json', 'report.md', 'report.html'] as const;

/**
 * `--from-episodes`: reads and validates every record under `path` (nothing is written if
 * one is bad), builds the report and writes report.json, report.md and report.html into `out`.
 */
export function writeReanalysis(
  path: string,
  out: string,
  opts: Omit<ReanalysisOptions, 'input'>,
): { report: StudyReport; files: string[] } {
  const logs = readEpisodeLogs(path);
  const report = reanalyseEpisodes(logs, { ...opts, input: path });
  const texts: Record<(typeof REANALYSIS_OUTPUTS)[number], string> = {
    'report.json': reportJson(report),
    'report.md': renderReportMarkdown(report),
    'report.html': renderReportHtml(report),
  };
  const files = REANALYSIS_OUTPUTS.map((f) => join(out, f));
  for (const f of REANALYSIS_OUTPUTS) writeFileAtomic(join(out, f), texts[f]);
  return { report, files };
}
