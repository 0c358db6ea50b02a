import type { Base64Text } from '../../core/index.ts';
import type { chainHasher } from '../format/chain.ts';
import { MERGE, type PatchBuilder } from './patch-builder.ts';

/** Base64 characters of a column compared at once with the base (3,072 bytes of the column). */
export const CHUNK = 4096;
/** Chunks of a column encoded by one `toString('base64')` call (64 KiB of text). */
const BLOCK_CHUNKS = 16;
/** Whether a 32-bit word read from memory has its first byte in its low bits. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The chunks of a column whose text differs from the base's, by chunk index (increasing), with their text. */
export type ColumnChanges = Map<number, Buffer>;

/**
 * Compares ranges of a line with the same ranges of its base and turns each run of changed
 * bytes into an insertion of a patch; owns the small buffers its comparisons reuse (touched
 * once per writer, not a fresh page per chunk).
 */
export class ColumnCompare {
  private readonly blockText = Buffer.allocUnsafeSlow(CHUNK * BLOCK_CHUNKS);
  private readonly baseChunk = Buffer.allocUnsafeSlow(CHUNK);

  /** The chunks of `b[b0, b0 + n)` that differ from the base's bytes at `a0` (views of `b`). */
  changedSlices(base: Buffer, a0: number, b: Buffer, b0: number, n: number): ColumnChanges {
    const out: ColumnChanges = new Map();
    for (let c = 0, off = 0; off < n; c++, off += CHUNK) {
      const end = Math.min(off + CHUNK, n);
      if (b.compare(base, a0 + off, a0 + end, b0 + off, b0 + end) !== 0)
        out.set(c, b.subarray(b0 + off, b0 + end));
    }
    return out;
  }

  /**
   * The chunks of `column`'s text that differ from the base's text at `a0` (of the same
   * length), encoded {@link BLOCK_CHUNKS} chunks per call (on cold code a call costs more than
   * its bytes); a block equal to the base's is skipped whole.
   */
  changedChunks(base: Buffer, a0: number, column: Base64Text): ColumnChanges {
    const out: ColumnChanges = new Map();
    const bytes = column.bytes;
    const per = (CHUNK / 4) * 3;
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let c0 = 0, from = 0; from < bytes.length; c0 += BLOCK_CHUNKS, from += per * BLOCK_CHUNKS) {
      const to = Math.min(from + per * BLOCK_CHUNKS, bytes.length);
      const len = this.blockText.write(view.toString('base64', from, to), 0, 'latin1');
      const at = a0 + c0 * CHUNK;
      if (this.blockText.compare(base, at, at + len, 0, len) === 0) continue;
      for (let c = c0, off = 0; off < len; c++, off += CHUNK) {
        const end = Math.min(off + CHUNK, len);
        if (this.blockText.compare(base, at + off, at + end, off, end) !== 0)
          out.set(c, Buffer.from(this.blockText.subarray(off, end)));
      }
    }
    return out;
  }

  /**
   * Replaces each run of changed bytes of a string of the line against the base's at `a0`,
   * given by its changed chunks (the bytes of an unchanged chunk are the base's); changes at
   * most {@link MERGE} bytes apart join one run. A changed word is taken whole: its bytes
   * between its first and last changed one are within MERGE of each other, so they join the
   * same run whatever they are.
   */
  columnInPlace(base: Buffer, a0: number, changes: ColumnChanges, patch: PatchBuilder): boolean {
    let start = -1;
    let last = -1;
    const emit = (): boolean => {
      patch.edit(a0 + start, a0 + last + 1, last + 1 - start);
      for (let at = start; at <= last; ) {
        const c = Math.floor(at / CHUNK);
        const end = Math.min((c + 1) * CHUNK, last + 1);
        const text = changes.get(c);
        if (text) patch.take(text, at - c * CHUNK, end - c * CHUNK);
        else patch.take(base, a0 + at, a0 + end);
        at = end;
      }
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
      this.baseChunk.set(base.subarray(a0 + off, a0 + off + text.length));
      const words = text.byteOffset % 4 === 0 ? text.length >> 2 : 0;
      const wa = new Int32Array(this.baseChunk.buffer, this.baseChunk.byteOffset, words);
      const wb = new Int32Array(text.buffer, words ? text.byteOffset : 0, words);
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
        if (text[i] !== this.baseChunk[i] && !changed(off + i, off + i)) return false;
    }
    if (start !== -1 && !emit()) return false;
    return true;
  }
}

/** Feeds `hash` a column's text: the base's bytes at `a0` where unchanged, the changed chunks' own. */
export function hashColumn(
  hash: ReturnType<typeof chainHasher>,
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
