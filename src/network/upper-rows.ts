import { CsrTopology } from './csr-topology.ts';
import { dropDuplicates, endOffsets, sortRows } from './sort-rows.ts';

/**
 * A set of undirected edges {a, b}, a < b, stored by their lower endpoint: the b's of
 * every a, sorted and without repeats, in one typed array (4 bytes per edge plus 4 per
 * node, a quarter of a hash table's size and no random probing). Built in one counting
 * pass and one scatter; membership is a binary search in a short row. Internal to the
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
    const offsets = new Int32Array(size + 1);
    for (let e = 0; e < len; e++) offsets[lo[e]]++;
    endOffsets(offsets);
    const rows = new Int32Array(len);
    for (let e = len - 1; e >= 0; e--) rows[--offsets[lo[e]]] = hi[e];
    sortRows(offsets, rows);
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
    const { offsets: up, rows: ups } = this;
    const degrees = new Int32Array(size + 1);
    for (let a = 0; a < size; a++) {
      degrees[a] += up[a + 1] - up[a];
      for (let p = up[a]; p < up[a + 1]; p++) degrees[ups[p]]++;
    }
    for (let e = 0; e < extraLo.length; e++) {
      degrees[extraLo[e]]++;
      degrees[extraHi[e]]++;
    }
    const total = endOffsets(degrees);
    const rows = new Int32Array(total);
    for (let e = extraLo.length - 1; e >= 0; e--) {
      rows[--degrees[extraLo[e]]] = extraHi[e];
      rows[--degrees[extraHi[e]]] = extraLo[e];
    }
    // filled backwards from the last node: row x ends with its own (ascending) b's and gets
    // the a's below x before them, so it comes out sorted but for the few extra edges
    for (let a = size - 1; a >= 0; a--)
      for (let p = up[a + 1] - 1; p >= up[a]; p--) {
        const b = ups[p];
        rows[--degrees[a]] = b;
        rows[--degrees[b]] = a;
      }
    sortRows(degrees, rows);
    return new CsrTopology(kind, degrees, rows);
  }
}
