import { createHash } from 'node:crypto';
import { type Base64Text, canonicalJson, LogFormatError } from '../../core/index.ts';
import { HASH_SUFFIX_LENGTH } from '../format/line-codec.ts';
import { closingQuote, longStringsOf } from '../read/snapshot-line.ts';

/**
 * Event type of a line of a delta child that stands for a `snapshot` or `snapshot-part` line
 * by its bytes' differences from a line of the parent (the `base`): see docs/LOG-FORMAT.md,
 * "Snapshot patches". Only logs whose delta header has format `grapevine-log/3` hold it.
 */
export const SNAPSHOT_PATCH = 'snapshot-patch';

/** The fields of a patch line besides `seq`, `t`, `type` and `h`. */
export interface PatchFields {
  /** Seq of the base line (one of the lines the delta header's `base` names). */
  base: number;
  /** Base64 of varint triples (copy, insert, skip): bytes copied from the base, inserted from `data`, skipped in the base; the rest of the base follows. */
  ops: string;
  /** The inserted bytes, one character per byte (latin1). */
  data: string;
}

/** JSON strings at least this long are matched with the base's as columns (compared byte for byte in place). */
const LONG = 4096;
/** Bytes compared at once (natively: a call costs about a microsecond) before a changed block is looked at byte by byte. */
const BLOCK = 4096;
/**
 * Unchanged bytes between two changes up to which both go into one insertion. A triple costs
 * about three bytes, and changed columns hold nearby changes: at 10^5 agents, 4 gives 20,000
 * triples (57 KB of ops, 233 KB of data), 8 gives 800 (2.4 KB, 288 KB), a third less diff time.
 */
const MERGE = 8;
const TAIL = `,"type":"${SNAPSHOT_PATCH}"`;

/** True when a line's text (without `\n`) is a patch line. */
export function isPatchLine(raw: string): boolean {
  const end = raw.length - HASH_SUFFIX_LENGTH;
  return end > TAIL.length && raw.startsWith(TAIL, end - TAIL.length);
}

/** Content ranges `[start, end, start, end...]` of the JSON strings of `line` that have at least {@link LONG} bytes (scanning from `from`, outside any string). */
function longStrings(line: Buffer, from = 0): number[] {
  const out: number[] = [];
  const n = line.length;
  for (let i = from; i < n; i++) {
    if (line[i] !== 0x22) continue;
    // a short string (keys, most values) is walked here; a longer one is found by indexOf
    let j = i + 1;
    const stop = Math.min(n, j + 64);
    while (j < stop && line[j] !== 0x22) j += line[j] === 0x5c ? 2 : 1;
    if (j >= stop) j = closingQuote(line, i + 1);
    if (j === -1 || j >= n) return out;
    if (j - i - 1 >= LONG) out.push(i + 1, j);
    i = j;
  }
  return out;
}

/** The long strings of a base line: those its parse found (see `longStringsOf`), or found now and kept. */
function baseSpans(base: Buffer): number[] {
  let spans = longStringsOf.get(base);
  if (spans === undefined) {
    spans = longStrings(base);
    longStringsOf.set(base, spans);
  }
  return spans;
}

/** Builds the ops and data of a patch while the line is compared with its base. */
class PatchBuilder {
  private ops = new Uint8Array(1024);
  private opsLength = 0;
  /** The inserted bytes, in order, as `[source, from, to, source, from, to...]`. */
  private readonly data: (Uint8Array | number)[] = [];
  private dataLength = 0;
  /** Bytes of the base consumed so far. */
  private at = 0;

  constructor(private readonly limit: number) {}

  /** Replaces the base's `[aFrom, aTo)` by `src[bFrom, bTo)`; false once the patch is over its limit. */
  replace(aFrom: number, aTo: number, src: Uint8Array, bFrom: number, bTo: number): boolean {
    this.edit(aFrom, aTo, bTo - bFrom);
    this.take(src, bFrom, bTo);
    return this.fits();
  }

  /** Replaces the base's `[aFrom, aTo)` by the next `insert` bytes, which the caller then gives by {@link take}. */
  edit(aFrom: number, aTo: number, insert: number): void {
    this.varint(aFrom - this.at);
    this.varint(insert);
    this.varint(aTo - aFrom);
    this.at = aTo;
  }

  /** Appends `src[from, to)` to the inserted bytes. */
  take(src: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    this.data.push(src, from, to);
    this.dataLength += to - from;
  }

  /** True while the patch is within its limit. */
  fits(): boolean {
    return this.size() <= this.limit;
  }

  size(): number {
    return this.dataLength + Math.ceil(this.opsLength / 3) * 4;
  }

  finish(): { ops: string; data: string } {
    const ops = Buffer.from(this.ops.buffer, 0, this.opsLength).toString('base64');
    const data = Buffer.allocUnsafe(this.dataLength);
    let o = 0;
    for (let k = 0; k < this.data.length; k += 3) {
      const from = this.data[k + 1] as number;
      o = put(data, o, this.data[k] as Uint8Array, from, (this.data[k + 2] as number) - from);
    }
    return { ops, data: data.toString('latin1') };
  }

  private varint(n: number): void {
    if (this.opsLength + 8 > this.ops.length) {
      const grown = new Uint8Array(this.ops.length * 2);
      grown.set(this.ops.subarray(0, this.opsLength));
      this.ops = grown;
    }
    while (n >= 0x80) {
      this.ops[this.opsLength++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.ops[this.opsLength++] = n;
  }
}

/**
 * The patch that turns `base` into `line` (both a log line's bytes without `\n`), or
 * undefined when it would be larger than `limit` bytes. The long JSON strings of both (the
 * columns of a snapshot, the slice of a part) are paired in order and, when of equal
 * length, compared in place, each run of changed bytes becoming one insertion; everything
 * else is paired by common prefix and suffix. Hand-written because it runs on every
 * snapshot a child writes and must stay a few ms at 10^5 agents: generic binary diffs
 * search for moved blocks, which these lines do not have.
 */
export function diffLine(
  base: Buffer,
  line: Buffer,
  limit: number,
): { ops: string; data: string } | undefined {
  const aSpans = baseSpans(base);
  let bSpans = longStrings(line);
  if (bSpans.length !== aSpans.length) bSpans = [];
  const a = aSpans.length === bSpans.length ? aSpans : [];
  const patch = new PatchBuilder(limit);
  let aAt = 0;
  let bAt = 0;
  for (let k = 0; k <= a.length; k += 2) {
    const aEnd = k < a.length ? a[k] : base.length;
    const bEnd = k < a.length ? bSpans[k] : line.length;
    if (!trimmed(base, aAt, aEnd, line, bAt, bEnd, patch)) return undefined;
    if (k === a.length) break;
    const [a0, a1, b0, b1] = [a[k], a[k + 1], bSpans[k], bSpans[k + 1]];
    const ok =
      a1 - a0 === b1 - b0
        ? inPlace(base, a0, line, b0, a1 - a0, patch)
        : trimmed(base, a0, a1, line, b0, b1, patch);
    if (!ok) return undefined;
    aAt = a1;
    bAt = b1;
  }
  return patch.finish();
}

/** Replaces `a[a0, a1)` by `b[b0, b1)` except for their common prefix and suffix. */
function trimmed(
  a: Buffer,
  a0: number,
  a1: number,
  b: Buffer,
  b0: number,
  b1: number,
  patch: PatchBuilder,
): boolean {
  const most = Math.min(a1 - a0, b1 - b0);
  const p = common(most, (n) => a.compare(b, b0, b0 + n, a0, a0 + n) === 0);
  const s = common(most - p, (n) => a.compare(b, b1 - n, b1, a1 - n, a1) === 0);
  if (p === a1 - a0 && p === b1 - b0) return true;
  return patch.replace(a0 + p, a1 - s, b, b0 + p, b1 - s);
}

/** The largest `n <= most` for which `same(n)` holds (it holds for 0 and for every n below one it holds for): native compares, not a loop over bytes. */
function common(most: number, same: (n: number) => boolean): number {
  let lo = 0;
  let hi = most;
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (same(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Where the base's bytes of a column are copied when their alignment differs from the line's (reused). */
let scratch = new Uint8Array(0);

/**
 * Replaces each run of changed bytes between `a[a0, a0 + n)` and `b[b0, b0 + n)`. Blocks
 * are compared natively first; a changed block is compared four bytes at a time (an
 * `Int32Array` over both, the base's bytes copied to the line's alignment when needed),
 * then byte by byte inside a changed word: a tenth of the loop iterations of a byte loop,
 * which matters most on cold JIT (a one-shot fork diffs two 4 MB lines).
 */
function inPlace(a: Buffer, a0: number, b: Buffer, b0: number, n: number, patch: PatchBuilder): boolean {
  const phase = (b.byteOffset + b0) % 4;
  let aBytes: Uint8Array = a;
  let aAt = a0;
  if ((a.byteOffset + a0) % 4 !== phase) {
    if (scratch.length < n + 4) scratch = new Uint8Array(n + 4 + (n >> 2));
    aAt = (4 - ((scratch.byteOffset - phase) % 4)) % 4;
    scratch.set(a.subarray(a0, a0 + n), aAt);
    aBytes = scratch;
  }
  // the first byte of the line's range at a 4-byte boundary; both ranges are aligned there
  const head = Math.min(n, (4 - phase) % 4);
  const words = (n - head) >> 2;
  const wa = new Int32Array(aBytes.buffer, aBytes.byteOffset + aAt + head, words);
  const wb = new Int32Array(b.buffer, b.byteOffset + b0 + head, words);
  let start = -1;
  let last = -1;
  // takes the changed byte at offset i of the ranges (in increasing order)
  const changed = (i: number): boolean => {
    if (start !== -1 && i - last <= MERGE) {
      last = i;
      return true;
    }
    if (start !== -1 && !patch.replace(a0 + start, a0 + last + 1, b, b0 + start, b0 + last + 1)) return false;
    start = i;
    last = i;
    return true;
  };
  const bytes = (from: number, to: number): boolean => {
    for (let i = from; i < to; i++) if (aBytes[aAt + i] !== b[b0 + i] && !changed(i)) return false;
    return true;
  };
  if (!bytes(0, head)) return false;
  for (let off = head; off < head + words * 4; off += BLOCK) {
    const end = Math.min(off + BLOCK, head + words * 4);
    if (b.compare(aBytes, aAt + off, aAt + end, b0 + off, b0 + end) === 0) continue;
    for (let k = (off - head) >> 2, kEnd = (end - head) >> 2; k < kEnd; k++)
      if (wa[k] !== wb[k] && !bytes(head + k * 4, head + k * 4 + 4)) return false;
  }
  if (!bytes(head + words * 4, n)) return false;
  return start === -1 || patch.replace(a0 + start, a0 + last + 1, b, b0 + start, b0 + last + 1);
}

/** A part of a line given as parts: UTF-8 bytes of JSON, or a base64 column not yet encoded. */
export type LinePart = Buffer | Base64Text;

/** Base64 characters of a column compared at once with the base (3,072 bytes of the column). */
const CHUNK = 4096;

/** The chunks of a column whose text differs from the base's, by chunk index (increasing), with their text. */
export type ColumnChanges = Map<number, Buffer>;

/** Chunks of a column encoded by one `toString('base64')` call into {@link blockText} (64 KiB of text). */
const BLOCK_CHUNKS = 16;

/**
 * Where a block of chunks is encoded to be compared, and the base's text of a changed chunk
 * copied (reused, 4-byte aligned): touched once per process, not a fresh page per chunk.
 */
const blockText = Buffer.allocUnsafeSlow(CHUNK * BLOCK_CHUNKS);
const baseChunk = Buffer.allocUnsafeSlow(CHUNK);

/**
 * The snapshot line whose hashed body `{...}` is `parts` (see `LineEncoder.eventParts`),
 * chained to `prevChain`, as a patch against `base` (the parent's line, without `\n`):
 * the same chain value, and the same ops and data as {@link diffLine} of the full line,
 * without building that line. A column of the line (a `Base64Text`) paired with a base
 * column of its length is encoded chunk by chunk into one small buffer and compared with
 * the base's text in place; only its changed chunks are kept, the chain's SHA-256 is fed
 * the base's bytes for the unchanged ones. At 10^5 agents this replaces base64 of every
 * column into fresh strings, a 4 MB line and a diff over it (~50 ms per snapshot) by a few
 * ms. `known`: the changes found for columns of the same state written just before
 * (a final snapshot right after the periodic one), not compared again.
 *
 * Undefined when the line does not pair with the base that way (other long strings, a
 * column of another length): the caller then encodes the line and diffs it as usual.
 * `patch` is undefined when the patch would be over `share` of the line.
 */
export function snapshotPatch(
  base: Buffer,
  parts: readonly LinePart[],
  prevChain: string,
  share: number,
  known?: ReadonlyMap<Base64Text, ColumnChanges>,
):
  | {
      chain: string;
      patch: { ops: string; data: string } | undefined;
      changes: Map<Base64Text, ColumnChanges>;
    }
  | undefined {
  const last = parts[parts.length - 1];
  if (parts.length === 0 || !Buffer.isBuffer(last) || last[last.length - 1] !== 0x7d) return undefined;
  // the line: the last part's closing brace gives way to `,"h":"<16 hex>"}` (written once the chain is known)
  const lastPart = Buffer.allocUnsafe(last.length - 1 + HASH_SUFFIX_LENGTH);
  last.copy(lastPart, 0, 0, last.length - 1);
  lastPart.write(`,"h":"${'0'.repeat(16)}"}`, last.length - 1, 'latin1');
  const line = [...parts.slice(0, -1), lastPart];
  const starts: number[] = [];
  let size = 0;
  for (const part of line) {
    starts.push(size);
    size += part.length;
  }
  // the long strings of the line: those inside the JSON parts, and every column
  const spans: number[] = [];
  const spanPart: number[] = [];
  for (let p = 0; p < line.length; p++) {
    const part = line[p];
    if (!Buffer.isBuffer(part)) {
      if (part.length < LONG) return undefined;
      spans.push(starts[p], starts[p] + part.length);
      spanPart.push(p);
      continue;
    }
    // a part after a column starts with the quote that closes it
    const inner = longStrings(part, p > 0 && !Buffer.isBuffer(line[p - 1]) ? 1 : 0);
    for (let k = 0; k < inner.length; k += 2) {
      spans.push(starts[p] + inner[k], starts[p] + inner[k + 1]);
      spanPart.push(p);
    }
  }
  const a = baseSpans(base);
  if (a.length !== spans.length) return undefined;
  const changes = new Map<Base64Text, ColumnChanges>();
  const columnAt = new Map<Base64Text, number>();
  for (let k = 0; k < a.length; k += 2) {
    const part = line[spanPart[k / 2]];
    if (Buffer.isBuffer(part)) continue;
    if (a[k + 1] - a[k] !== part.length) return undefined;
    changes.set(part, known?.get(part) ?? changedChunks(base, a[k], part));
    columnAt.set(part, a[k]);
  }
  const hash = createHash('sha256').update(`${prevChain}\n`);
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p];
    if (Buffer.isBuffer(part)) hash.update(part);
    else hashColumn(hash, base, columnAt.get(part)!, part.length, changes.get(part)!);
  }
  const chain = hash.digest('hex');
  lastPart.write(chain.slice(0, 16), lastPart.length - 18, 'latin1');
  const patch = new PatchBuilder(size * share);
  // as diffLine: gaps between long strings by prefix and suffix, long strings of equal length in place
  let aAt = 0;
  let bAt = 0;
  for (let k = 0; k <= a.length; k += 2) {
    const aEnd = k < a.length ? a[k] : base.length;
    const bEnd = k < a.length ? spans[k] : size;
    const p = textPartOf(line, starts, bAt, bEnd);
    if (p === -1) return undefined;
    const gap = line[p] as Buffer;
    if (!trimmed(base, aAt, aEnd, gap, bAt - starts[p], bEnd - starts[p], patch))
      return { chain, patch: undefined, changes };
    if (k === a.length) break;
    const [a0, a1, b0, b1] = [a[k], a[k + 1], spans[k], spans[k + 1]];
    const part = line[spanPart[k / 2]];
    const at = starts[spanPart[k / 2]];
    const ok = !Buffer.isBuffer(part)
      ? columnInPlace(base, a0, changes.get(part)!, patch)
      : a1 - a0 === b1 - b0
        ? inPlace(base, a0, part, b0 - at, a1 - a0, patch)
        : trimmed(base, a0, a1, part, b0 - at, b1 - at, patch);
    if (!ok) return { chain, patch: undefined, changes };
    aAt = a1;
    bAt = b1;
  }
  return { chain, patch: patch.finish(), changes };
}

/** Index of the JSON part of `line` that holds `[from, to)`, or -1. */
function textPartOf(line: readonly LinePart[], starts: number[], from: number, to: number): number {
  for (let p = 0; p < line.length; p++)
    if (Buffer.isBuffer(line[p]) && starts[p] <= from && to <= starts[p] + line[p].length) return p;
  return -1;
}

/**
 * The chunks of `column`'s text that differ from the base's text at `a0` (of the same
 * length). Encoded {@link BLOCK_CHUNKS} chunks per call (a one-shot fork pays each call's
 * overhead and fresh string on cold code: ~1,200 calls of 4 KB per snapshot at 10^5
 * agents cost more than their bytes); a block equal to the base's is skipped whole.
 */
function changedChunks(base: Buffer, a0: number, column: Base64Text): ColumnChanges {
  const out: ColumnChanges = new Map();
  const bytes = column.bytes;
  const per = (CHUNK / 4) * 3;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let c0 = 0, from = 0; from < bytes.length; c0 += BLOCK_CHUNKS, from += per * BLOCK_CHUNKS) {
    const to = Math.min(from + per * BLOCK_CHUNKS, bytes.length);
    const len = blockText.write(view.toString('base64', from, to), 0, 'latin1');
    const at = a0 + c0 * CHUNK;
    if (blockText.compare(base, at, at + len, 0, len) === 0) continue;
    for (let c = c0, off = 0; off < len; c++, off += CHUNK) {
      const end = Math.min(off + CHUNK, len);
      if (blockText.compare(base, at + off, at + end, off, end) !== 0)
        out.set(c, Buffer.from(blockText.subarray(off, end)));
    }
  }
  return out;
}

/** Feeds `hash` a column's text: the base's bytes at `a0` where unchanged, the changed chunks' own. */
function hashColumn(
  hash: ReturnType<typeof createHash>,
  base: Buffer,
  a0: number,
  n: number,
  changes: ColumnChanges,
): void {
  let at = 0;
  for (const [c, text] of changes) {
    if (c * CHUNK > at) hash.update(base.subarray(a0 + at, a0 + c * CHUNK));
    hash.update(text);
    at = c * CHUNK + text.length;
  }
  if (at < n) hash.update(base.subarray(a0 + at, a0 + n));
}

/**
 * The edits {@link columnInPlace} made for a column's changes against a base (the base and
 * the column's offset in it, then per edit: the base's range, the inserted length and the
 * `[source, from, to]` runs inserted), kept with the changes: a final snapshot right after
 * the periodic one (the same columns, `known` changes) replays them instead of comparing
 * the changed chunks byte by byte again.
 */
interface ColumnEdits {
  base: Buffer;
  a0: number;
  edits: (Uint8Array | number)[][];
}
const editsOf = new WeakMap<ColumnChanges, ColumnEdits>();

/** Whether a 32-bit word read from memory has its first byte in its low bits. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * {@link inPlace} for a column of the line given by its changed chunks against the base's
 * text at `a0`: the same runs of changed bytes, merged the same way (the bytes of an
 * unchanged chunk are the base's). A changed word is taken whole: its bytes between its
 * first and last changed one are within {@link MERGE} of each other, so they join the
 * same run whatever they are.
 */
function columnInPlace(base: Buffer, a0: number, changes: ColumnChanges, patch: PatchBuilder): boolean {
  const kept = editsOf.get(changes);
  if (kept !== undefined && kept.base === base && kept.a0 === a0) {
    for (const edit of kept.edits) {
      patch.edit(edit[0] as number, edit[1] as number, edit[2] as number);
      for (let k = 3; k < edit.length; k += 3)
        patch.take(edit[k] as Uint8Array, edit[k + 1] as number, edit[k + 2] as number);
      if (!patch.fits()) return false;
    }
    return true;
  }
  const edits: (Uint8Array | number)[][] = [];
  let start = -1;
  let last = -1;
  const emit = (): boolean => {
    const edit: (Uint8Array | number)[] = [a0 + start, a0 + last + 1, last + 1 - start];
    patch.edit(a0 + start, a0 + last + 1, last + 1 - start);
    for (let at = start; at <= last; ) {
      const c = Math.floor(at / CHUNK);
      const end = Math.min((c + 1) * CHUNK, last + 1);
      const text = changes.get(c);
      if (text) {
        patch.take(text, at - c * CHUNK, end - c * CHUNK);
        edit.push(text, at - c * CHUNK, end - c * CHUNK);
      } else {
        patch.take(base, a0 + at, a0 + end);
        edit.push(base, a0 + at, a0 + end);
      }
      at = end;
    }
    edits.push(edit);
    return patch.fits();
  };
  // takes the changed bytes `from..to` (in increasing order; within MERGE of each other)
  const changed = (from: number, to: number): boolean => {
    if (start !== -1 && from - last <= MERGE) {
      last = to;
      return true;
    }
    if (start !== -1 && !emit()) return false;
    start = from;
    last = to;
    return true;
  };
  for (const [c, text] of changes) {
    const off = c * CHUNK;
    // the base's text copied to an aligned buffer, compared four bytes at a time where the chunk is aligned too
    baseChunk.set(base.subarray(a0 + off, a0 + off + text.length));
    const words = text.byteOffset % 4 === 0 ? text.length >> 2 : 0;
    const wa = new Int32Array(baseChunk.buffer, baseChunk.byteOffset, words);
    const wb = new Int32Array(text.buffer, text.byteOffset, words);
    for (let k = 0; k < words; k++) {
      const x = wa[k] ^ wb[k];
      if (x === 0) continue;
      // the lowest and highest differing bytes of the word by significance, then in memory order
      const lo = (31 - Math.clz32(x & -x)) >> 3;
      const hi = (31 - Math.clz32(x)) >> 3;
      const first = off + k * 4 + (LITTLE_ENDIAN ? lo : 3 - hi);
      const end = off + k * 4 + (LITTLE_ENDIAN ? hi : 3 - lo);
      // inside a run (most changed words at 10^5 agents) without a call: cold code pays per call
      if (start !== -1 && first - last <= MERGE) last = end;
      else if (!changed(first, end)) return false;
    }
    for (let i = words * 4; i < text.length; i++)
      if (text[i] !== baseChunk[i] && !changed(off + i, off + i)) return false;
  }
  if (start !== -1 && !emit()) return false;
  editsOf.set(changes, { base, a0, edits });
  return true;
}

/**
 * The bytes `base` patched by `ops` and `data`, or undefined when they do not fit it (an
 * operation beyond the base or the data).
 */
export function applyPatch(base: Uint8Array, ops: string, data: string): Buffer | undefined {
  const op = Buffer.from(ops, 'base64');
  const values: number[] = [];
  for (let i = 0; i < op.length; ) {
    let n = 0;
    let scale = 1;
    for (;;) {
      if (i >= op.length || scale > 2 ** 42) return undefined;
      const byte = op[i++];
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
      scale *= 0x80;
    }
    values.push(n);
  }
  if (values.length % 3 !== 0) return undefined;
  const inserted = Buffer.from(data, 'latin1');
  let size = 0;
  let at = 0;
  let from = 0;
  for (let k = 0; k < values.length; k += 3) {
    const [copy, insert, skip] = [values[k], values[k + 1], values[k + 2]];
    at += copy + skip;
    from += insert;
    size += copy + insert;
  }
  if (at > base.length || from !== inserted.length) return undefined;
  size += base.length - at;
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  at = 0;
  from = 0;
  for (let k = 0; k < values.length; k += 3) {
    const copy = values[k];
    const insert = values[k + 1];
    o = put(out, o, base, at, copy);
    o = put(out, o, inserted, from, insert);
    from += insert;
    at += copy + values[k + 2];
  }
  put(out, o, base, at, base.length - at);
  return out;
}

/** Copies `n` bytes of `src` from `from` into `out` at `o`; returns the end. Short runs by hand (a native copy per run of a few bytes costs more than the bytes). */
function put(out: Uint8Array, o: number, src: Uint8Array, from: number, n: number): number {
  if (n > 64) out.set(src.subarray(from, from + n), o);
  else for (let i = 0; i < n; i++) out[o + i] = src[from + i];
  return o + n;
}

/** The text of a patch line for the line whose chain value is `chain` (its `h` is that line's). */
export function patchLineText(seq: number, t: number, fields: PatchFields, chain: string): string {
  // canonicalJson of {base, data, ops, seq, t, type} written out in its key order: the data
  // (hundreds of KB) is stringified once and not copied again to cut the closing brace
  const number = (n: number): string => canonicalJson(n);
  return `{"base":${number(fields.base)},"data":${JSON.stringify(fields.data)},"ops":${JSON.stringify(fields.ops)},"seq":${number(seq)},"t":${number(t)},"type":"${SNAPSHOT_PATCH}","h":"${chain.slice(0, 16)}"}`;
}

/**
 * Keeps the parent's lines that a delta child's patch lines name as bases (the lines its
 * header's `base` range names, as they are read) and turns each patch line back into the
 * line it stands for.
 */
export class PatchBases {
  private readonly texts = new Map<number, string>();
  private readonly bytes = new Map<number, Buffer>();

  constructor(
    private readonly path: string,
    private readonly range: readonly [number, number] | undefined,
  ) {}

  /** Takes a line of the child's past: kept when the header names it as a base. */
  offer(seq: number, raw: string): void {
    if (this.range && seq >= this.range[0] && seq <= this.range[1]) this.texts.set(seq, raw);
  }

  /**
   * The text of the line that the patch line `raw` (line `line` of the file) stands for.
   * With `verify`, the patch line itself must be in canonical form.
   *
   * @throws LogFormatError when the patch line is malformed, names a base not kept, or does not fit its base.
   */
  expand(raw: string, line: number, verify: boolean): { raw: string; seq: number; t: number } {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(raw) as Record<string, unknown>;
    } catch (cause) {
      throw this.fail(line, 'is not valid JSON', cause);
    }
    const { h, ...fields } = record;
    const ok =
      typeof h === 'string' &&
      Number.isSafeInteger(fields.base) &&
      Number.isSafeInteger(fields.seq) &&
      typeof fields.t === 'number' &&
      typeof fields.ops === 'string' &&
      typeof fields.data === 'string';
    if (!ok)
      throw this.fail(line, 'is not a well-formed snapshot patch (it needs base, ops, data, seq, t and h)');
    if (verify && `${canonicalJson(fields).slice(0, -1)},"h":"${h}"}` !== raw)
      throw this.fail(line, 'is not in canonical form: the log was modified at this line');
    const seq = fields.base as number;
    const text = this.texts.get(seq);
    if (text === undefined)
      throw this.fail(
        line,
        `names base line seq ${seq}, which is not among the parent's lines its header keeps`,
      );
    let base = this.bytes.get(seq);
    if (base === undefined) {
      base = Buffer.from(text, 'utf8');
      this.bytes.set(seq, base);
    }
    const out = applyPatch(base, fields.ops as string, fields.data as string);
    const full = out?.toString('utf8');
    if (full === undefined || !full.endsWith(`"h":"${h}"}`))
      throw this.fail(line, `does not fit its base line (seq ${seq}): the log was modified at this line`);
    return { raw: full, seq: fields.seq as number, t: fields.t as number };
  }

  private fail(line: number, message: string, cause?: unknown): LogFormatError {
    return new LogFormatError(
      `${this.path}: line ${line} (a snapshot patch) ${message}`,
      { line },
      {
        cause,
        hint: 'the log was damaged or edited after it was written; restore it from a copy, or fork again',
      },
    );
  }
}
