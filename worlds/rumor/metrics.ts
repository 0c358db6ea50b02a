import type { Json, WorldView } from '../../src/index.ts';
import { H } from './machine.ts';

/**
 * Per-tick metrics, per item: agents per state, `aware` (ever heard of it), `new` (first
 * heard this tick) and `fractionAware`. All from the executor's state counts: O(1).
 */
export function rumorMetrics(
  view: WorldView,
  previous: Readonly<Record<string, number>> | undefined,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of H) {
    const counts = view.executor.counts(x.region);
    const ignorant = counts[x.ignorant];
    out[`${x.name}.ignorant`] = ignorant;
    out[`${x.name}.aware`] = view.size - ignorant;
    out[`${x.name}.spreader`] = counts[x.spreader];
    out[`${x.name}.stifler`] = counts[x.stifler];
    out[`${x.name}.unconvinced`] = counts[x.aware];
    out[`${x.name}.new`] = (previous?.[`${x.name}.ignorant`] ?? view.size) - ignorant;
    out[`${x.name}.fractionAware`] = (view.size - ignorant) / view.size;
  }
  return out;
}

/** Final summary per item: reach, peak spreaders, time to peak, time to extinction. */
export function rumorSummary(history: readonly Record<string, number>[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const { name } of H) {
    let peak = -1;
    let timeToPeak = 0;
    let extinction: number | null = null;
    history.forEach((m, t) => {
      const s = m[`${name}.spreader`];
      if (s > peak) {
        peak = s;
        timeToPeak = t;
      }
      if (extinction === null && t > 0 && s === 0) extinction = t;
    });
    const last = history[history.length - 1] ?? {};
    out[name] = {
      reach: last[`${name}.fractionAware`] ?? 0,
      aware: last[`${name}.aware`] ?? 0,
      peak,
      timeToPeak,
      timeToExtinction: extinction,
    };
  }
  return out;
}
