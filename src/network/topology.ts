import type { Rng } from '../core/index.ts';

/**
 * Who can reach whom: the agents' social network in the compact form the engine runs on.
 * Agents are dense indices 0..size-1. Neighbour lists are sorted ascending, so every
 * iteration over them has a defined order.
 */
export interface Topology {
  /** Generator or loader name, e.g. `watts-strogatz`, `complete`, `csv`. */
  readonly kind: string;
  /** Number of agents. */
  readonly size: number;
  /** Number of undirected edges (for `complete`: n(n-1)/2, never materialised). */
  readonly edgeCount: number;
  /** Degree of agent `i`. */
  degree(i: number): number;
  /** The k-th neighbour of `i` (0 <= k < degree(i)), in ascending order. */
  neighbour(i: number, k: number): number;
  /** A uniformly random neighbour of `i`, or -1 if it has none. */
  randomNeighbour(i: number, rng: Rng): number;
  /** Calls `fn` for each neighbour of `i` in ascending order. */
  forEachNeighbour(i: number, fn: (j: number) => void): void;
  /** True if `i` and `j` are adjacent. */
  hasEdge(i: number, j: number): boolean;
  /** Bytes held by this topology's arrays (for memory reports). */
  readonly byteLength: number;
}
