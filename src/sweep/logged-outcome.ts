import type { Json } from '../core/index.ts';
import { readLog } from '../replay/index.ts';
import type { RunOutcome } from './run-task.ts';

/**
 * The outcome of a finished run read back from its log, with the hash chain verified:
 * digest, end reason and ticks, the last tick's metrics and the end's summary (the same
 * values the run reported). Undefined when the log is missing, damaged, unfinished, or
 * holds another seed: such a run must be redone.
 */
export async function loggedOutcome(
  path: string,
  index: number,
  seed: number,
): Promise<RunOutcome | undefined> {
  let metrics: Record<string, number> = {};
  let end: Record<string, unknown> | undefined;
  const lines = readLog(path);
  try {
    for (;;) {
      const step = await lines.next();
      if (step.done) {
        const s = step.value;
        if (!s.complete || !end || s.digest === null || s.header.seed !== seed) return undefined;
        return {
          index,
          digest: s.digest,
          ticks: end.ticks as number,
          reason: end.reason as string,
          metrics,
          summary: (end.summary ?? {}) as Record<string, Json>,
        };
      }
      const line = step.value;
      if (line.type === 'tick') metrics = (line.event.metrics ?? {}) as Record<string, number>;
      else if (line.type === 'end') end = line.event;
    }
  } catch {
    return undefined;
  }
}
