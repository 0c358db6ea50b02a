import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { JsMsg } from '@nats-io/jetstream';
import type { Json } from '../core/index.ts';
import type { LlmFlags } from '../llm/index.ts';
import { checkTicksFit } from '../world/index.ts';
import { type RunLogStore, type StoredLogRef, storedLogName } from './log-store.ts';
import { loggedOutcome } from './logged-outcome.ts';
import { DEAD_LETTER_SUBJECT, type NatsQueue, RUNS_STREAM, WORKERS_CONSUMER } from './nats-queue.ts';
import { parseQueuedRun, type RunIdentity } from './queue-spec.ts';
import { PULL_EXPIRES_MS, type QueuedResult, type QueuedRun, resultsSubject } from './queue-sweep.ts';
import { isRunFailure, RunPool } from './run-pool.ts';
import {
  BUDGET_STOP,
  LIMIT_STOP,
  type RunFailure,
  type RunOutcome,
  type RunTask,
  type WorldLocator,
} from './run-task.ts';
import { BatchBudget, type BudgetLimits } from './sweep-budget.ts';
import type { WorkerWorlds } from './worker-worlds.ts';

/** What a queue worker needs. */
export interface QueueWorkerOptions {
  queue: NatsQueue;
  /** Runs at once (worker threads). */
  concurrency: number;
  /** Folder of the logs: `<logs>/<sweep>/<run>.ndjson` (with `store`, a scratch folder: each log leaves it once stored). */
  logs: string;
  /** The object store each finished log is put in (its result names the object); none: the logs stay in `logs`. */
  store?: RunLogStore;
  /** The worlds this worker runs (built-in ids, files named on its command line). */
  worlds: WorkerWorlds;
  /** How this machine loads a world reference {@link WorkerWorlds.admit} let through. */
  locate: (ref: string) => WorldLocator;
  /** Limits of each run (wall-clock time and log events); a run past one fails. */
  limits: RunLimits;
  /** The data files (absolute paths) a spec's parameters may name (`--input-file`); none: no file. */
  inputFiles?: readonly string[];
  /**
   * Stops the worker: no more runs are taken, the runs under way are ended at once (their
   * threads terminated) and their specs handed back to the queue (another worker does them).
   */
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

/** Limits a worker puts on each run, whatever its spec asks. */
export interface RunLimits {
  /** Wall-clock milliseconds a run may take. */
  maxRunMs: number;
  /** Log lines a run may write. */
  maxEvents: number;
}

/**
 * Refuses a spec: sends it to `grapevine.dead` with the reason (once: the message is then
 * terminated, never redelivered), and, when its sweep, run id and index are well formed,
 * publishes a failure result for that run so the sweep that published it says why.
 */
async function refuse(m: JsMsg, opts: QueueWorkerOptions, reason: string, who?: RunIdentity): Promise<void> {
  const text = new TextDecoder().decode(m.data.subarray(0, DEAD_LETTER_DATA_BYTES));
  const dead = { reason, subject: m.subject, seq: m.seq, data: text };
  opts.queue.nc.publish(DEAD_LETTER_SUBJECT, JSON.stringify(dead));
  m.term(); // no reason text: servers before 2.10.4 take "+TERM reason" for something else and redeliver
  if (!who) return;
  const result: QueuedResult = {
    sweep: who.sweep,
    id: who.id,
    index: who.index,
    ...(who.seed === undefined ? {} : { seed: who.seed }),
    error: { message: `a worker refused the run: ${reason}`, hint: WORLD_HINT, exitCode: 2 },
  };
  await opts.queue.js
    .publish(resultsSubject(who.sweep), JSON.stringify(result), { msgID: `${who.sweep}.${who.id}.result` })
    .catch(() => {}); // the dead letter is the record; a lost failure result leaves the sweep waiting, as a dead worker would
}

/** The most bytes of a refused message copied into its dead letter. */
const DEAD_LETTER_DATA_BYTES = 4096;
const WORLD_HINT =
  'a worker runs built-in worlds and the world files on its own command line (grapevine worker --world FILE)';

/** A spec checked as the CLI checks a run (schema, limits, the world admitted), or undefined once refused. */
async function admitted(
  m: JsMsg,
  opts: QueueWorkerOptions,
): Promise<{ spec: QueuedRun; world: WorldLocator } | undefined> {
  const verdict = parseQueuedRun(m.data);
  if ('reason' in verdict) {
    await refuse(m, opts, verdict.reason, verdict.identity);
    return undefined;
  }
  const spec = verdict.run;
  const who = { sweep: spec.sweep, id: spec.id, index: spec.index, seed: spec.seed };
  const world = opts.worlds.admit(spec.world, spec.worldSha256);
  if ('refused' in world) {
    await refuse(m, opts, world.refused, who);
    return undefined;
  }
  try {
    if (spec.ticks !== undefined) checkTicksFit(spec.ticks);
  } catch (err) {
    await refuse(m, opts, (err as Error).message, who);
    return undefined;
  }
  return { spec, world: opts.locate(world.ref) };
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
    const outcome = await loggedOutcome(log, spec.index, spec.seed, spec.params as Record<string, Json>);
    return outcome && { outcome };
  }
  const name = storedLogName(spec.sweep, spec.id);
  if (!(await opts.store.get(name, log))) return undefined;
  const outcome = await loggedOutcome(log, spec.index, spec.seed, spec.params as Record<string, Json>);
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

/**
 * Runs a task on the pool within the worker's limits: its wall-clock limit ends the thread
 * and gives a failure; the worker's stop ends it too and gives `stopped` (the spec goes back).
 */
async function runLimited(
  task: RunTask,
  opts: QueueWorkerOptions,
  pool: RunPool,
): Promise<RunOutcome | RunFailure | 'stopped'> {
  const timeout = AbortSignal.timeout(opts.limits.maxRunMs); // wall-clock-ok: a worker's limit, never in results
  const stop = opts.signal;
  try {
    return await pool.run(task, stop ? AbortSignal.any([timeout, stop]) : timeout);
  } catch (err) {
    if (stop?.aborted) return 'stopped';
    if (!timeout.aborted) throw err;
    rmSync(task.log, { force: true });
    const seconds = opts.limits.maxRunMs / 1000;
    return {
      index: task.index,
      error: {
        message: `stopped after ${seconds} s: longer than this worker's limit per run`,
        code: LIMIT_STOP,
        hint: 'the worker allows longer runs with --max-run-seconds; or give the run fewer ticks',
        exitCode: 1,
      },
    };
  }
}

async function handle(m: JsMsg, opts: QueueWorkerOptions, state: WorkerState): Promise<void> {
  const { pool, ackWaitMs, budget } = state;
  if (budget.spent() || opts.signal?.aborted) {
    m.nak(); // taken before the budget was spent or the worker was stopped: left to another worker
    return;
  }
  const ok = await admitted(m, opts);
  if (!ok) return;
  const { spec, world } = ok;
  const log = join(opts.logs, spec.sweep, `${spec.id}.ndjson`);
  const stop = keepAlive(m, ackWaitMs);
  let result: QueuedResult;
  try {
    // a spec taken again (re-published after its dedup entry was lost, or redelivered after a
    // failed publish) whose log this worker already finished is not run twice (the local resume rule)
    const reused = await reusedLog(opts, spec, log);
    if (reused) opts.onReused?.(spec);
    else opts.onStart?.(spec);
    const task: RunTask = {
      index: spec.index,
      world,
      params: spec.params as Record<string, Json>,
      seed: spec.seed,
      ...(spec.ticks === undefined ? {} : { ticks: spec.ticks }),
      log,
      maxEvents: opts.limits.maxEvents,
      inputFiles: [...(opts.inputFiles ?? [])],
      ...(opts.llm ? { llm: budget.flagsFor(opts.llm) } : {}),
    };
    const r = reused?.outcome ?? (await runLimited(task, opts, pool));
    if (r === 'stopped') {
      m.nak(); // the worker is stopping: another worker does the run whole
      return;
    }
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
    result = {
      ...r,
      sweep: spec.sweep,
      id: spec.id,
      seed: spec.seed,
      ...(stored ? { log: stored } : {}),
    };
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
 * (the worker stopped taking runs), else false. A spec that is malformed, over a limit, or
 * names a world this worker does not run ({@link WorkerWorlds}) is sent to `grapevine.dead`
 * with the reason and terminated (never redelivered), and its run gets a failure result when
 * the spec names one; the worker goes on. Each run is held to `limits`. Resolves when
 * `signal` aborts (the runs under way are ended and handed back) or the budget is spent.
 */
export async function runQueueWorker(opts: QueueWorkerOptions): Promise<boolean> {
  const pool = new RunPool({ workers: opts.concurrency });
  const budget = new BatchBudget(opts.budget ?? {});
  const consumer = await opts.queue.js.consumers.get(RUNS_STREAM, WORKERS_CONSUMER);
  const ackWaitMs = ((await consumer.info()).config.ack_wait ?? 30e9) / 1e6;
  const messages = await consumer.consume({ max_messages: opts.concurrency, expires: PULL_EXPIRES_MS });
  opts.signal?.addEventListener('abort', () => void messages.close(), { once: true });
  if (opts.signal?.aborted) void messages.close();
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
