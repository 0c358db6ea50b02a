import { CsrTopology } from './csr-topology.ts';
import { checkLattice, latticeFarEnds } from './lattice-edges.ts';

/** Parameters of {@link ringLattice}. */
export interface RingLatticeParams {
  /** Number of agents (>= 1). */
  n: number;
  /** Degree of every agent: even, 0 <= k < n (k/2 neighbours on each side). */
  k: number;
}

/**
 * A ring lattice: agents 0..n-1 on a circle, each linked to its k/2 nearest neighbours on
 * each side, so every degree is exactly k. Deterministic (draws no random numbers).
 * @throws ConfigError unless n >= 1 and k is even with 0 <= k < n.
 */
export function ringLattice(params: RingLatticeParams): CsrTopology {
  const { n, k } = checkLattice('ring-lattice', params);
  const degrees = new Int32Array(n + 1).fill(k, 0, n);
  return CsrTopology.fromOwnedSlots('ring-lattice', n, k / 2, latticeFarEnds(n, k), degrees);
}
