import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { type Json, sha256Hex } from '../core/index.ts';
import type { LlmFlags } from '../llm/index.ts';
import { writeTable } from '../report/index.ts';
import { loggedOutcome } from './logged-outcome.ts';
import type { NatsQueue } from './nats-queue.ts';
import { pointSummaries, summaryTable } from './point-summary.ts';
import { runOnQueue } from './queue-sweep.ts';
import type { SweepRow } from './results-table.ts';
import { resultsTable } from './results-table.ts';
import { isRunFailure, RunPool } from './run-pool.ts';
import {
  BUDGET_STOP,
  type RunFailure,
  type RunOutcome,
  type RunTask,
  type WorldLocator,
} from './run-task.ts';
import { StoredLogFetcher } from './stored-log-fetch.ts';
import { BatchBudget, type BudgetLimits } from './sweep-budget.ts';
import { claimSweepDir } from './sweep-manifest.ts';
import { type PlannedRun, planSweep } from './sweep-plan.ts';
import { sweepReportHtml } from './sweep-report.ts';
import type { SweepSpec } from './sweep-spec.ts';

/** Progress of a sweep: runs finished (skipped ones included), failed, and in all. */
export interface SweepProgress {
  done: number;
  failed: number;
  total: number;
}

/** What {@link runSweep} needs. */
export interface SweepOptions {
  spec: SweepSpec;
  /** The sweep folder (created; a rerun resumes it). */
  dir: string;
  /** How worker threads load the world. */
  world: WorldLocator;
  /** The world's identity, recorded in sweep.json (a different world is a different sweep). */
  worldInfo: { id: string; version: string; source: Json };
  /** Worker threads (default: the number of cores). */
  workers?: number;
  onProgress?: (p: SweepProgress) => void;
  /** Run on the workers of this NATS JetStream queue instead of local threads (docs/DISTRIBUTED.md). */
  queue?: NatsQueue;
  /**
   * For a world that needs an LLM: the flags each local run opens its LLM from (an
   * endpoint named, see {@link RunTask.llm}) and the model, recorded in sweep.json (another
   * model is another sweep). Queue workers take the flags on their own command line.
   */
  llm?: { flags: LlmFlags; model: string };
  /**
   * The LLM budget of the whole sweep (local runs of a world that needs an LLM): no run
   * starts once it is spent and each run gets what is left ({@link BatchBudget}); a run it
   * stops is not kept (a rerun redoes it).
   */
  budget?: BudgetLimits;
}

/** What a sweep did. */
export interface SweepResult {
  rows: SweepRow[];
  failures: { run: PlannedRun; error: RunFailure['error'] }[];
  /** Runs whose verified log was reused. */
  skipped: number;
  /** Runs not done because the LLM budget was spent (stopped mid-run or never started); a rerun does them. */
  stopped: number;
  /** What the runs of this invocation spent, when a budget was given. */
  spent?: string;
  /** Files written, relative to the folder. */
  files: string[];
}

const ticksOf = (spec: SweepSpec) => (spec.ticks === undefined ? {} : { ticks: spec.ticks });

/** The runs whose logs already verify (reused as they are); the others' logs are removed. */
async function reusable(dir: string, runs: readonly PlannedRun[]): Promise<Map<number, SweepRow['outcome']>> {
  const found = new Map<number, SweepRow['outcome']>();
  for (const run of runs) {
    const path = join(dir, run.log);
    const outcome = await loggedOutcome(path, run.index, run.seed);
    if (outcome) found.set(run.index, outcome);
    else rmSync(path, { force: true });
  }
  return found;
}

/**
 * Runs a sweep into `dir`: every (point, replicate) run on a pool of worker threads, each
 * writing `runs/<id>.ndjson`; then results.csv, results.parquet, summary.csv and
 * report.html. A rerun of the same sweep reuses every run whose log verifies (hash chain,
 * finished, same seed) and redoes the others; another sweep in the folder is refused.
 */
export async function runSweep(opts: SweepOptions): Promise<SweepResult> {
  const dir = resolve(opts.dir);
  const plan = planSweep(opts.spec);
  claimSweepDir(dir, {
    format: 'grapevine-sweep/1',
    spec: opts.spec,
    world: opts.worldInfo,
    runs: plan.runs.length,
    ...(opts.llm ? { llm: { model: opts.llm.model } } : {}),
  });
  const done = await reusable(dir, plan.runs);
  const progress: SweepProgress = { done: done.size, failed: 0, total: plan.runs.length };
  opts.onProgress?.(progress);
  const failures: SweepResult['failures'] = [];
  const todo = plan.runs.filter((r) => !done.has(r.index));
  const budget = new BatchBudget(opts.budget ?? {});
  const settle = (run: PlannedRun, r: RunOutcome | RunFailure) => {
    budget.add(r.llmSpent);
    if (isRunFailure(r) && r.error.code === BUDGET_STOP) return;
    if (isRunFailure(r)) {
      failures.push({ run, error: r.error });
      progress.failed++;
    } else {
      const { llmSpent: _spent, ...outcome } = r;
      done.set(run.index, outcome);
    }
    progress.done++;
    opts.onProgress?.(progress);
  };
  if (todo.length && opts.queue) {
    const sweep = sha256Hex(readFileSync(join(dir, 'sweep.json'))).slice(0, 16);
    const queued = todo.map((run) => ({
      sweep,
      index: run.index,
      id: run.id,
      world: opts.world.ref,
      params: run.params,
      seed: run.seed,
      ...ticksOf(opts.spec),
    }));
    const fetcher = new StoredLogFetcher(opts.queue.js);
    await runOnQueue(opts.queue, queued, async (r) => {
      const run = plan.runs[r.index];
      settle(run, await fetcher.settle(r, join(dir, run.log), run.seed));
    });
  } else if (todo.length) {
    await runLocally(opts, dir, todo, budget, settle);
  }
  const rows = plan.runs.flatMap((run) => {
    const outcome = done.get(run.index);
    return outcome ? [{ run, point: plan.points[run.point], outcome }] : [];
  });
  const files = await writeOutputs(dir, rows, plan.points, opts.spec, opts.worldInfo);
  failures.sort((a, b) => a.run.index - b.run.index);
  const stopped = plan.runs.length - done.size - failures.length;
  const spent = budget.limited ? { spent: budget.describe() } : {};
  return { rows, failures, skipped: plan.runs.length - todo.length, stopped, files, ...spent };
}

/**
 * How many worker threads a local sweep of `runs` runs starts: the number asked for, or one
 * per core (a thread per run would load the world and hold a heap in each), never more than
 * there are runs, at least one.
 */
export function sweepThreads(requested: number | undefined, runs: number): number {
  return Math.max(1, Math.min(requested ?? availableParallelism(), runs));
}

/**
 * Runs `todo` on a pool of worker threads, one lane per thread: a lane takes the next run
 * until none is left or the budget is spent.
 */
async function runLocally(
  opts: SweepOptions,
  dir: string,
  todo: readonly PlannedRun[],
  budget: BatchBudget,
  settle: (run: PlannedRun, r: RunOutcome | RunFailure) => void,
): Promise<void> {
  const workers = sweepThreads(opts.workers, todo.length);
  const pool = new RunPool({ workers });
  let next = 0;
  const lane = async () => {
    while (next < todo.length && !budget.spent()) {
      const run = todo[next++];
      const task: RunTask = {
        index: run.index,
        world: opts.world,
        params: run.params,
        seed: run.seed,
        log: join(dir, run.log),
        ...ticksOf(opts.spec),
        ...(opts.llm ? { llm: budget.flagsFor(opts.llm.flags) } : {}),
      };
      settle(run, await pool.run(task));
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, lane));
  } finally {
    await pool.close();
  }
}

async function writeOutputs(
  dir: string,
  rows: SweepRow[],
  points: ReturnType<typeof planSweep>['points'],
  spec: SweepSpec,
  world: { id: string; version: string },
): Promise<string[]> {
  await writeTable(resultsTable(rows), 'csv', join(dir, 'results.csv'));
  await writeTable(resultsTable(rows), 'parquet', join(dir, 'results.parquet'));
  await writeTable(summaryTable(pointSummaries(rows, points)), 'csv', join(dir, 'summary.csv'));
  writeFileSync(join(dir, 'report.html'), sweepReportHtml({ spec, world, rows, points }));
  return ['results.csv', 'results.parquet', 'summary.csv', 'report.html'];
}
