import { rmSync } from 'node:fs';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { Json } from '../core/index.ts';
import { RunLogStore } from './log-store.ts';
import { loggedOutcome } from './logged-outcome.ts';
import type { QueuedResult } from './queue-sweep.ts';
import { isRunFailure } from './run-pool.ts';
import type { RunFailure, RunOutcome } from './run-task.ts';

/**
 * The coordinator's side of logs in an object store: fetches the log a queued result
 * names into the sweep folder and checks it (hash chain, finished, the planned seed and
 * parameters, and the digest the worker reported), so the folder holds every log as a local sweep's does
 * and a rerun resumes from it. Buckets are opened once.
 */
export class StoredLogFetcher {
  private readonly stores = new Map<string, Promise<RunLogStore>>();

  constructor(private readonly js: JetStreamClient) {}

  /**
   * The result as the sweep records it: the outcome (without the queue's fields) when its
   * log was fetched to `path` and verifies, or when it names no log; a failure otherwise.
   */
  async settle(
    r: QueuedResult,
    path: string,
    seed: number,
    params?: Record<string, Json>,
  ): Promise<RunOutcome | RunFailure> {
    const { sweep: _s, id: _i, seed: _seed, log, ...plain } = r;
    if (isRunFailure(plain) || !log) return plain;
    try {
      let store = this.stores.get(log.bucket);
      if (!store) {
        store = RunLogStore.existing(this.js, log.bucket);
        this.stores.set(log.bucket, store);
      }
      if (!(await (await store).get(log.name, path)))
        return failed(r.index, `its log ${log.name} is not in the object store ${log.bucket}`);
    } catch (err) {
      return failed(r.index, `its log could not be fetched: ${(err as Error).message}`);
    }
    const outcome = await loggedOutcome(path, r.index, seed, params);
    if (outcome?.digest === plain.digest) return plain;
    rmSync(path, { force: true });
    rmSync(`${path}.verified`, { force: true });
    return failed(r.index, `its log ${log.name} from the object store ${log.bucket} does not verify`);
  }
}

const failed = (index: number, message: string): RunFailure => ({
  index,
  error: { message, hint: 'rerun the sweep: the run is redone', exitCode: 1 },
});
