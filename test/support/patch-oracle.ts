// The patch a delta child writes for a snapshot line, computed the plain way from the whole
// line: a test oracle for the writer's patch sink (src/replay/write/patch-sink.ts), which
// compares the line's pieces with the base as they are encoded and must give these very ops
// and data. Written for clarity (a byte loop), not speed.

/** JSON strings at least this long are paired with the base's in order. */
const LONG = 4096;
/** Changed bytes at most this far apart go into one insertion. */
const MERGE = 8;

/** Content ranges [start, end] of the JSON strings of `line` with at least LONG bytes. */
function longStrings(line: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < line.length; i++) {
    if (line[i] !== 0x22) continue;
    let j = i + 1;
    while (j < line.length && line[j] !== 0x22) j += line[j] === 0x5c ? 2 : 1;
    if (j >= line.length) return out;
    if (j - i - 1 >= LONG) out.push([i + 1, j]);
    i = j;
  }
  return out;
}

/** One edit: the base's [aFrom, aTo) replaced by the line's [bFrom, bTo). */
type Edit = [number, number, number, number];

function trimmed(a: Buffer, a0: number, a1: number, b: Buffer, b0: number, b1: number, out: Edit[]): void {
  let p = 0;
  while (p < a1 - a0 && p < b1 - b0 && a[a0 + p] === b[b0 + p]) p++;
  let s = 0;
  while (s < a1 - a0 - p && s < b1 - b0 - p && a[a1 - 1 - s] === b[b1 - 1 - s]) s++;
  if (p === a1 - a0 && p === b1 - b0) return;
  out.push([a0 + p, a1 - s, b0 + p, b1 - s]);
}

function inPlace(a: Buffer, a0: number, b: Buffer, b0: number, n: number, out: Edit[]): void {
  let start = -1;
  let last = -1;
  for (let i = 0; i < n; i++) {
    if (a[a0 + i] === b[b0 + i]) continue;
    if (start !== -1 && i - last <= MERGE) last = i;
    else {
      if (start !== -1) out.push([a0 + start, a0 + last + 1, b0 + start, b0 + last + 1]);
      start = last = i;
    }
  }
  if (start !== -1) out.push([a0 + start, a0 + last + 1, b0 + start, b0 + last + 1]);
}

function varint(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

/** The patch turning `base` into `line` (a log line's bytes without `\n`), or undefined when larger than `limit` bytes. */
export function diffLine(
  base: Buffer,
  line: Buffer,
  limit: number,
): { ops: string; data: string } | undefined {
  let a = longStrings(base);
  let b = longStrings(line);
  if (a.length !== b.length) a = b = [];
  const edits: Edit[] = [];
  let aAt = 0;
  let bAt = 0;
  for (let k = 0; k <= a.length; k++) {
    trimmed(
      base,
      aAt,
      k < a.length ? a[k][0] : base.length,
      line,
      bAt,
      k < a.length ? b[k][0] : line.length,
      edits,
    );
    if (k === a.length) break;
    const [[a0, a1], [b0, b1]] = [a[k], b[k]];
    if (a1 - a0 === b1 - b0) inPlace(base, a0, line, b0, a1 - a0, edits);
    else trimmed(base, a0, a1, line, b0, b1, edits);
    [aAt, bAt] = [a1, b1];
  }
  const ops: number[] = [];
  const data: Buffer[] = [];
  let at = 0;
  for (const [aFrom, aTo, bFrom, bTo] of edits) {
    varint(aFrom - at, ops);
    varint(bTo - bFrom, ops);
    varint(aTo - aFrom, ops);
    data.push(line.subarray(bFrom, bTo));
    at = aTo;
  }
  const inserted = Buffer.concat(data);
  if (inserted.length + Math.ceil(ops.length / 3) * 4 > limit) return undefined;
  return { ops: Buffer.from(ops).toString('base64'), data: inserted.toString('latin1') };
}
