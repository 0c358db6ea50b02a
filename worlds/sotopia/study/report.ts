import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LogFormatError, readLog } from '../../../src/public/replay.ts';
import type { SotopiaEnvironment } from '../records.ts';
import type { SotopiaSummary } from '../summary.ts';
import {
  CRAIGSLIST_SOURCE,
  DEAL_RULE,
  detectDeal,
  firstMention,
  MENTION_RULE,
  MUTUAL_FRIENDS_SOURCE,
  pricePosition,
  priceTargets,
  sharedFriends,
} from './detectors.ts';
import { attemptLog, type StudyConfig, type StudyPlan } from './plan.ts';
import {
  type DimensionStats,
  dimensionRange,
  type EpisodeResult,
  type EpisodeRow,
  REPORT_DIMENSIONS,
  type ReportDimension,
  type Scores,
} from './report-rows.ts';
import { buildStatistics, type ReportStatistics, statisticsMarkdown } from './report-statistics.ts';
import { type MeanSe, meanSe, type PairedTTest, pairedTTest } from './stats.ts';

/** Everything about one mode. */
export interface ModeSummary {
  mode: string;
  episodes: number;
  /** Episodes with valid judge scores (the n of the dimensions). */
  scored: number;
  /** Episodes reported missing (no valid script or judgement after every regeneration). */
  missing: number;
  dimensions: Record<ReportDimension, DimensionStats>;
  /** Per episode words / turns (episodes with turns), and all words / all turns. */
  wordsPerTurn: MeanSe & { pooled: number | null };
  turns: MeanSe;
  endReasons: Record<string, number>;
  fallbackTurns: number;
}

/** Paired differences `b − a` over the (scenario, pair) units both modes scored. */
export interface PairedComparison {
  a: string;
  b: string;
  dimensions: Record<ReportDimension, PairedTTest>;
}

/** Deal rate of one mode over the Craigslist-style episodes. */
export interface DealRate {
  mode: string;
  episodes: number;
  deals: number;
  rate: number | null;
  /** Binomial SE sqrt(p(1-p)/n). */
  se: number | null;
  /** Where the agreed prices fall between the targets (0 buyer's, 1 seller's), over deals with both targets. */
  position: MeanSe;
}

/** First mentions of the shared friend, of one mode over the MutualFriends-style episodes. */
export interface MentionStats {
  mode: string;
  episodes: number;
  mentioned: number;
  rate: number | null;
  /** Relative position (turn / turns) over the episodes with a mention. */
  position: MeanSe;
  /** Turns to find the friend: the turn of the first correct mention, over episodes with one. */
  turn: MeanSe;
}

/** `--models A,B`: per mode, model B's character minus model A's, per scenario (pairs and seatings averaged). */
export interface ModelComparison {
  a: string;
  b: string;
  byMode: { mode: string; dimensions: Record<ReportDimension, PairedTTest> }[];
}

/** The study report (`report.json`): deterministic, no wall-clock data. */
export interface StudyReport {
  format: 'grapevine-study-report/1';
  study: {
    kind: string;
    modes: string[];
    scenarios: string;
    scenarioCount: number;
    pairs: number;
    seed: number;
    model: string;
    judgeModel: string;
    /** True when `--judge-model same` made the agents' model the judge. */
    judgeSame: boolean;
    protocol: string;
    rubric: string;
    models: [string, string] | null;
    templateHashes: Record<string, string>;
    maxTurns: number;
    episodes: number;
    scored: number;
    missing: number;
  };
  dimensions: ReportDimension[];
  /** Notes on how the figures are computed. */
  method: string[];
  modes: ModeSummary[];
  paired: PairedComparison[];
  models: ModelComparison | null;
  /** Scenario-level tests with Holm adjustment, Wilson intervals and McNemar tests (src/stats). */
  statistics: ReportStatistics;
  craigslist: { source: string; rule: string; scenarios: number; byMode: DealRate[] };
  mutualFriends: { source: string; rule: string; scenarios: number; byMode: MentionStats[] };
  episodes: EpisodeRow[];
}

/**
 * Reads the `end` summaries of a plan's episode logs (each log verified line by line).
 *
 * @throws LogFormatError when a log is missing, tampered with, or not complete.
 */
export async function readEpisodeResults(dir: string, plan: StudyPlan): Promise<EpisodeResult[]> {
  const out: EpisodeResult[] = [];
  for (const episode of plan.episodes) {
    let attempts = 1;
    while (existsSync(join(dir, attemptLog(episode.log, attempts + 1)))) attempts++;
    const log = attemptLog(episode.log, attempts);
    const path = join(dir, log);
    const lines = readLog(path);
    let end: Record<string, unknown> | undefined;
    let digest: string | null = null;
    for (;;) {
      const step = await lines.next();
      if (step.done) {
        digest = step.value.complete ? step.value.digest : null;
        break;
      }
      if (step.value.type === 'end') end = step.value.event;
    }
    if (!end || digest === null)
      throw new LogFormatError(
        `${path} is not complete: the episode has not finished`,
        {},
        { hint: 'rerun the study to finish it' },
      );
    out.push({
      episode,
      summary: end.summary as unknown as SotopiaSummary,
      digest,
      reason: String(end.reason),
      ...(attempts > 1 && { log, attempts }),
    });
  }
  return out;
}

function scoresOf(s: SotopiaSummary): EpisodeRow['scores'] {
  if (!s.scores) return null;
  const pick = (a: Record<string, unknown>) =>
    Object.fromEntries(REPORT_DIMENSIONS.map((d) => [d, a[d] as number])) as Scores;
  const agent0 = pick(s.scores.agent0);
  const agent1 = pick(s.scores.agent1);
  const mean = Object.fromEntries(REPORT_DIMENSIONS.map((d) => [d, (agent0[d] + agent1[d]) / 2])) as Scores;
  return { mean, agent0, agent1 };
}

/** The report row of one episode (detectors applied by source). */
export function episodeRow(r: EpisodeResult, env: SotopiaEnvironment | undefined): EpisodeRow {
  const s = r.summary;
  const ep = r.episode;
  const row: EpisodeRow = {
    scenario: ep.codename,
    envId: ep.envId,
    source: ep.source,
    pair: ep.pair,
    mode: ep.mode,
    seed: ep.seed,
    log: r.log ?? ep.log,
    ...(r.attempts !== undefined && { attempts: r.attempts }),
    digest: r.digest,
    endReason: s.endReason,
    turns: s.turns,
    words: s.words,
    wordsPerTurn: s.turns > 0 ? s.words / s.turns : null,
    fallbackTurns: s.fallbackTurns,
    unscored: s.scores === null,
    missing: s.missing === true,
    ...(ep.order && { order: ep.order, seatModels: ep.seatModels }),
    scores: s.missing ? null : scoresOf(s),
  };
  if (ep.source === CRAIGSLIST_SOURCE) {
    const deal = detectDeal(s.transcript);
    const targets = env ? priceTargets(env) : null;
    const position = deal.price !== null && targets ? pricePosition(deal.price, targets) : null;
    row.deal = { ...deal, position };
  }
  if (ep.source === MUTUAL_FRIENDS_SOURCE) {
    const shared = env ? sharedFriends(env) : [];
    row.mention = { ...firstMention(s.transcript, shared), shared };
  }
  return row;
}

function modeSummary(mode: string, all: readonly EpisodeRow[]): ModeSummary {
  const rows = all.filter((r) => !r.missing);
  const scored = rows.filter((r) => r.scores !== null);
  const dimensions = Object.fromEntries(
    REPORT_DIMENSIONS.map((d) => [
      d,
      {
        ...meanSe(scored.map((r) => r.scores!.mean[d])),
        agent0: meanSe(scored.map((r) => r.scores!.agent0[d])),
        agent1: meanSe(scored.map((r) => r.scores!.agent1[d])),
      },
    ]),
  ) as Record<ReportDimension, DimensionStats>;
  const withTurns = rows.filter((r) => r.turns > 0);
  const words = rows.reduce((n, r) => n + r.words, 0);
  const turns = rows.reduce((n, r) => n + r.turns, 0);
  const endReasons: Record<string, number> = {};
  for (const r of [...rows].sort((a, b) =>
    a.endReason < b.endReason ? -1 : a.endReason > b.endReason ? 1 : 0,
  ))
    endReasons[r.endReason] = (endReasons[r.endReason] ?? 0) + 1;
  return {
    mode,
    episodes: all.length,
    scored: scored.length,
    missing: all.length - rows.length,
    dimensions,
    wordsPerTurn: {
      ...meanSe(withTurns.map((r) => r.words / r.turns)),
      pooled: turns > 0 ? words / turns : null,
    },
    turns: meanSe(rows.map((r) => r.turns)),
    endReasons,
    fallbackTurns: rows.reduce((n, r) => n + r.fallbackTurns, 0),
  };
}

/** Per scenario, the mean over its scored rows (pairs and seatings) of `value`. */
function scenarioMeans(rows: readonly EpisodeRow[], value: (r: EpisodeRow) => number): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const r of rows) {
    const acc = sums.get(r.envId) ?? { sum: 0, n: 0 };
    acc.sum += value(r);
    acc.n++;
    sums.set(r.envId, acc);
  }
  return new Map([...sums].map(([k, v]) => [k, v.sum / v.n]));
}

/** A paired t-test over the scenarios both maps have (scenario order of `a`). */
function pairedByScenario(a: Map<string, number>, b: Map<string, number>): PairedTTest {
  const keys = [...a.keys()].filter((k) => b.has(k));
  return pairedTTest(
    keys.map((k) => a.get(k)!),
    keys.map((k) => b.get(k)!),
  );
}

function paired(a: string, b: string, rows: readonly EpisodeRow[]): PairedComparison {
  // only the units both modes scored (an unpartnered episode counts in its mode's means only)
  const all = (m: string) => rows.filter((r) => r.mode === m && r.scores);
  const unit = (r: EpisodeRow) => `${r.envId}/p${r.pair}${r.order ? `/${r.order}` : ''}`;
  const inB = new Set(all(b).map(unit));
  const both = new Set(
    all(a)
      .map(unit)
      .filter((u) => inB.has(u)),
  );
  const scored = (m: string) => all(m).filter((r) => both.has(unit(r)));
  const dimensions = Object.fromEntries(
    REPORT_DIMENSIONS.map((d) => [
      d,
      pairedByScenario(
        scenarioMeans(scored(a), (r) => r.scores!.mean[d]),
        scenarioMeans(scored(b), (r) => r.scores!.mean[d]),
      ),
    ]),
  ) as Record<ReportDimension, PairedTTest>;
  return { a, b, dimensions };
}

/** Model B's character minus model A's, per mode, at the scenario level. */
function modelComparison(config: StudyConfig, rows: readonly EpisodeRow[]): ModelComparison | null {
  if (!config.models) return null;
  const [a, b] = config.models;
  const scoreOf = (r: EpisodeRow, model: string, d: ReportDimension) =>
    r.seatModels![0] === model ? r.scores!.agent0[d] : r.scores!.agent1[d];
  const byMode = config.modes.map((mode) => {
    const scored = rows.filter((r) => r.mode === mode && r.scores && r.seatModels);
    const dimensions = Object.fromEntries(
      REPORT_DIMENSIONS.map((d) => [
        d,
        pairedByScenario(
          scenarioMeans(scored, (r) => scoreOf(r, a, d)),
          scenarioMeans(scored, (r) => scoreOf(r, b, d)),
        ),
      ]),
    ) as Record<ReportDimension, PairedTTest>;
    return { mode, dimensions };
  });
  return { a, b, byMode };
}

function dealRate(mode: string, rows: readonly EpisodeRow[]): DealRate {
  const eps = rows.filter((r) => r.deal && !r.missing);
  const deals = eps.filter((r) => r.deal!.deal);
  const n = eps.length;
  const p = n > 0 ? deals.length / n : null;
  const positions = deals.map((r) => r.deal!.position).filter((x): x is number => x !== null);
  return {
    mode,
    episodes: n,
    deals: deals.length,
    rate: p,
    se: p === null ? null : Math.sqrt((p * (1 - p)) / n),
    position: meanSe(positions),
  };
}

function mentionStats(mode: string, rows: readonly EpisodeRow[]): MentionStats {
  const eps = rows.filter((r) => r.mention && !r.missing);
  const hits = eps.filter((r) => r.mention!.position !== null);
  return {
    mode,
    episodes: eps.length,
    mentioned: hits.length,
    rate: eps.length > 0 ? hits.length / eps.length : null,
    position: meanSe(hits.map((r) => r.mention!.position as number)),
    turn: meanSe(hits.map((r) => r.mention!.turn as number)),
  };
}

function modelsMarkdown(report: StudyReport): string[] {
  const m = report.models;
  if (!m) return [];
  const out = [
    `## ${m.b} − ${m.a} (seat models)`,
    '',
    'Per mode, at the scenario level (pairs and both seatings averaged first).',
    '',
  ];
  for (const x of m.byMode)
    out.push(
      `### ${x.mode}`,
      '',
      ...table(
        ['dimension', 'n', 'mean diff', '95% CI', 'p'],
        REPORT_DIMENSIONS.map((d) => {
          const t = x.dimensions[d];
          return [
            d,
            String(t.n),
            fmt(t.meanDiff),
            t.ci95 ? `${fmt(t.ci95[0])} .. ${fmt(t.ci95[1])}` : '—',
            fmtP(t.p),
          ];
        }),
      ),
      '',
    );
  return out;
}

/** Method notes written into the report. */
export const METHOD_NOTES = [
  'Scores: per episode, the mean of the two characters’ scores on each dimension (per character in agent0/agent1); mean ± standard error (sample SD / √n) over the episodes the judge scored; n = scored episodes.',
  'Paired differences: b − a at the scenario level: each scenario’s episodes (pairs, seatings) are averaged first, then the scenarios both modes scored are paired; paired t-test, df = n − 1 scenarios, two-sided p from the Student t distribution; 95% CI with the t quantile.',
  'Tests across modes (statistics.tests): scenario-level paired t-tests on every dimension, Holm-adjusted over all of them (raw and adjusted p), effect size d_z with its 95% CI; deal and found-friend rates with Wilson 95% intervals, compared between modes by McNemar’s test over the same (scenario, pair) units (exact binomial below 25 discordant units).',
  'Missing episodes (zhou2024: no valid script or judgement after every regeneration, each attempt in the log) are counted per mode and left out of every figure; they are never scored as failures.',
  'With --models A,B: every (scenario, pair) runs with A in seat 0 and again with B in seat 0; per mode, B’s character minus A’s, averaged per scenario over pairs and seatings, paired over scenarios.',
  'Words per turn: per episode, white-space separated words of all turns / turns (idle turns included), mean ± SE over episodes with turns; pooled = all words / all turns.',
  'Deal rate and first mention: keyword rules on the transcript, given with their tables (craigslist.rule, mutualFriends.rule).',
];

/**
 * Builds the report from the finished episodes (in plan order). Pure: the same results
 * give the same report, whatever order or session the episodes ran in.
 */
export function buildReport(
  config: StudyConfig,
  environments: readonly SotopiaEnvironment[],
  results: readonly EpisodeResult[],
): StudyReport {
  const envs = new Map(environments.map((e) => [e.env_id, e]));
  const rows = results.map((r) => episodeRow(r, envs.get(r.episode.envId)));
  const byMode = (m: string) => rows.filter((r) => r.mode === m);
  const pairs: PairedComparison[] = [];
  config.modes.forEach((a, i) => {
    for (const b of config.modes.slice(i + 1)) pairs.push(paired(a, b, rows));
  });
  return {
    format: 'grapevine-study-report/1',
    study: {
      kind: config.kind,
      modes: [...config.modes],
      scenarios: config.scenarios,
      scenarioCount: environments.length,
      pairs: config.pairs,
      seed: config.seed,
      model: config.model,
      judgeModel: config.judgeModel,
      judgeSame: config.judgeSame,
      protocol: config.protocol,
      rubric: config.rubric,
      models: config.models,
      templateHashes: config.templateHashes,
      maxTurns: config.maxTurns,
      episodes: rows.length,
      scored: rows.filter((r) => r.scores).length,
      missing: rows.filter((r) => r.missing).length,
    },
    dimensions: [...REPORT_DIMENSIONS],
    method: METHOD_NOTES,
    modes: config.modes.map((m) => modeSummary(m, byMode(m))),
    paired: pairs,
    models: modelComparison(config, rows),
    statistics: buildStatistics(config, rows, REPORT_DIMENSIONS),
    craigslist: {
      source: CRAIGSLIST_SOURCE,
      rule: DEAL_RULE,
      scenarios: environments.filter((e) => e.source === CRAIGSLIST_SOURCE).length,
      byMode: config.modes.map((m) => dealRate(m, byMode(m))),
    },
    mutualFriends: {
      source: MUTUAL_FRIENDS_SOURCE,
      rule: MENTION_RULE,
      scenarios: environments.filter((e) => e.source === MUTUAL_FRIENDS_SOURCE).length,
      byMode: config.modes.map((m) => mentionStats(m, byMode(m))),
    },
    episodes: rows,
  };
}

/** report.json text: numbers to 10 significant digits (no float noise), two-space indent. */
export function reportJson(report: StudyReport): string {
  return `${JSON.stringify(
    report,
    (_k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(10)) : v),
    2,
  )}\n`;
}

/** A number for tables: fixed digits, `—` for null. */
export function fmt(x: number | null | undefined, digits = 2): string {
  if (x === null || x === undefined || Number.isNaN(x)) return '—';
  const s = x.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function fmtP(p: number | null): string {
  if (p === null) return '—';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

function meanSeCell(s: MeanSe, digits = 2): string {
  if (s.mean === null) return '—';
  return s.se === null
    ? `${fmt(s.mean, digits)} (n=${s.n})`
    : `${fmt(s.mean, digits)} ± ${fmt(s.se, digits)} (n=${s.n})`;
}

function table(head: string[], rows: string[][], align?: ('l' | 'r')[]): string[] {
  const a = align ?? head.map((_, k) => (k === 0 ? 'l' : 'r'));
  return [
    `| ${head.join(' | ')} |`,
    `| ${a.map((x) => (x === 'l' ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}

/** report.md: the same figures as report.json, as Markdown tables. */
export function renderReportMarkdown(report: StudyReport): string {
  const s = report.study;
  const modes = report.modes.map((m) => m.mode);
  const out: string[] = [
    '# Sotopia information-asymmetry study',
    '',
    `Modes ${modes.join(', ')}; scenarios \`${s.scenarios}\` (${s.scenarioCount}); ${s.pairs} pair${s.pairs === 1 ? '' : 's'} each; study seed ${s.seed}; model \`${s.model}\`, judge \`${s.judgeModel}\`; at most ${s.maxTurns} turns.`,
    `Protocol \`${s.protocol}\`${s.protocol === 'zhou2024' ? `, judge rubric \`${s.rubric}\`` : ''}. Judge: \`${s.judgeModel}\`${s.judgeSame ? " (--judge-model same: the agents' own model judges; Zhou et al. used a separate GPT-4)" : ''}.${s.models ? ` Seats: \`${s.models[0]}\` vs \`${s.models[1]}\`, each (scenario, pair) in both seatings.` : ''}`,
    `${s.episodes} episodes, ${s.scored} scored by the judge, ${s.missing} missing (${report.modes.map((m) => `${m.mode} ${m.missing}`).join(', ')}). See card.md for the simulation card.`,
    '',
    '## Scores per mode',
    '',
    'Mean ± SE over episodes (each episode: the mean of its two characters), n = scored episodes.',
    '',
    ...table(
      ['dimension', 'range', ...modes],
      report.dimensions.map((d) => {
        const r = dimensionRange(d);
        return [
          d,
          `${fmt(r.min, d === 'overall' ? 2 : 0)}..${fmt(r.max, d === 'overall' ? 2 : 0)}`,
          ...report.modes.map((m) => meanSeCell(m.dimensions[d])),
        ];
      }),
    ),
    '',
    '### Per character',
    '',
    'Seat 0 / seat 1 (the order of the scenario’s goals), mean ± SE.',
    '',
    ...table(
      ['dimension', ...modes.flatMap((m) => [`${m} seat 0`, `${m} seat 1`])],
      report.dimensions.map((d) => [
        d,
        ...report.modes.flatMap((m) => [
          meanSeCell(m.dimensions[d].agent0),
          meanSeCell(m.dimensions[d].agent1),
        ]),
      ]),
    ),
    '',
    '## Paired differences',
    '',
    'b − a at the scenario level (pairs averaged within each scenario first), paired t-test (two-sided); n = scenarios.',
    '',
  ];
  if (report.paired.length === 0) out.push('(one mode only: nothing to pair)', '');
  for (const c of report.paired) {
    out.push(
      `### ${c.b} − ${c.a}`,
      '',
      ...table(
        ['dimension', 'n', 'mean diff', 'SE', '95% CI', 't', 'df', 'p'],
        report.dimensions.map((d) => {
          const t = c.dimensions[d];
          return [
            d,
            String(t.n),
            fmt(t.meanDiff),
            fmt(t.se),
            t.ci95 ? `${fmt(t.ci95[0])} .. ${fmt(t.ci95[1])}` : '—',
            fmt(t.t),
            t.df === null ? '—' : String(t.df),
            fmtP(t.p),
          ];
        }),
      ),
      '',
    );
  }
  out.push(
    '## Conversation',
    '',
    ...table(
      [
        'mode',
        'episodes',
        'words per turn',
        'pooled words per turn',
        'turns',
        'fallback turns',
        'end reasons',
      ],
      report.modes.map((m) => [
        m.mode,
        String(m.episodes),
        meanSeCell(m.wordsPerTurn, 1),
        fmt(m.wordsPerTurn.pooled, 1),
        meanSeCell(m.turns, 1),
        String(m.fallbackTurns),
        Object.entries(m.endReasons)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
      ]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
    '',
    `## Deal rate (${report.craigslist.source}, ${plural(report.craigslist.scenarios, 'scenario')})`,
    '',
    report.craigslist.rule,
    '',
    ...table(
      ['mode', 'episodes', 'deals', 'rate ± SE', 'agreed price (0 buyer target, 1 seller target)'],
      report.craigslist.byMode.map((r) => [
        r.mode,
        String(r.episodes),
        String(r.deals),
        r.rate === null ? '—' : `${fmt(r.rate)} ± ${fmt(r.se)}`,
        meanSeCell(r.position),
      ]),
    ),
    '',
    `## First mention of the shared friend (${report.mutualFriends.source}, ${plural(report.mutualFriends.scenarios, 'scenario')})`,
    '',
    report.mutualFriends.rule,
    '',
    ...table(
      ['mode', 'episodes', 'found', 'rate', 'turns to find', 'relative position'],
      report.mutualFriends.byMode.map((r) => [
        r.mode,
        String(r.episodes),
        String(r.mentioned),
        fmt(r.rate),
        meanSeCell(r.turn),
        meanSeCell(r.position),
      ]),
    ),
    '',
    ...modelsMarkdown(report),
    ...statisticsMarkdown(report.statistics),
    '## Method',
    '',
    ...report.method.map((m) => `- ${m}`),
    '',
    '## Episodes',
    '',
    ...table(
      ['scenario', 'pair', 'mode', 'end', 'turns', 'words', 'overall', 'goal', 'deal', 'mention', 'log'],
      report.episodes.map((e) => [
        `${e.scenario} (${e.envId.slice(-8)})`,
        String(e.pair),
        e.mode,
        e.endReason,
        String(e.turns),
        String(e.words),
        e.scores ? fmt(e.scores.mean.overall) : '—',
        e.scores ? fmt(e.scores.mean.goal, 1) : '—',
        e.deal ? (e.deal.deal ? `yes (turn ${e.deal.turn})` : 'no') : '',
        e.mention
          ? e.mention.turn === null
            ? 'none'
            : `turn ${e.mention.turn} (${fmt(e.mention.position)})`
          : '',
        `\`${e.log}\``,
      ]),
      ['l', 'r', 'l', 'l', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
    ),
    '',
  );
  return out.join('\n');
}
