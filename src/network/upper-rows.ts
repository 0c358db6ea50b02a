import { CsrTopology } from './csr-topology.ts';
import { partitionedRows } from './partitioned-rows.ts';
import { dropDuplicates } from './sort-rows.ts';

/**
 * A set of undirected edges {a, b}, a < b, stored by their lower endpoint: the b's of
 * every a, sorted and without repeats, in one typed array (4 bytes per edge plus 4 per
 * node, a quarter of a hash table's size and no random probing). Built block by block of
 * rows (`partitionedRows`); membership is a binary search in a short row. Internal to the
 * network module (the Erdős–Rényi G(n, m) generator).
 */
export class UpperRows {
  private constructor(
    private readonly offsets: Int32Array,
    private readonly rows: Int32Array,
  ) {}

  /** Number of distinct edges. */
  get count(): number {
    return this.offsets[this.offsets.length - 1];
  }

  /**
   * The distinct edges among `(lo[e], hi[e])`, e < len, over `size` nodes; every pair must
   * have `lo[e] < hi[e]`, both in [0, size). Repeated pairs count once.
   */
  static from(size: number, lo: Int32Array, hi: Int32Array, len: number): UpperRows {
    const { offsets, rows } = partitionedRows(size, { kind: 'pairs', a: lo, b: hi, count: len }, false);
    return new UpperRows(offsets, dropDuplicates(offsets, rows, false));
  }

  /** True if {a, b} (a < b) is in the set. */
  has(a: number, b: number): boolean {
    let lo = this.offsets[a];
    let hi = this.offsets[a + 1] - 1;
    const rows = this.rows;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = rows[mid];
      if (v === b) return true;
      if (v < b) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /**
   * The undirected topology of these edges plus `(extraLo[e], extraHi[e])` (lo < hi, none
   * of them already in the set nor repeated): the rows {@link CsrTopology.fromEdges} gives
   * for the same edges, built without an edge list.
   */
  toTopology(kind: string, extraLo: readonly number[], extraHi: readonly number[]): CsrTopology {
    const size = this.offsets.length - 1;
    const input = { kind: 'owned', far: this.rows, per: 0, starts: this.offsets } as const;
    const { offsets, rows } = partitionedRows(size, input, true, { a: extraLo, b: extraHi });
    return new CsrTopology(kind, offsets, rows);
  }
}
