import { canonicalJson, type Json } from '../core/index.ts';
import { readLog } from '../replay/index.ts';
import type { RunOutcome } from './run-task.ts';

/**
 * The outcome of a finished run read back from its log, with the hash chain verified:
 * digest, end reason and ticks, the last tick's metrics and the end's summary (the same
 * values the run reported). Undefined when the log is missing, damaged, unfinished, or
 * holds another seed, or (when `params` are given) another value of one of them: such a run
 * must be redone.
 */
export async function loggedOutcome(
  path: string,
  index: number,
  seed: number,
  params?: Record<string, Json>,
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
        if (params && !sameParams(params, s.header.params)) return undefined;
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

/** True when the log header's parameters hold each planned value. */
function sameParams(planned: Record<string, Json>, recorded: unknown): boolean {
  if (typeof recorded !== 'object' || recorded === null) return false;
  const r = recorded as Record<string, unknown>;
  return Object.entries(planned).every(
    ([k, v]) => Object.hasOwn(r, k) && canonicalJson(r[k] as Json) === canonicalJson(v),
  );
}
