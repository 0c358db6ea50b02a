import type { ReferenceRng } from './reference-rng.ts';

/**
 * Deffuant et al. (2000) on a complete graph, random sequential: n pair meetings per unit of
 * time, both sides move μ of the difference when it is below ε; stops when every group of
 * opinions closer than ε is narrower than `tol` (nothing can move by `tol` any more).
 */
export function deffuantReference(
  n: number,
  eps: number,
  mu: number,
  tol: number,
  rng: ReferenceRng,
): number[] {
  const x = Array.from({ length: n }, () => rng.next());
  for (let round = 0; round < 1_000_000; round++) {
    for (let k = 0; k < n; k++) {
      const i = rng.int(n);
      let j = rng.int(n - 1);
      if (j >= i) j++;
      const d = x[j] - x[i];
      if (Math.abs(d) < eps) {
        x[i] += mu * d;
        x[j] -= mu * d;
      }
    }
    if (settled(x, eps, tol)) break;
  }
  return x.sort((a, b) => a - b);
}

function settled(x: readonly number[], eps: number, tol: number): boolean {
  const s = [...x].sort((a, b) => a - b);
  let start = s[0];
  for (let k = 1; k < s.length; k++) {
    if (s[k] - s[k - 1] >= eps) start = s[k];
    else if (s[k] - start >= tol) return false;
  }
  return true;
}

/** Groups of sorted opinions split where neighbours differ by more than `gap`; those of at least `share`·n agents. */
export function majorGroups(sorted: readonly number[], gap: number, share: number): number {
  let groups = 0;
  let size = 1;
  for (let k = 1; k <= sorted.length; k++) {
    if (k === sorted.length || sorted[k] - sorted[k - 1] > gap) {
      if (size >= share * sorted.length) groups++;
      size = 1;
    } else size++;
  }
  return groups;
}

/**
 * Hegselmann & Krause (2002) bounded confidence, synchronous, written with a sliding window
 * over the opinions sorted afresh each step: each agent moves to the mean of every opinion
 * within ε of its own (inclusive, itself included). Stops at the first step in which no
 * opinion moved by `tol` or more; returns the final opinions in the input's agent order.
 */
export function hegselmannKrauseWindow(
  x0: readonly number[],
  eps: number,
  tol: number,
  maxTicks: number,
): number[] {
  const n = x0.length;
  let x = [...x0];
  for (let t = 0; t < maxTicks; t++) {
    const order = [...x.keys()].sort((a, b) => x[a] - x[b]);
    const sorted = order.map((i) => x[i]);
    const prefix = [0];
    for (const v of sorted) prefix.push(prefix[prefix.length - 1] + v);
    const next = new Array<number>(n);
    let lo = 0;
    let hi = 0;
    order.forEach((agent, k) => {
      const v = sorted[k];
      while (sorted[lo] < v - eps) lo++;
      while (hi < n && sorted[hi] <= v + eps) hi++;
      next[agent] = (prefix[hi] - prefix[lo]) / (hi - lo);
    });
    const moved = Math.max(...next.map((v, i) => Math.abs(v - x[i])));
    x = next;
    if (moved < tol) break;
  }
  return x;
}
