import { ConfigError } from '../core/index.ts';
import { CsrTopology } from './csr-topology.ts';
import { checkEdgeBudget, checkInt, checkNodeCount, MAX_NODES } from './param-checks.ts';

/**
 * Ring-lattice edges, shared by the ring-lattice and Watts-Strogatz generators. Internal to
 * the network module (not re-exported).
 */

/** The `n` and `k` of a lattice-based generator. */
export interface LatticeParams {
  /** Number of agents. */
  n: number;
  /** Degree of every agent in the lattice: even, 0 <= k < n. */
  k: number;
}

/** Validates `n` and `k` of a lattice-based generator. */
export function checkLattice(generator: string, params: LatticeParams): LatticeParams {
  const hint = `${generator} needs k even and < n`;
  const n = checkNodeCount(generator, params.n);
  const k = checkInt(generator, 'k', params.k, 0, MAX_NODES, hint);
  if (k % 2 !== 0 || k >= n)
    throw new ConfigError(`${generator}: k must be even and less than n, got k=${k}, n=${n}`, { hint });
  checkEdgeBudget(generator, (n * k) / 2);
  return { n, k };
}

/**
 * The lattice edges in node-major order, far endpoints only: edge `u * (k/2) + (d - 1)`
 * joins its owner u (implied by the position) and (u + d) mod n, for d = 1..k/2. Agent u
 * "owns" the k/2 edges to the agents after it, side by side in memory, which
 * Watts-Strogatz relies on; {@link CsrTopology.fromOwnedSlots} builds the graph. Written
 * into the first n * k/2 entries of `dst` ({@link CsrTopology.ownedSlots} by default).
 */
export function latticeFarEnds(n: number, k: number, dst = CsrTopology.ownedSlots(n, k / 2)): Int32Array {
  const half = k / 2;
  let e = 0;
  for (let u = 0; u < n; u++) {
    // one subtraction on every edge (of n or of 0): the wrap, reached first at the last
    // agents, made V8 throw away the loop's optimised code and compile it again
    for (let d = 1; d <= half; d++) dst[e++] = u + d - (u + d < n ? 0 : n);
  }
  return dst;
}
