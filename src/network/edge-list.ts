import { ConfigError } from '../core/index.ts';
import { CsrTopology } from './csr-topology.ts';

const MAX_EDGES = 0x3fffffff;

/**
 * A growable list of undirected edges in two Int32Arrays (no per-edge objects), for
 * generators and loaders that do not know their edge count in advance. Turn it into a
 * topology with {@link EdgeList.toTopology}.
 */
export class EdgeList {
  private src: Int32Array;
  private dst: Int32Array;
  /** Number of edges pushed so far. */
  length = 0;

  /** @param capacity Initial capacity in edges (a good estimate avoids regrowth). */
  constructor(capacity = 1024) {
    const cap = Math.max(16, Math.min(MAX_EDGES, Math.ceil(capacity)));
    this.src = new Int32Array(cap);
    this.dst = new Int32Array(cap);
  }

  /** Appends the edge (u, v). */
  push(u: number, v: number): void {
    if (this.length === this.src.length) this.grow();
    this.src[this.length] = u;
    this.dst[this.length] = v;
    this.length++;
  }

  /** Source endpoints of the edges pushed so far (a view, not a copy). */
  sources(): Int32Array {
    return this.src.subarray(0, this.length);
  }

  /** Target endpoints of the edges pushed so far (a view, not a copy). */
  targets(): Int32Array {
    return this.dst.subarray(0, this.length);
  }

  /** Builds a {@link CsrTopology} over `size` nodes (self loops dropped, duplicates merged). */
  toTopology(kind: string, size: number): CsrTopology {
    return CsrTopology.fromEdges(kind, size, this.sources(), this.targets());
  }

  private grow(): void {
    if (this.src.length >= MAX_EDGES)
      throw new ConfigError(`edge list: more than ${MAX_EDGES} edges`, {
        hint: 'use fewer agents or a sparser network',
      });
    const cap = Math.min(MAX_EDGES, this.src.length * 2);
    const src = new Int32Array(cap);
    const dst = new Int32Array(cap);
    src.set(this.src);
    dst.set(this.dst);
    this.src = src;
    this.dst = dst;
  }
}
