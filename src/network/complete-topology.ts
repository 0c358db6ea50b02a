import type { Rng } from '../core/index.ts';
import type { Topology } from './topology.ts';

/**
 * A well-mixed population: every agent is adjacent to every other. Nothing is materialised
 * (`byteLength` is 0), so it costs nothing at any size; the neighbours of `i` are the other
 * agents in ascending order, `neighbour(i, k) = k < i ? k : k + 1`.
 */
export class CompleteTopology implements Topology {
  /** Always `complete`. */
  readonly kind = 'complete';
  /** n(n-1)/2. */
  readonly edgeCount: number;
  /** Nothing is stored. */
  readonly byteLength = 0;

  /** @param size Number of agents (a non-negative integer). */
  constructor(readonly size: number) {
    this.edgeCount = size < 2 ? 0 : (size * (size - 1)) / 2;
  }

  /** n - 1 for every agent. */
  degree(_i: number): number {
    return this.size - 1;
  }

  /** The k-th other agent in ascending order. */
  neighbour(i: number, k: number): number {
    return k < i ? k : k + 1;
  }

  /** A uniformly random other agent (one `rng.int` draw), or -1 when `i` is alone. */
  randomNeighbour(i: number, rng: Rng): number {
    if (this.size < 2) return -1;
    const k = rng.int(this.size - 1);
    return k < i ? k : k + 1;
  }

  /** Calls `fn` for every other agent in ascending order. */
  forEachNeighbour(i: number, fn: (j: number) => void): void {
    for (let j = 0; j < this.size; j++) if (j !== i) fn(j);
  }

  /** True for any two distinct agents of the population. */
  hasEdge(i: number, j: number): boolean {
    return i !== j && i >= 0 && j >= 0 && i < this.size && j < this.size;
  }
}
