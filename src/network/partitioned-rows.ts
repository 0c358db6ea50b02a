import { sortRowRange } from './sort-rows.ts';

/**
 * Cache-friendly CSR construction, shared by the network module's builders (CsrTopology,
 * UpperRows). Internal to the network module (not re-exported).
 *
 * Placing each arc straight into its row writes to a random place of an array of hundreds
 * of megabytes per arc (a cache and TLB miss each at 10^7 nodes). Instead the arcs are first
 * distributed, in order, into at most a few hundred blocks of consecutive rows (a streaming
 * write per block, each block being the very range of the output its rows will occupy), and
 * each block is then counted, placed and sorted on its own, inside the cache. The rows come
 * out sorted, so the result does not depend on the order of the arcs.
 */

/** Where the edges are: explicit endpoint arrays, or owned by a node (`far` endpoints only). */
export type EdgeInput =
  | {
      /** Edge e joins `a[e]` and `b[e]`, e < count. */
      kind: 'pairs';
      a: ArrayLike<number>;
      b: ArrayLike<number>;
      count: number;
    }
  | {
      /**
       * Edge e of owner u, for e in [start(u), start(u + 1)), joins u and `far[e]`; start(u)
       * is `u * per`, or `starts[u]` when `starts` (length size + 1) is given.
       */
      kind: 'owned';
      far: Int32Array;
      per: number;
      starts?: Int32Array;
    };

/** CSR arrays: row i is `rows[offsets[i] .. offsets[i + 1])`. */
export interface Rows {
  offsets: Int32Array;
  rows: Int32Array;
}

/** Fewest node-index bits per block: blocks of at least 4096 rows. */
const MIN_SHIFT = 12;
/** Most bits per block (the row within a block is kept in 16 bits). */
const MAX_SHIFT = 16;
/** Aim for at most this many blocks (write streams of the distribution pass). */
const MAX_BLOCKS = 256;

/**
 * The rows of the given edges over `size` nodes: with `symmetric`, edge {u, v} puts v in
 * row u and u in row v; without, only v in row u (u the first endpoint or the owner). Self
 * loops are dropped; repeated edges are kept (rows are sorted, so repeats are adjacent).
 * `extra` edges (pairs) are added to `input`'s.
 */
export function partitionedRows(
  size: number,
  input: EdgeInput,
  symmetric: boolean,
  extra?: { a: ArrayLike<number>; b: ArrayLike<number> },
): Rows {
  let shift = MIN_SHIFT;
  while (shift < MAX_SHIFT && size >>> shift >= MAX_BLOCKS) shift++;
  const blocks = (size >>> shift) + 1;
  const start = new Int32Array(blocks + 1);
  const sources: EdgeInput[] = [input];
  if (extra && extra.a.length > 0)
    sources.push({ kind: 'pairs', a: extra.a, b: extra.b, count: extra.a.length });
  for (const s of sources) visit(size, s, symmetric, shift, start, null, null);
  for (let b = 0; b < blocks; b++) start[b + 1] += start[b];
  const total = start[blocks];
  const rows = new Int32Array(total);
  const low = new Uint16Array(total);
  const cursor = start.slice(0, blocks);
  for (const s of sources) visit(size, s, symmetric, shift, cursor, rows, low);
  const offsets = new Int32Array(size + 1);
  placeBlocks(size, shift, start, rows, low, offsets);
  offsets[size] = total;
  return { offsets, rows };
}

/**
 * One pass over the edges: without `rows`, counts each block's arcs into `at[block + 1]`;
 * with them, appends each arc (its far end to `rows`, its row within the block to `low`) at
 * `at[block]++`. Four plain loops (no callback), so that each stays monomorphic and fast.
 */
function visit(
  size: number,
  input: EdgeInput,
  symmetric: boolean,
  shift: number,
  at: Int32Array,
  rows: Int32Array | null,
  low: Uint16Array | null,
): void {
  if (input.kind === 'pairs') {
    const a = toInt32(input.a);
    const b = toInt32(input.b);
    if (rows && low) placePairs(a, b, input.count, symmetric, shift, at, rows, low);
    else countPairs(a, b, input.count, symmetric, shift, at);
    return;
  }
  const starts = input.starts ?? null;
  if (rows && low) placeOwned(size, input.far, input.per, starts, symmetric, shift, at, rows, low);
  else countOwned(size, input.far, input.per, starts, symmetric, shift, at);
}

function toInt32(xs: ArrayLike<number>): Int32Array {
  return xs instanceof Int32Array ? xs : Int32Array.from(xs);
}

function countPairs(
  a: Int32Array,
  b: Int32Array,
  count: number,
  sym: boolean,
  shift: number,
  at: Int32Array,
): void {
  for (let e = 0; e < count; e++) {
    const u = a[e];
    const v = b[e];
    if (u === v) continue;
    at[(u >>> shift) + 1]++;
    if (sym) at[(v >>> shift) + 1]++;
  }
}

function placePairs(
  a: Int32Array,
  b: Int32Array,
  count: number,
  sym: boolean,
  shift: number,
  at: Int32Array,
  rows: Int32Array,
  low: Uint16Array,
): void {
  const mask = (1 << shift) - 1;
  for (let e = 0; e < count; e++) {
    const u = a[e];
    const v = b[e];
    if (u === v) continue;
    let p = at[u >>> shift]++;
    rows[p] = v;
    low[p] = u & mask;
    if (!sym) continue;
    p = at[v >>> shift]++;
    rows[p] = u;
    low[p] = v & mask;
  }
}

function countOwned(
  size: number,
  far: Int32Array,
  per: number,
  starts: Int32Array | null,
  sym: boolean,
  shift: number,
  at: Int32Array,
): void {
  for (let u = 0, e = 0; u < size; u++) {
    const end = starts ? starts[u + 1] : e + per;
    const bu = (u >>> shift) + 1;
    for (; e < end; e++) {
      const v = far[e];
      if (v === u) continue;
      at[bu]++;
      if (sym) at[(v >>> shift) + 1]++;
    }
  }
}

function placeOwned(
  size: number,
  far: Int32Array,
  per: number,
  starts: Int32Array | null,
  sym: boolean,
  shift: number,
  at: Int32Array,
  rows: Int32Array,
  low: Uint16Array,
): void {
  const mask = (1 << shift) - 1;
  for (let u = 0, e = 0; u < size; u++) {
    const end = starts ? starts[u + 1] : e + per;
    const bu = u >>> shift;
    const lu = u & mask;
    for (; e < end; e++) {
      const v = far[e];
      if (v === u) continue;
      let p = at[bu]++;
      rows[p] = v;
      low[p] = lu;
      if (!sym) continue;
      p = at[v >>> shift]++;
      rows[p] = u;
      low[p] = v & mask;
    }
  }
}

/** Counts, places and sorts each block's rows, in place in `rows`; fills `offsets[0..size)`. */
function placeBlocks(
  size: number,
  shift: number,
  start: Int32Array,
  rows: Int32Array,
  low: Uint16Array,
  offsets: Int32Array,
): void {
  const width = 1 << shift;
  const cursor = new Int32Array(width);
  let largest = 0;
  for (let b = 0; b + 1 < start.length; b++) largest = Math.max(largest, start[b + 1] - start[b]);
  const values = new Int32Array(largest);
  const lows = new Uint16Array(largest);
  for (let b = 0; b + 1 < start.length; b++) {
    const from = start[b];
    const to = start[b + 1];
    const first = b << shift;
    const nodes = Math.min(width, size - first);
    cursor.fill(0, 0, nodes);
    for (let p = from; p < to; p++) cursor[low[p]]++;
    for (let i = 0, at = from; i < nodes; i++) {
      const d = cursor[i];
      offsets[first + i] = at;
      cursor[i] = at;
      at += d;
    }
    const len = to - from;
    values.set(rows.subarray(from, to));
    lows.set(low.subarray(from, to));
    for (let q = 0; q < len; q++) rows[cursor[lows[q]]++] = values[q];
    sortRowRange(offsets, rows, first, first + nodes, to);
  }
}
