import { Base64Text, type Json } from '../../core/index.ts';

/** Event type of the lines that carry the pieces of a split snapshot (docs/LOG-FORMAT.md, "Split snapshots"). */
export const SNAPSHOT_PART = 'snapshot-part';

/** Default size (estimated UTF-16 code units, see {@link estimateJsonSize}) above which a snapshot is split. */
export const DEFAULT_SPLIT_ABOVE = 16 * 1024 * 1024;

/** A member of an array or object that is walked into stays in the skeleton up to `chars / KEEP_DIVISOR`. */
const KEEP_DIVISOR = 16;

/** Smallest part size accepted (so that a test bound cannot make millions of parts). */
export const MIN_PART_CHARS = 256;

/** One piece of a split snapshot: `path`, `index` and `data` of a `snapshot-part` line (docs/LOG-FORMAT.md, "Split snapshots"). */
export interface SnapshotPart {
  path: (string | number)[];
  index: number;
  data: string | Json[] | { [key: string]: Json };
}

/** A part as the splitter makes it: its data may be a {@link Base64Text} (or items some of which are), or a slice of one to encode. */
type PendingPart = Omit<SnapshotPart, 'data'> & {
  data: SnapshotPart['data'] | (() => string) | Base64Text | Base64Text[];
};

/** How a split snapshot line records its split: the number of parts before it, and their size. */
export interface SplitInfo {
  parts: number;
  chars: number;
}

/** The size measure of the split rule (docs/LOG-FORMAT.md, "Split snapshots"): part of the log format, it says where snapshots are cut. */
export function estimateJsonSize(value: unknown): number {
  if (typeof value === 'string' || value instanceof Base64Text) return value.length + 2;
  if (typeof value === 'number') return String(value).length;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (value === null || value === undefined) return 4;
  if (Array.isArray(value)) {
    let n = 1 + Math.max(1, value.length);
    for (const item of value) n += estimateJsonSize(item);
    return n;
  }
  let n = 1;
  let count = 0;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    n += key.length + 3 + estimateJsonSize(v);
    count++;
  }
  return n + Math.max(1, count);
}

/**
 * Cuts a snapshot's `state` into parts of `chars` code units by the split rule (docs/LOG-FORMAT.md,
 * "Split snapshots"). `state` is not modified: the skeleton copies the containers it changes. A
 * {@link Base64Text} is cut as the string it stands for, into `Base64Text`s of its bytes.
 */
export function splitSnapshot(state: Json, chars: number): { parts: PendingPart[]; skeleton: Json } {
  const parts: PendingPart[] = [];
  const skeleton = cut(state, [], chars, chars, parts);
  return { parts, skeleton };
}

function cut(
  value: Json,
  path: (string | number)[],
  chars: number,
  keep: number,
  parts: PendingPart[],
): Json {
  if (typeof value === 'string' || value instanceof Base64Text) {
    if (value.length + 2 <= keep) return value.toString();
    for (let i = 0, k = 0; i < value.length; i += chars, k++) {
      const from = i;
      // a slice of whole 4-character groups is the text of a view of the bytes (not encoded yet)
      const data =
        typeof value === 'string'
          ? value.slice(i, i + chars)
          : chars % 4 === 0
            ? new Base64Text(value.bytes.subarray((from / 4) * 3, ((from + chars) / 4) * 3))
            : () => value.slice(from, from + chars);
      parts.push({ path, index: k, data });
    }
    return null;
  }
  if (value === null || typeof value !== 'object' || estimateJsonSize(value) <= keep) return value;
  const inner = Math.floor(chars / KEEP_DIVISOR);
  if (Array.isArray(value)) {
    const sizes = value.map(estimateJsonSize);
    if (sizes.every((s) => s <= chars)) {
      for (const [index, data] of cutRuns(sizes, chars, (from, to) => value.slice(from, to)).entries())
        parts.push({ path, index, data });
      return null;
    }
    return value.map((item, i) => cut(item, [...path, i], chars, inner, parts));
  }
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  const sizes = keys.map((k) => k.length + 3 + estimateJsonSize(value[k]));
  if (sizes.every((s) => s <= chars)) {
    const take = (from: number, to: number) =>
      Object.fromEntries(keys.slice(from, to).map((k) => [k, value[k]]));
    for (const [index, data] of cutRuns(sizes, chars, take).entries()) parts.push({ path, index, data });
    return null;
  }
  const copy: { [key: string]: Json } = {};
  for (const key of keys) copy[key] = cut(value[key], [...path, key], chars, inner, parts);
  return copy;
}

/** Cuts items `0..sizes.length` into runs of at most `chars` together (one item at least), each made by `take(from, to)`. */
function cutRuns<T>(sizes: number[], chars: number, take: (from: number, to: number) => T): T[] {
  const runs: T[] = [];
  let start = 0;
  let size = 0;
  for (let i = 0; i < sizes.length; i++) {
    if (i > start && size + sizes[i] + 1 > chars) {
      runs.push(take(start, i));
      start = i;
      size = 0;
    }
    size += sizes[i] + 1;
  }
  runs.push(take(start, sizes.length));
  return runs;
}

/**
 * The lines (type and fields) a snapshot event with payload `fields` is written as when split
 * into parts of `chars` code units, its first line at seq `firstSeq`. A generator, so that the
 * writer encodes (and may flush) one part at a time.
 */
export function* splitSnapshotLines(
  fields: Record<string, unknown>,
  chars: number,
  firstSeq: number,
): Generator<{ type: string; fields: Record<string, unknown> }, void, undefined> {
  const { parts, skeleton } = splitSnapshot(fields.state as Json, chars);
  const of = firstSeq + parts.length;
  for (const part of parts) {
    const data = typeof part.data === 'function' ? part.data() : part.data;
    yield { type: SNAPSHOT_PART, fields: { of, path: part.path, index: part.index, data } };
  }
  const split: SplitInfo = { parts: parts.length, chars };
  yield { type: 'snapshot', fields: { ...fields, state: skeleton, split } };
}
