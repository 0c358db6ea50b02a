import type { FinalState } from './final-state.ts';

/** Who knew which of two items, tick by tick: counts of agents per tick. */
export interface Asymmetry {
  a: string;
  b: string;
  ticks: number[];
  onlyA: number[];
  onlyB: number[];
  both: number[];
  neither: number[];
  /** At the snapshot: agents per (state in a's region, state in b's region). */
  final: { statesA: readonly string[]; statesB: readonly string[]; counts: number[][] } | null;
}

function learnedBy(at: ArrayLike<number>, ticks: readonly number[], extra?: ArrayLike<number>): number[] {
  const hist = new Array<number>(ticks.length).fill(0);
  for (let i = 0; i < at.length; i++) {
    let t = at[i];
    if (!(t >= 0)) continue;
    if (extra) {
      const u = extra[i];
      if (!(u >= 0)) continue;
      t = Math.max(t, u);
    }
    let lo = 0;
    let hi = ticks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ticks[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    if (lo < ticks.length) hist[lo]++;
  }
  for (let j = 1; j < hist.length; j++) hist[j] += hist[j - 1];
  return hist;
}

/**
 * Information asymmetry between items `a` and `b`: for each tick, how many agents had heard
 * only a, only b, both or neither, where "heard x by tick t" means `at_x <= t` in the
 * final snapshot's provenance (the tick of the first telling, which never changes once
 * set). The end-of-run cross-tabulation uses the items' statechart regions instead, so it
 * tells belief (e.g. spreader or stifler) from mere hearing.
 */
export function asymmetry(state: FinalState, a: string, b: string, ticks: readonly number[]): Asymmetry {
  const atA = state.slots.get(`at_${a}`);
  const atB = state.slots.get(`at_${b}`);
  if (!atA || !atB) throw new Error(`no provenance slots for ${a} and ${b}`);
  const knowA = learnedBy(atA, ticks);
  const knowB = learnedBy(atB, ticks);
  const both = learnedBy(atA, ticks, atB);
  const n = state.size;
  return {
    a,
    b,
    ticks: [...ticks],
    onlyA: knowA.map((x, j) => x - both[j]),
    onlyB: knowB.map((x, j) => x - both[j]),
    both,
    neither: knowA.map((x, j) => n - x - knowB[j] + both[j]),
    final: crossTab(state, a, b),
  };
}

function crossTab(state: FinalState, a: string, b: string): Asymmetry['final'] {
  const ra = state.regions.get(a);
  const rb = state.regions.get(b);
  if (!ra || !rb) return null;
  const counts = ra.states.map(() => new Array<number>(rb.states.length).fill(0));
  for (let i = 0; i < state.size; i++) counts[ra.values[i]][rb.values[i]]++;
  return { statesA: ra.states, statesB: rb.states, counts };
}
