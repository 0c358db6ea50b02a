import type { Rng } from '../core/index.ts';
import { CsrTopology } from './csr-topology.ts';
import { checkLattice, latticeFarEnds } from './lattice-edges.ts';
import { checkProbability } from './param-checks.ts';

/** Parameters of {@link wattsStrogatz}. */
export interface WattsStrogatzParams {
  /** Number of agents (>= 1). */
  n: number;
  /** Lattice degree: even, 0 <= k < n. */
  k: number;
  /** Probability of rewiring each lattice edge, in [0, 1]. */
  beta: number;
}

/**
 * A Watts-Strogatz small world (the classic algorithm, as in networkx): a ring lattice of
 * degree k whose edges (u, u + d), taken by distance d = 1..k/2 then by u, each have their
 * far endpoint moved with probability beta to a uniform agent w, redrawn while w = u or
 * (u, w) is already an edge; an agent already linked to everyone keeps its edge. The edge
 * count n*k/2 is preserved, and beta = 0 gives the ring lattice. O(n*k) expected.
 * @throws ConfigError unless n >= 1, k is even with 0 <= k < n, and 0 <= beta <= 1.
 */
export function wattsStrogatz(params: WattsStrogatzParams, rng: Rng): CsrTopology {
  const { n, k } = checkLattice('watts-strogatz', params);
  const beta = checkProbability('watts-strogatz', 'beta', params.beta);
  // the far ends go where the rows will be, which are then filled in place
  const dst = latticeFarEnds(n, k);
  // the rewired graph stays simple, and rewire keeps every degree: the CSR build needs no counting
  const degree = new Int32Array(n + 1).fill(k, 0, n);
  if (beta > 0) rewire(n, k / 2, dst, beta, rng, degree);
  return CsrTopology.fromOwnedSlots('watts-strogatz', n, k / 2, dst, degree);
}

/**
 * Rewires in place. Every edge keeps its owner (the near endpoint u, which never changes)
 * and only its far endpoint `dst[e]` moves, so {u, w} is an edge iff u's `half` slots hold w
 * or w's slots hold u: two short contiguous scans, no hash table. `degree` (every node's
 * degree, k at the start) is kept up to date.
 */
function rewire(n: number, half: number, dst: Int32Array, beta: number, rng: Rng, degree: Int32Array): void {
  for (let d = 0; d < half; d++) rewireDistance(n, half, d, dst, beta, rng, degree);
}

/**
 * Rewires the edges (u, u + d + 1) of every u, in order. Its own function, and the redraw a
 * do-while with one call site, so that V8 optimises the loop once: code compiled during
 * d = 0 would otherwise be thrown away at the first d++ and at the first redraw (a deopt
 * each, and a compile again).
 */
function rewireDistance(
  n: number,
  half: number,
  d: number,
  dst: Int32Array,
  beta: number,
  rng: Rng,
  degree: Int32Array,
): void {
  for (let u = 0; u < n; u++) {
    if (rng.next() >= beta || degree[u] >= n - 1) continue;
    let w: number;
    do w = rng.int(n);
    while (w === u || owns(dst, half, u, w) || owns(dst, half, w, u));
    const e = u * half + d;
    degree[dst[e]]--;
    degree[w]++;
    dst[e] = w;
  }
}

/** True if one of `owner`'s edge slots points at `other`. */
function owns(dst: Int32Array, half: number, owner: number, other: number): boolean {
  const end = owner * half + half;
  for (let s = owner * half; s < end; s++) if (dst[s] === other) return true;
  return false;
}
