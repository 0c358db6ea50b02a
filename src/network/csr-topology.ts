import { ConfigError, type Rng } from '../core/index.ts';
import { partitionedRows } from './partitioned-rows.ts';
import { dropDuplicates, endOffsets, sortRows } from './sort-rows.ts';
import type { Topology } from './topology.ts';

/**
 * A {@link Topology} in compressed sparse row form: the neighbours of agent `i` are
 * `neighbours[offsets[i] .. offsets[i + 1])`, sorted ascending, without self loops or
 * duplicates. The graph is undirected, so every edge is stored once in each endpoint's row.
 * Memory is `4 (size + 1) + 8 edgeCount` bytes: about 44 bytes per agent at mean degree 10.
 */
export class CsrTopology implements Topology {
  /** Number of undirected edges. */
  readonly edgeCount: number;

  /**
   * Wraps ready-made CSR arrays without copying or checking them. Use
   * {@link CsrTopology.fromEdges} unless the arrays are known to be valid (sorted rows, no
   * self loops or duplicates, symmetric).
   * @param kind Generator or loader name, e.g. `watts-strogatz`.
   * @param offsets Row starts, length `size + 1`, `offsets[0] = 0`, non-decreasing.
   * @param neighbours Concatenated rows, length `offsets[size]`.
   */
  constructor(
    readonly kind: string,
    readonly offsets: Int32Array,
    readonly neighbours: Int32Array,
  ) {
    this.edgeCount = neighbours.length / 2;
  }

  /** Number of agents. */
  get size(): number {
    return this.offsets.length - 1;
  }

  /** Bytes held by the offsets and neighbours arrays. */
  get byteLength(): number {
    return this.offsets.byteLength + this.neighbours.byteLength;
  }

  /** Degree of agent `i`. */
  degree(i: number): number {
    return this.offsets[i + 1] - this.offsets[i];
  }

  /** The k-th neighbour of `i` in ascending order (0 <= k < degree(i)). */
  neighbour(i: number, k: number): number {
    return this.neighbours[this.offsets[i] + k];
  }

  /** A uniformly random neighbour of `i` (one `rng.int` draw), or -1 if `i` is isolated. */
  randomNeighbour(i: number, rng: Rng): number {
    const start = this.offsets[i];
    const degree = this.offsets[i + 1] - start;
    return degree === 0 ? -1 : this.neighbours[start + rng.int(degree)];
  }

  /** Calls `fn` for each neighbour of `i` in ascending order. */
  forEachNeighbour(i: number, fn: (j: number) => void): void {
    const end = this.offsets[i + 1];
    for (let p = this.offsets[i]; p < end; p++) fn(this.neighbours[p]);
  }

  /** The sorted neighbours of `i` as a view into the shared array (do not write to it). */
  neighboursOf(i: number): Int32Array {
    return this.neighbours.subarray(this.offsets[i], this.offsets[i + 1]);
  }

  /** True if `i` and `j` are adjacent (binary search in the row of `i`). */
  hasEdge(i: number, j: number): boolean {
    let lo = this.offsets[i];
    let hi = this.offsets[i + 1] - 1;
    const row = this.neighbours;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = row[mid];
      if (v === j) return true;
      if (v < j) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /**
   * Builds a topology from an edge list `(src[e], dst[e])`. Edges are undirected; self loops
   * are dropped and duplicates (in either direction) merged. The arcs are laid out block by
   * block of rows (see `partitionedRows`: no random writes across the whole array), then each
   * short row is sorted: about O(size + edges * log degree). Rows end sorted, so the result
   * does not depend on the order of the input edges.
   * @throws ConfigError if the arrays differ in length or an endpoint is outside [0, size).
   */
  static fromEdges(
    kind: string,
    size: number,
    src: Int32Array | readonly number[],
    dst: Int32Array | readonly number[],
  ): CsrTopology {
    checkInput(kind, size, src, dst);
    checkEndpoints(kind, size, src, dst);
    const { offsets, rows } = partitionedRows(
      size,
      { kind: 'pairs', a: src, b: dst, count: src.length },
      true,
    );
    return new CsrTopology(kind, offsets, dropDuplicates(offsets, rows));
  }

  /**
   * Builds a topology from edges owned `per` to a node: edge `u * per + j` joins u and
   * `far[u * per + j]` (the Watts-Strogatz and lattice layout), so no source array is
   * needed. Same rows as {@link CsrTopology.fromEdges} on the equivalent edge list, trusting
   * the caller that every `far` entry is in [0, size) (self loops are still dropped).
   * Given `degrees` (the exact degree of every node), the caller vouches that the graph is
   * simple (no self loop, no duplicate edge) and the duplicate check is skipped.
   */
  static fromOwnedEdges(
    kind: string,
    size: number,
    per: number,
    far: Int32Array,
    degrees?: Int32Array,
  ): CsrTopology {
    if (degrees) {
      const slots = CsrTopology.ownedSlots(size, per);
      slots.set(far.subarray(0, size * per));
      return CsrTopology.fromOwnedSlots(kind, size, per, slots, degrees.slice(0, size + 1));
    }
    const { offsets, rows } = partitionedRows(size, { kind: 'owned', far, per }, true);
    return new CsrTopology(kind, offsets, dropDuplicates(offsets, rows));
  }

  /**
   * The array a simple graph whose every node owns `per` edges writes its owned far ends
   * into, for {@link CsrTopology.fromOwnedSlots}: edge `u * per + j` joins u and entry
   * `u * per + j`. It has room for the graph's rows (2 * size * per entries, every edge being
   * owned once), which are filled in place over the far ends: these take no memory of their
   * own, and no page of it is touched that the rows would not touch anyway.
   */
  static ownedSlots(size: number, per: number): Int32Array {
    return new Int32Array(2 * size * per);
  }

  /**
   * {@link CsrTopology.fromOwnedEdges} of a simple graph (no self loop, no edge owned twice)
   * whose far ends are in an array from {@link CsrTopology.ownedSlots}, given the exact
   * degree of every node in `degrees` (length size + 1). Both arrays are taken over and
   * become the topology's.
   * @throws RangeError if `slots` is not 2 * size * per long.
   */
  static fromOwnedSlots(
    kind: string,
    size: number,
    per: number,
    slots: Int32Array,
    degrees: Int32Array,
  ): CsrTopology {
    if (slots.length !== 2 * size * per || degrees.length !== size + 1)
      throw new RangeError(
        `${kind}: fromOwnedSlots needs CsrTopology.ownedSlots(size, per) and size + 1 degrees`,
      );
    fillOwnedInPlace(size, per, slots, degrees);
    return new CsrTopology(kind, degrees, slots);
  }

  /**
   * Builds a topology from edges stored as pairs: edge e joins `pairs[2e]` and
   * `pairs[2e + 1]`, of a graph the caller knows to be simple (no self loop, no repeated
   * edge) and whose every degree it has counted in `degrees` (length size + 1, taken over
   * as the offsets array). Same rows as {@link CsrTopology.fromEdges} on the same edges,
   * without its counting pass, its source and target arrays, or its duplicate check.
   */
  static fromSimplePairs(kind: string, pairs: Int32Array, edges: number, degrees: Int32Array): CsrTopology {
    const rows = new Int32Array(endOffsets(degrees));
    for (let e = edges - 1; e >= 0; e--) {
      const u = pairs[2 * e];
      const v = pairs[2 * e + 1];
      rows[--degrees[u]] = v;
      rows[--degrees[v]] = u;
    }
    sortRows(degrees, rows);
    return new CsrTopology(kind, degrees, rows);
  }
}

/**
 * Fills the rows of a simple graph in place over its owned far ends, from its exact degrees
 * (turned into row starts), then sorts them. The far ends of node u are `rows[u * per ..
 * u * per + per)` and every node owns `per` distinct edges, so its degree is at least `per`
 * and row u starts at or after `u * per`: taking the owners from the last down, each edge
 * is written into row u and into row v > u, both at or after the far ends still to be read
 * (u's own are read before they can be overwritten); an edge to a node v < u could land on
 * unread far ends, so it is written into row v after the pass. Same rows as the blocked
 * build (`partitionedRows`), with no array for the far ends: less memory at every size, and
 * less CPU than the blocked build at 4*10^6 and 10^7 nodes too (docs/PERFORMANCE.md,
 * "Networks").
 */
function fillOwnedInPlace(size: number, per: number, rows: Int32Array, offsets: Int32Array): void {
  endOffsets(offsets);
  let later: Int32Array = new Int32Array(64);
  let count = 0;
  for (let u = size - 1; u >= 0; u--) {
    // descending, so the write into row u (at or above u * per + j) never meets an unread slot
    for (let e = u * per + per - 1; e >= u * per; e--) {
      const v = rows[e];
      rows[--offsets[u]] = v;
      if (v > u) {
        rows[--offsets[v]] = u;
        continue;
      }
      if (count === later.length) later = grow(later);
      later[count++] = v;
      later[count++] = u;
    }
  }
  for (let i = 0; i < count; i += 2) rows[--offsets[later[i]]] = later[i + 1];
  sortRows(offsets, rows);
}

function grow(xs: Int32Array): Int32Array {
  const bigger = new Int32Array(2 * xs.length);
  bigger.set(xs);
  return bigger;
}

function checkInput(kind: string, size: number, src: ArrayLike<number>, dst: ArrayLike<number>): void {
  if (!Number.isInteger(size) || size < 0 || size >= 0x7fffffff)
    throw new ConfigError(`${kind}: topology size must be a non-negative integer, got ${size}`, {
      hint: 'pass the number of agents as size',
    });
  if (src.length !== dst.length)
    throw new ConfigError(`${kind}: edge list has ${src.length} sources but ${dst.length} targets`, {
      hint: 'src and dst must have one entry per edge',
    });
  if (2 * src.length >= 0x7fffffff)
    throw new ConfigError(`${kind}: ${src.length} edges are too many for one topology`, {
      hint: 'use at most about 1 billion edges',
    });
}

/** Checks that every endpoint is an integer in [0, size). */
function checkEndpoints(kind: string, size: number, src: ArrayLike<number>, dst: ArrayLike<number>): void {
  for (let e = 0; e < src.length; e++) {
    const u = src[e];
    const v = dst[e];
    if (!(u >= 0 && u < size && v >= 0 && v < size && (u | 0) === u && (v | 0) === v))
      throw new ConfigError(`${kind}: edge ${e} (${u}, ${v}) has an endpoint outside [0, ${size})`, {
        hint: 'node indices must be integers from 0 to size - 1',
      });
  }
}
