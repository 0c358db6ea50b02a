import type { Json } from '../core/index.ts';
import type { StoredLogRef } from './log-store.ts';
import { type NatsQueue, RESULTS_STREAM } from './nats-queue.ts';
import type { RunFailure, RunOutcome } from './run-task.ts';

/** A run as it travels on the queue: the world by reference, the log by relative path. */
export interface QueuedRun {
  /** The sweep's id (a hash of its manifest): subjects and message ids carry it. */
  sweep: string;
  index: number;
  id: string;
  /** A built-in world id, or a world file path that must exist on the worker's machine. */
  world: string;
  params: Record<string, Json>;
  seed: number;
  ticks?: number;
}

/**
 * A result on the queue: the run's outcome or failure, which sweep and run it is, and
 * where its log was stored when the worker puts logs in an object store.
 */
export type QueuedResult = (RunOutcome | RunFailure) & { sweep: string; id: string; log?: StoredLogRef };

/** Subject of a sweep's run specs. */
export const runsSubject = (sweep: string) => `grapevine.runs.${sweep}`;
/** Subject of a sweep's results. */
export const resultsSubject = (sweep: string) => `grapevine.results.${sweep}`;

/**
 * Runs a sweep's runs on the queue's workers: reads the results already on the results
 * stream for this sweep (a rerun after a crash), publishes the specs of the runs still
 * missing (message id `<sweep>.<run>`, so the server drops a re-published spec within its
 * duplicate window), and resolves once every run has a result (and `onResult` has settled
 * it). A result that arrives twice
 * (a redelivered spec run again) is counted once.
 */
export async function runOnQueue(
  q: NatsQueue,
  runs: readonly QueuedRun[],
  onResult: (r: QueuedResult) => void | Promise<void>,
): Promise<void> {
  if (runs.length === 0) return;
  const sweep = runs[0].sweep;
  const wanted = new Set(runs.map((r) => r.index));
  const consumer = await q.js.consumers.get(RESULTS_STREAM, { filter_subjects: resultsSubject(sweep) });
  let before = (await consumer.info()).num_pending;
  const publishMissing = async () => {
    for (const run of runs)
      if (wanted.has(run.index))
        await persist(() =>
          q.js.publish(runsSubject(sweep), JSON.stringify(run), { msgID: `${sweep}.${run.id}` }),
        );
  };
  if (before === 0) await publishMissing();
  // short pulls: after a server restart the consumer notices the lost pull within seconds
  const messages = await consumer.consume({ expires: PULL_EXPIRES_MS });
  for await (const m of messages) {
    const r = m.json<QueuedResult>();
    if (wanted.delete(r.index)) await onResult(r);
    if (before > 0 && --before === 0) await publishMissing();
    if (wanted.size === 0) break;
  }
  await messages.close();
}

/** How long one pull request of a consumer lasts (its heartbeats come twice as often). */
export const PULL_EXPIRES_MS = 5000;

/**
 * Retries a request the server may miss while it restarts (the client reconnects on its
 * own), for up to two minutes: a publish with a message id is safe to repeat.
 */
async function persist<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (err) {
      if (attempt >= 240) throw err;
      await new Promise((r) => setTimeout(r, 500)); // wall-clock-ok: transport retry, never in results
    }
  }
}
