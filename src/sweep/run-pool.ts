import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Tinypool from 'tinypool';
import type { ForkTask } from './fork-task.ts';
import type { RunFailure, RunOutcome, RunTask } from './run-task.ts';

/**
 * The worker module beside this one: run-worker.js from dist/; from the sources, a small
 * entry that registers the TypeScript loader in the thread first (run-worker-source.mjs).
 */
const WORKER = new URL(
  extname(fileURLToPath(import.meta.url)) === '.ts' ? './run-worker-source.mjs' : './run-worker.js',
  import.meta.url,
);

/** Options of a {@link RunPool}. */
export interface RunPoolOptions {
  /** Worker threads (default: the number of cores, `os.availableParallelism()`). */
  workers?: number;
}

/** True when a worker reported a failure rather than an outcome. */
export function isRunFailure(r: RunOutcome | RunFailure): r is RunFailure {
  return 'error' in r;
}

/**
 * A pool of worker threads (tinypool) that run {@link RunTask}s: each run's world is
 * loaded once per thread, the run writes its own log, and the outcome comes back as data.
 * Runs are independent and deterministic, so which thread runs which task changes
 * nothing in the logs or the outcomes. Reusable by any batch of runs (sweeps, replicates).
 */
export class RunPool {
  private readonly pool: Tinypool;
  /** The number of worker threads. */
  readonly workers: number;

  constructor(opts: RunPoolOptions = {}) {
    this.workers = opts.workers ?? availableParallelism();
    this.pool = new Tinypool({
      filename: WORKER.href,
      minThreads: 1,
      maxThreads: this.workers,
      // a thread keeps its loaded worlds between runs
      isolateWorkers: false,
    });
  }

  /**
   * Runs one task on a free thread. Resolves to its outcome, or to the failure it reported.
   * When `signal` aborts, the task's thread is ended at once (a world stuck in a loop too)
   * and the promise rejects with an `AbortError`; the pool starts another thread.
   */
  run(task: RunTask, signal?: AbortSignal): Promise<RunOutcome | RunFailure> {
    return this.pool.run(task, { name: 'runTask', ...(signal ? { signal } : {}) }) as Promise<
      RunOutcome | RunFailure
    >;
  }

  /** Writes one child of a fork batch on a free thread. Resolves to its outcome, or to the failure it reported. */
  fork(task: ForkTask): Promise<RunOutcome | RunFailure> {
    return this.pool.run(task, { name: 'forkTask' }) as Promise<RunOutcome | RunFailure>;
  }

  /** Stops every thread (pending tasks are rejected). */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
