import type { Json, WorldView } from '../../src/index.ts';
import { ITEMS } from './machine.ts';

/** Per-tick metrics: agents per state per item, newly informed, aware and fraction aware. */
export function rumorMetrics(view: WorldView): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of ITEMS) {
    for (const state of ['ignorant', 'spreader', 'stifler'])
      out[`${item}.${state}`] = view.count(item, state);
    const at = view.memoryColumn(`at_${item}`);
    let aware = 0;
    let fresh = 0;
    for (let i = 0; i < at.length; i++) {
      const t = at[i];
      if (t >= 0) {
        aware++;
        if (t === view.tick) fresh++;
      }
    }
    out[`${item}.aware`] = aware;
    out[`${item}.new`] = fresh;
    out[`${item}.fractionAware`] = aware / view.size;
  }
  return out;
}

/** Final summary per item: reach, peak spreaders, time to peak, time to extinction. */
export function rumorSummary(history: readonly Record<string, number>[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const item of ITEMS) {
    let peak = -1;
    let timeToPeak = 0;
    let extinction: number | null = null;
    history.forEach((m, t) => {
      const s = m[`${item}.spreader`];
      if (s > peak) {
        peak = s;
        timeToPeak = t;
      }
      if (extinction === null && t > 0 && s === 0) extinction = t;
    });
    const last = history[history.length - 1] ?? {};
    out[item] = {
      reach: last[`${item}.fractionAware`] ?? 0,
      aware: last[`${item}.aware`] ?? 0,
      peak,
      timeToPeak,
      timeToExtinction: extinction,
    };
  }
  return out;
}
