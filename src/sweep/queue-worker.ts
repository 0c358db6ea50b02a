import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { JsMsg } from '@nats-io/jetstream';
import { z } from 'zod';
import type { Json } from '../core/index.ts';
import type { LlmFlags } from '../llm/index.ts';
import { type RunLogStore, type StoredLogRef, storedLogName } from './log-store.ts';
import { loggedOutcome } from './logged-outcome.ts';
import { DEAD_LETTER_SUBJECT, type NatsQueue, RUNS_STREAM, WORKERS_CONSUMER } from './nats-queue.ts';
import { PULL_EXPIRES_MS, type QueuedResult, type QueuedRun, resultsSubject } from './queue-sweep.ts';
import { isRunFailure, RunPool } from './run-pool.ts';
import { BUDGET_STOP, type RunOutcome, type WorldLocator } from './run-task.ts';
import { BatchBudget, type BudgetLimits } from './sweep-budget.ts';

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const QUEUED_RUN = z.strictObject({
  sweep: z.string().regex(SAFE_ID),
  index: z.number().int().min(0),
  id: z.string().regex(SAFE_ID),
  world: z.string().min(1),
  params: z.record(z.string(), z.unknown()),
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  ticks: z.number().int().min(0).optional(),
});

/** What a queue worker needs. */
export interface QueueWorkerOptions {
  queue: NatsQueue;
  /** Runs at once (worker threads). */
  concurrency: number;
  /** Folder of the logs: `<logs>/<sweep>/<run>.ndjson` (with `store`, a scratch folder: each log leaves it once stored). */
  logs: string;
  /** The object store each finished log is put in (its result names the object); none: the logs stay in `logs`. */
  store?: RunLogStore;
  /** How this machine loads a world reference. */
  locate: (ref: string) => WorldLocator;
  /** Stops taking runs (the runs under way finish and are acked). */
  signal?: AbortSignal;
  /** Called when a run starts (its spec is valid and handed to a thread). */
  onStart?: (run: QueuedRun) => void;
  /** Called when a spec's log already verifies here: its result is published again, the run is not redone. */
  onReused?: (run: QueuedRun) => void;
  /** The LLM flags runs of worlds that need an LLM open theirs from (an endpoint named). */
  llm?: LlmFlags;
  /** Called after each run's result is published. */
  onResult?: (r: QueuedResult) => void;
  /**
   * The LLM budget of this worker, over all its runs ({@link BatchBudget}): a run it stops
   * is not published but handed back to the queue (another worker does it), and the worker
   * stops taking runs; {@link runQueueWorker} then resolves to true.
   */
  budget?: BudgetLimits;
}

/** Parses a spec; a reason when it is malformed. */
function parseSpec(m: JsMsg): QueuedRun | string {
  let raw: unknown;
  try {
    raw = m.json();
  } catch {
    return 'the spec is not JSON';
  }
  const parsed = QUEUED_RUN.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `the spec is malformed: ${issue.path.join('.') || '(top level)'}: ${issue.message}`;
  }
  return parsed.data as QueuedRun;
}

/** Removes a scratch log and its index (the object store holds them now). */
function rmLog(log: string): void {
  rmSync(log, { force: true });
  rmSync(`${log}.verified`, { force: true });
}

/**
 * The outcome of a spec this worker (or, with a store, any worker) already finished: its
 * log verifies (finished, same seed). With a store, the log is fetched from it first; a
 * stored log that does not verify is removed from the store and the run is redone.
 */
async function reusedLog(
  opts: QueueWorkerOptions,
  spec: QueuedRun,
  log: string,
): Promise<{ outcome: RunOutcome; stored?: StoredLogRef } | undefined> {
  if (!opts.store) {
    const outcome = await loggedOutcome(log, spec.index, spec.seed);
    return outcome && { outcome };
  }
  const name = storedLogName(spec.sweep, spec.id);
  if (!(await opts.store.get(name, log))) return undefined;
  const outcome = await loggedOutcome(log, spec.index, spec.seed);
  if (outcome) return { outcome, stored: { bucket: opts.store.bucket, name } };
  await opts.store.remove(name);
  rmLog(log);
  return undefined;
}

/**
 * Tells the server every third of the ack wait that the run is still under way, so a run
 * longer than the ack wait is not handed to another worker while this one is alive; a
 * killed worker stops telling and its spec is redelivered one ack wait later.
 */
function keepAlive(m: JsMsg, ackWaitMs: number): () => void {
  const timer = setInterval(() => m.working(), Math.max(50, Math.floor(ackWaitMs / 3)));
  return () => clearInterval(timer);
}

/** What a worker's runs share: its thread pool, the ack wait, its budget, and the stop of its pulls. */
interface WorkerState {
  pool: RunPool;
  ackWaitMs: number;
  budget: BatchBudget;
  stop: () => void;
}

async function handle(m: JsMsg, opts: QueueWorkerOptions, state: WorkerState): Promise<void> {
  const { pool, ackWaitMs, budget } = state;
  const spec = parseSpec(m);
  if (budget.spent() && typeof spec !== 'string') {
    m.nak(); // taken before the budget was spent: left to another worker
    return;
  }
  if (typeof spec === 'string') {
    const dead = { reason: spec, subject: m.subject, seq: m.seq, data: m.string() };
    opts.queue.nc.publish(DEAD_LETTER_SUBJECT, JSON.stringify(dead));
    m.term(spec);
    return;
  }
  const log = join(opts.logs, spec.sweep, `${spec.id}.ndjson`);
  const stop = keepAlive(m, ackWaitMs);
  let result: QueuedResult;
  try {
    // a spec taken again (re-published after its dedup entry was lost, or redelivered after a
    // failed publish) whose log this worker already finished is not run twice (the local resume rule)
    const reused = await reusedLog(opts, spec, log);
    if (reused) opts.onReused?.(spec);
    else opts.onStart?.(spec);
    const r =
      reused?.outcome ??
      (await pool.run({
        index: spec.index,
        world: opts.locate(spec.world),
        params: spec.params as Record<string, Json>,
        seed: spec.seed,
        ...(spec.ticks === undefined ? {} : { ticks: spec.ticks }),
        log,
        ...(opts.llm ? { llm: budget.flagsFor(opts.llm) } : {}),
      }));
    budget.add(r.llmSpent);
    if (budget.spent()) state.stop();
    if (isRunFailure(r) && r.error.code === BUDGET_STOP) {
      // not a finished run: handed back at once to the queue for another worker
      m.nak();
      return;
    }
    const stored =
      reused?.stored ??
      (opts.store && !isRunFailure(r)
        ? await opts.store.put(storedLogName(spec.sweep, spec.id), log)
        : undefined);
    result = { ...r, sweep: spec.sweep, id: spec.id, ...(stored ? { log: stored } : {}) };
    // the result first, the ack after: a worker killed in between leaves the spec to be redelivered
    await opts.queue.js.publish(resultsSubject(spec.sweep), JSON.stringify(result), {
      msgID: `${spec.sweep}.${spec.id}.result`,
    });
  } finally {
    stop();
    if (opts.store) rmLog(log);
  }
  m.ack();
  opts.onResult?.(result);
}

/**
 * Pulls run specs from the shared work-queue consumer and runs up to `concurrency` of them
 * at once on worker threads; each result is published (message id `<sweep>.<run>.result`)
 * before its spec is acked; while a run is under way the worker tells the server so every
 * third of the ack wait. With a `store`, each finished log is put in it before the result
 * is published, and the result names the object. A spec whose log (in `logs`, or in the
 * store) already verifies (finished, same seed) is not run again: its logged outcome is published (a result that arrives twice is
 * counted once by the coordinator). With a `budget`, resolves to true when it was spent
 * (the worker stopped taking runs), else false. A malformed spec is sent to `grapevine.dead` with the reason
 * and terminated (never redelivered); the worker goes on. Resolves when `signal` aborts
 * or the budget is spent.
 */
export async function runQueueWorker(opts: QueueWorkerOptions): Promise<boolean> {
  const pool = new RunPool({ workers: opts.concurrency });
  const budget = new BatchBudget(opts.budget ?? {});
  const consumer = await opts.queue.js.consumers.get(RUNS_STREAM, WORKERS_CONSUMER);
  const ackWaitMs = ((await consumer.info()).config.ack_wait ?? 30e9) / 1e6;
  const messages = await consumer.consume({ max_messages: opts.concurrency, expires: PULL_EXPIRES_MS });
  opts.signal?.addEventListener('abort', () => void messages.close(), { once: true });
  const state: WorkerState = { pool, ackWaitMs, budget, stop: () => void messages.close() };
  const inFlight = new Set<Promise<void>>();
  try {
    for await (const m of messages) {
      // a failed publish or ack (server gone) leaves the spec unacked: it is redelivered after the ack wait
      const job: Promise<void> = handle(m, opts, state)
        .catch((err) => {
          process.stderr.write(`grapevine worker: ${(err as Error).message}\n`);
        })
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
      if (inFlight.size >= opts.concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  } finally {
    await pool.close();
  }
  return budget.spent();
}
