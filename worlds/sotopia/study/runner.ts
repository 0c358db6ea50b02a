import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  ConfigError,
  canonicalJson,
  isGrapevineError,
  type Json,
  RunError,
  runWorld,
  UsageError,
} from '../../../src/index.ts';
import type { SharedLlm } from '../../../src/public/llm.ts';
import { InputBuffer } from '../../../src/public/llm.ts';
import { LogWriter, readLog, readRecordedRun } from '../../../src/public/replay.ts';
import { world } from '../index.ts';
import { migrateSotopiaParams } from '../params.ts';
import type { SotopiaSummary } from '../summary.ts';
import {
  attemptLog,
  attemptSeed,
  episodeAttempts,
  episodeParams,
  type PlannedEpisode,
  type StudyConfig,
  type StudyPlan,
} from './plan.ts';

/** File of a study directory that holds its config (the check that a restart is the same study). */
export const STUDY_FILE = 'study.json';
/** Format tag of {@link STUDY_FILE}. */
export const STUDY_FORMAT = 'grapevine-study/1';
/** Outputs of a finished study, removed when episodes are (re)run (see `outputs.ts`). */
const STALE_ON_RERUN = ['report.json', 'report.md', 'report.html', 'card.json', 'card.md'];
/** Episodes run at once by default. */
export const DEFAULT_STUDY_CONCURRENCY = 4;

/** Writes a file through a temporary name, so that a reader never sees half of it. */
export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

function differingKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((k) => canonicalJson(a[k] ?? null) !== canonicalJson(b[k] ?? null));
}

/**
 * A saved config as this version reads it: a zhou2024 config without `parsing` (world 2.0)
 * reads replies the `reask` way; one without `contract` (world 2.0, 2.1) follows the
 * `grapevine` reply contract.
 */
export function normalizedConfig(config: Record<string, unknown>): Record<string, unknown> {
  if (config.protocol !== 'zhou2024') return config;
  let out = config;
  if (out.parsing === undefined) out = { ...out, parsing: 'reask', repairModel: '' };
  if (out.contract === undefined) out = { ...out, contract: 'grapevine' };
  return out;
}

/** The saved config of a study directory, or undefined when it has none (or it cannot be read). */
export function savedStudyConfig(dir: string): Record<string, unknown> | undefined {
  const file = join(dir, STUDY_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      format?: string;
      config?: Record<string, unknown>;
    };
    return saved.format === STUDY_FORMAT && saved.config ? normalizedConfig(saved.config) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks that `dir` is new, empty, or holds this very study (same {@link StudyConfig} in
 * `study.json`), without writing anything.
 *
 * @throws UsageError when `dir` is a file, a non-study directory, or a study with another config.
 */
export function checkStudyDir(dir: string, config: StudyConfig): 'new' | 'resume' {
  if (!existsSync(dir)) return 'new';
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    throw new UsageError(`--out ${dir} is not a directory`, { hint: 'give a directory for the study' });
  }
  const file = join(dir, STUDY_FILE);
  if (!existsSync(file)) {
    if (entries.length === 0) return 'new';
    throw new UsageError(`--out ${dir} is not empty and holds no ${STUDY_FILE}`, {
      hint: 'give a new or empty directory, or the directory of the study to continue',
    });
  }
  let saved: { format?: string; config?: Record<string, unknown> };
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new UsageError(`${file} is not valid JSON`, {
      cause,
      hint: 'restore the file, or use a new --out',
    });
  }
  if (saved.format !== STUDY_FORMAT || !saved.config)
    throw new UsageError(`${file} is not a grapevine study file`, { hint: 'use a new --out directory' });
  if (saved.config.protocol === undefined)
    throw new UsageError(
      `${dir} holds a study made before protocols existed (its episodes follow grapevine-v0, not ${config.protocol})`,
      {
        hint: 'use a new --out directory; the old episodes still replay with: grapevine replay LOG --verify',
      },
    );
  const before = normalizedConfig(saved.config);
  const now = normalizedConfig(config as unknown as Record<string, unknown>);
  if (before.contract !== now.contract)
    throw new UsageError(
      `${dir} holds a study under the ${before.contract} reply contract; one directory never mixes contracts (this run asks for ${now.contract})`,
      {
        hint: 'continue it without --contract (it keeps its own), or use a new --out for the other contract',
      },
    );
  const diff = differingKeys(before, now);
  if (diff.length > 0)
    throw new UsageError(`${dir} holds a study with another config (${diff.join(', ')} differ)`, {
      hint: `rerun with the study's own options to continue it (see ${file}), or use a new --out`,
    });
  return 'resume';
}

/** Creates the study directory and its `study.json` (when new). */
export function initStudyDir(dir: string, config: StudyConfig): void {
  mkdirSync(join(dir, 'episodes'), { recursive: true });
  const file = join(dir, STUDY_FILE);
  if (!existsSync(file))
    writeFileAtomic(file, `${JSON.stringify({ format: STUDY_FORMAT, config }, null, 2)}\n`);
}

/** What an episode's log says about it. */
export type EpisodeState = 'missing' | 'complete' | 'partial';

function expectHeader(
  config: StudyConfig,
  ep: PlannedEpisode,
  header: Record<string, unknown>,
  path: string,
  seed: number,
) {
  const version = (header.world as { version?: string } | undefined)?.version ?? world.version;
  const raw = (header.params ?? {}) as Record<string, unknown>;
  // a log of an earlier world version is read with the parameters it means now (its contract...)
  const params = version === world.version ? raw : migrateSotopiaParams(raw, version);
  const wanted = episodeParams(config, ep);
  const bad =
    (header.world as { id?: string } | undefined)?.id !== world.id ||
    header.seed !== seed ||
    (header.llm as { model?: string } | undefined)?.model !== config.model ||
    Object.entries(wanted).some(([k, v]) => canonicalJson(params[k] ?? null) !== canonicalJson(v as Json));
  if (bad)
    throw new ConfigError(
      `${path} is not the log of ${ep.codename} pair ${ep.pair} in ${ep.mode} mode of this study`,
      {
        hint: 'it was written by another study or changed by hand: move it away and rerun',
      },
    );
}

/**
 * The state of an episode's log (attempt `k`, default 1): missing; complete (its last line
 * is the `end` event and its header is this episode's); or partial (cut short, unreadable).
 * A complete log of another episode or study is a {@link ConfigError}.
 */
export async function episodeState(
  dir: string,
  config: StudyConfig,
  ep: PlannedEpisode,
  k = 1,
): Promise<EpisodeState> {
  const path = join(dir, attemptLog(ep.log, k));
  if (!existsSync(path)) return 'missing';
  let run: Awaited<ReturnType<typeof readRecordedRun>>;
  try {
    run = await readRecordedRun(path);
  } catch (err) {
    if (isGrapevineError(err)) return 'partial';
    throw err;
  }
  if (!run.complete) return 'partial';
  expectHeader(config, ep, run.header, path, attemptSeed(ep.seed, k));
  // an LLM call that failed for good (endpoint down...) is an outage, not the model's behaviour: rerun
  if (run.llmRecords.some((r) => r.reply === null)) return 'partial';
  return 'complete';
}

/** The `end` summary of a complete log. */
async function endSummary(path: string): Promise<SotopiaSummary | undefined> {
  const lines = readLog(path);
  let summary: SotopiaSummary | undefined;
  for (;;) {
    const step = await lines.next();
    if (step.done) return summary;
    if (step.value.type === 'end') summary = step.value.event.summary as unknown as SotopiaSummary;
  }
}

/**
 * Whether attempt `k` of an episode leaves it to be run again: its judgement failed (the
 * episode is missing although it was played) and the study reruns such episodes.
 */
async function needsAnotherAttempt(dir: string, config: StudyConfig, ep: PlannedEpisode, k: number) {
  if (k >= episodeAttempts(config)) return false;
  const s = await endSummary(join(dir, attemptLog(ep.log, k)));
  return s?.missing === true && s.endReason !== 'no-script';
}

/**
 * The attempt of an episode the study has reached: the first attempt whose log is not
 * complete, or the last complete one (`done`) when no further attempt is due.
 */
async function reachedAttempt(
  dir: string,
  config: StudyConfig,
  ep: PlannedEpisode,
): Promise<{ k: number; state: EpisodeState }> {
  for (let k = 1; ; k++) {
    const state = await episodeState(dir, config, ep, k);
    if (state !== 'complete' || !(await needsAnotherAttempt(dir, config, ep, k))) return { k, state };
  }
}

/** Wall-clock figures of one episode run (never written into the report). */
export interface EpisodeTiming {
  log: string;
  mode: string;
  /** From the start of `runWorld` to the closed log. */
  wallMs: number;
  /** Sum of its LLM call latencies (sequential calls: the time it waited for the LLM). */
  llmMs: number;
  calls: number;
}

/** Options of {@link runStudy}. */
export interface StudyRunOptions {
  dir: string;
  plan: StudyPlan;
  llm: SharedLlm;
  /** Episodes at once (default 4). */
  concurrency?: number;
  /** Start at most this many episodes in this invocation (tests, staged runs). */
  maxEpisodes?: number;
  /** After each finished (or skipped) episode: episodes with a complete log, of the total. */
  onProgress?: (done: number, total: number) => void;
}

/** What {@link runStudy} did. */
export interface StudyRunResult {
  total: number;
  /** Episodes whose complete log was already there. */
  skipped: number;
  /** Partial or unreadable logs deleted before their episode was rerun. */
  discarded: number;
  /** Episodes run to completion now. */
  ran: number;
  failed: { log: string; error: string }[];
  /** Episodes not started (after `maxEpisodes`, or after a failure). */
  remaining: number;
  /** True when every episode of the plan has a complete log. */
  complete: boolean;
  timings: EpisodeTiming[];
  /** Fallback decisions (invalid replies) over the episodes run now. */
  fallbacks: number;
}

async function runEpisode(
  dir: string,
  config: StudyConfig,
  ep: PlannedEpisode,
  llm: SharedLlm,
  k: number,
): Promise<{ timing: EpisodeTiming; fallbacks: number }> {
  const log = attemptLog(ep.log, k);
  const path = join(dir, log);
  const seed = attemptSeed(ep.seed, k);
  const inputs = new InputBuffer();
  const session = llm.forRun(seed, inputs);
  let writer: LogWriter | undefined;
  const started = performance.now(); // wall-clock-ok: study timing, not simulation state
  try {
    await runWorld(world, {
      params: episodeParams(config, ep),
      seed,
      level: 'full',
      source: { kind: 'builtin' },
      llm: session.port,
      llmInfo: llm.info,
      inputs,
      fallbacks: session.counters,
      openLog: (header) => {
        writer = LogWriter.create(path, {
          ...header,
          wall: { startedAt: new Date().toISOString(), llmEndpoint: llm.endpoint }, // wall-clock-ok: the header's wall field
        });
        return writer;
      },
    });
  } catch (err) {
    try {
      writer?.close();
    } catch {
      // the log stays partial either way; it is rerun next time
    }
    throw err;
  }
  const failure = session.firstFailure();
  if (failure !== undefined) {
    renameSync(path, `${path}.failed`);
    throw new RunError(
      `${session.counters.failures} LLM call(s) failed after all retries (${failure}); its log is kept as ${log}.failed`,
    );
  }
  return {
    timing: {
      log,
      mode: ep.mode,
      wallMs: performance.now() - started, // wall-clock-ok: study timing
      llmMs: session.llmMs(),
      calls: session.counters.calls,
    },
    fallbacks: session.counters.fallbacks,
  };
}

/**
 * Runs every episode of a plan that has no complete log yet, `concurrency` at a time, each
 * through `runWorld` on the sotopia world with its own `--log full` log
 * (`dir/episodes/...`). Complete logs are kept; partial ones are deleted and rerun. An
 * episode fails when `runWorld` throws or when one of its LLM calls failed after all
 * retries (the world would have played a fallback: an outage, not the model's behaviour;
 * its log is renamed `<log>.failed`). After a failure no new episode starts (the running
 * ones finish): rerun to retry.
 */
export async function runStudy(opts: StudyRunOptions): Promise<StudyRunResult> {
  const { dir, plan, llm } = opts;
  const config = plan.config;
  checkStudyDir(dir, config);
  initStudyDir(dir, config);
  const total = plan.episodes.length;
  const todo: { ep: PlannedEpisode; k: number }[] = [];
  let skipped = 0;
  let discarded = 0;
  for (const ep of plan.episodes) {
    const { k, state } = await reachedAttempt(dir, config, ep);
    if (state === 'complete') skipped++;
    else {
      if (state === 'partial') {
        rmSync(join(dir, attemptLog(ep.log, k)), { force: true });
        discarded++;
      }
      todo.push({ ep, k });
    }
  }
  // a study with episodes to run has no valid report until they are done
  if (todo.length > 0) for (const f of STALE_ON_RERUN) rmSync(join(dir, f), { force: true });
  let done = skipped;
  opts.onProgress?.(done, total);
  const limit = Math.min(todo.length, opts.maxEpisodes ?? todo.length);
  const timings: EpisodeTiming[] = [];
  const failed: StudyRunResult['failed'] = [];
  let next = 0;
  let ran = 0;
  let fallbacks = 0;
  const worker = async () => {
    while (next < limit && failed.length === 0) {
      const { ep, k: first } = todo[next++];
      try {
        for (let k = first; ; k++) {
          const r = await runEpisode(dir, config, ep, llm, k);
          timings.push(r.timing);
          fallbacks += r.fallbacks;
          if (!(await needsAnotherAttempt(dir, config, ep, k))) break;
        }
        ran++;
        done++;
        opts.onProgress?.(done, total);
      } catch (err) {
        failed.push({ log: ep.log, error: err instanceof Error ? err.message : String(err) });
      }
    }
  };
  const k = Math.max(1, opts.concurrency ?? DEFAULT_STUDY_CONCURRENCY);
  await Promise.all(Array.from({ length: Math.min(k, Math.max(1, limit)) }, worker));
  timings.sort((a, b) => (a.log < b.log ? -1 : a.log > b.log ? 1 : 0));
  failed.sort((a, b) => (a.log < b.log ? -1 : a.log > b.log ? 1 : 0));
  return {
    total,
    skipped,
    discarded,
    ran,
    failed,
    remaining: todo.length - ran - failed.length,
    complete: skipped + ran === total,
    timings,
    fallbacks,
  };
}
