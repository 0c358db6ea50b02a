import type { Json, MetricDeclarations, WorldView } from '../../src/index.ts';

type MetricSpec = MetricDeclarations[string];

import { H, ITEMS } from './machine.ts';

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

/** What each metric of {@link rumorMetrics} means (the world's `metrics` declaration). */
export function rumorMetricSpecs(): MetricDeclarations {
  const out: Record<string, MetricSpec> = {};
  for (const item of ITEMS) {
    const states = `${item}: agents per state`;
    const count = (state: string, label: string): MetricSpec => ({
      label,
      unit: 'agents',
      kind: 'state-count',
      region: item,
      state,
      item,
      group: states,
    });
    out[`${item}.ignorant`] = count('ignorant', 'ignorant');
    out[`${item}.unconvinced`] = count('aware', 'heard, unconvinced');
    out[`${item}.spreader`] = count('spreader', 'spreader');
    out[`${item}.stifler`] = count('stifler', 'stifler');
    out[`${item}.aware`] = {
      label: `${item}: heard it`,
      unit: 'agents',
      kind: 'count',
      item,
      group: 'Agents who heard each item',
    };
    out[`${item}.new`] = {
      label: `${item}: first heard`,
      unit: 'agents per tick',
      kind: 'count',
      item,
      group: 'Newly aware per tick',
    };
    out[`${item}.fractionAware`] = {
      label: `${item}: share aware`,
      unit: 'share of agents',
      kind: 'share',
      item,
      group: 'Fraction aware',
    };
  }
  return out;
}
