import type { ReferenceRng } from './reference-rng.ts';

/**
 * G(n, p) as adjacency lists, by the geometric skipping of Batagelj & Brandes (2005, Phys.
 * Rev. E 71:036113, algorithm 1): every pair linked independently with probability p.
 */
export function gnp(n: number, p: number, rng: ReferenceRng): number[][] {
  const adj: number[][] = Array.from({ length: n }, () => []);
  if (p <= 0) return adj;
  const lq = Math.log(1 - p);
  let v = 1;
  let w = -1;
  while (v < n) {
    w += 1 + Math.floor(Math.log(1 - rng.next()) / lq);
    while (w >= v && v < n) {
      w -= v;
      v++;
    }
    if (v < n) {
      adj[v].push(w);
      adj[w].push(v);
    }
  }
  return adj;
}

/** Size of the connected component of `start`, keeping each edge with probability `keep`. */
export function percolatedComponent(adj: number[][], start: number, keep: number, rng: ReferenceRng): number {
  return reachedFrom(adj, start, () => keep, rng);
}

/**
 * How many agents are reached from `start` when each edge out of a reached agent `v` is kept
 * with probability `keepOut()`, drawn once when `v` is reached (each edge is tried at most
 * once: from the side reached first).
 */
function reachedFrom(adj: number[][], start: number, keepOut: () => number, rng: ReferenceRng): number {
  const seen = new Uint8Array(adj.length);
  const stack = [start];
  seen[start] = 1;
  let size = 0;
  while (stack.length > 0) {
    const v = stack.pop()!;
    size++;
    const keep = keepOut();
    for (const u of adj[v])
      if (!seen[u] && rng.next() < keep) {
        seen[u] = 1;
        stack.push(u);
      }
  }
  return size;
}

/**
 * Final size of a Watts (2002) threshold cascade from `seed`: an agent adopts once the share
 * of its neighbours that adopted reaches φ. Adoption is monotone, so the order of updates does
 * not change the final set.
 */
export function wattsCascade(adj: number[][], seed: number, phi: number): number {
  const n = adj.length;
  const active = new Uint8Array(n);
  const count = new Int32Array(n);
  const queue = [seed];
  active[seed] = 1;
  let size = 0;
  while (queue.length > 0) {
    const v = queue.pop()!;
    size++;
    for (const u of adj[v]) {
      if (active[u]) continue;
      count[u]++;
      if (count[u] / adj[u].length >= phi) {
        active[u] = 1;
        queue.push(u);
      }
    }
  }
  return size;
}

/**
 * Final size (agents ever infected) of the Markovian per-edge SIR from `start`, by its
 * epidemic percolation network (Kenah & Robins 2007, Phys. Rev. E 76:036113): each infected
 * agent u draws its infectious period I ~ Exp(γ), and each edge u→v transmits iff its first
 * try, at Exp(τ), comes before I, i.e. with probability 1 − e^(−τI) given I. The final set
 * is everything reachable from `start`; the order of infections does not change it.
 */
export function perEdgeSirFinalSize(
  adj: number[][],
  start: number,
  tau: number,
  gamma: number,
  rng: ReferenceRng,
): number {
  return reachedFrom(adj, start, () => 1 - Math.exp(-tau * rng.exponential(gamma)), rng);
}
