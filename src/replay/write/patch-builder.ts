import { copyBytes } from '../format/snapshot-patch.ts';

/**
 * Unchanged bytes between two changes up to which both go into one insertion. A triple costs
 * about three bytes, and changed columns hold nearby changes: 8 keeps the ops small (a few KB
 * at 10^5 agents) without inserting much unchanged data.
 */
export const MERGE = 8;

/** Builds the ops and data of a patch while the line is compared with its base. */
export class PatchBuilder {
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
      o = copyBytes(data, o, this.data[k] as Uint8Array, from, (this.data[k + 2] as number) - from);
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

/** Replaces `a[a0, a1)` by `b[b0, b1)` except for their common prefix and suffix. */
export function trimmed(
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
