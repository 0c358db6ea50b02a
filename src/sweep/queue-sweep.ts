import type { JsMsg } from '@nats-io/jetstream';
import { type Json, terminalSafe } from '../core/index.ts';
import type { StoredLogRef } from './log-store.ts';
import { DEAD_LETTER_SUBJECT, type NatsQueue, RESULTS_STREAM } from './nats-queue.ts';
import { checkQueuedResult } from './queue-result.ts';
import type { RunFailure, RunOutcome } from './run-task.ts';

/** A run as it travels on the queue: the world by reference, the log by relative path. */
export interface QueuedRun {
  /** The sweep's id (a hash of its manifest): subjects and message ids carry it. */
  sweep: string;
  index: number;
  id: string;
  /** A built-in world id, or the path of a world file the worker was started with (`--world`). */
  world: string;
  /** The sha256 of the world file's bytes (a file world only): the worker runs its file only when they match. */
  worldSha256?: string;
  params: Record<string, Json>;
  seed: number;
  ticks?: number;
}

/**
 * A result on the queue: the run's outcome or failure, which sweep and run it is, and
 * where its log was stored when the worker puts logs in an object store.
 */
export type QueuedResult = (RunOutcome | RunFailure) & {
  sweep: string;
  id: string;
  /** The run's seed, as its spec gave it (the sweep checks it against what it published). */
  seed?: number;
  log?: StoredLogRef;
};

/** Subject of a sweep's run specs. */
export const runsSubject = (sweep: string) => `grapevine.runs.${sweep}`;
/** Subject of a sweep's results. */
export const resultsSubject = (sweep: string) => `grapevine.results.${sweep}`;

/**
 * Runs a sweep's runs on the queue's workers: reads the results already on the results
 * stream for this sweep (a rerun after a crash), publishes the specs of the runs still
 * missing (message id `<sweep>.<run>`, so the server drops a re-published spec within its
 * duplicate window), and resolves once every run has a result (and `onResult` has settled
 * it). A result that arrives twice (a redelivered spec run again) is counted once. Results
 * are untrusted: one that is malformed or does not match the run it names (run id, seed,
 * stored log name; {@link checkQueuedResult}) is sent to `grapevine.dead` with the reason and
 * deleted from the results stream, so it is refused once and a rerun does not meet it again.
 */
export async function runOnQueue(
  q: NatsQueue,
  runs: readonly QueuedRun[],
  onResult: (r: QueuedResult) => void | Promise<void>,
): Promise<void> {
  if (runs.length === 0) return;
  const sweep = runs[0].sweep;
  const wanted = new Set(runs.map((r) => r.index));
  const published = new Map(runs.map((r) => [r.index, { id: r.id, seed: r.seed }]));
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
    const checked = checkQueuedResult(m.data, sweep, published);
    if ('reason' in checked) await deadLetter(q, m, checked.reason);
    else if (wanted.delete(checked.result.index)) await onResult(checked.result);
    if (before > 0 && --before === 0) await publishMissing();
    if (wanted.size === 0) break;
  }
  await messages.close();
}

/** Sends a refused result to `grapevine.dead` and deletes it from the results stream. */
async function deadLetter(q: NatsQueue, m: JsMsg, reason: string): Promise<void> {
  const data = new TextDecoder().decode(m.data.subarray(0, 4096));
  q.nc.publish(DEAD_LETTER_SUBJECT, JSON.stringify({ reason, subject: m.subject, seq: m.seq, data }));
  process.stderr.write(`grapevine: a result on ${m.subject} was refused: ${terminalSafe(reason)}\n`);
  await q.jsm.streams.deleteMessage(RESULTS_STREAM, m.seq).catch(() => false);
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
