import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { canonicalJson, LogFormatError } from '../../core/index.ts';
import { HASH_SUFFIX_LENGTH } from '../format/line-codec.ts';
import { MAX_LINE } from './byte-lines.ts';

const NEWLINE = 0x0a;
const SUFFIX = Buffer.from(',"h":"');
const WALL = Buffer.from('"wall":');
const WALL_MEMBER = Buffer.from(',"wall":');

/** One complete line of a plain log file, as bytes, with where it starts in the file. */
export interface RawLine {
  /** The line's bytes without its `\n`. */
  bytes: Buffer;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
}

/**
 * Streams the complete lines of a plain (not gzip) log file from byte `start` on, as
 * bytes, in batches (one per chunk read). A final line without `\n` is not yielded; the
 * return value is then true (the file is cut short).
 *
 * @throws LogFormatError when the file does not read, or a line is longer than MAX_LINE.
 */
export async function* readRawLineBytes(
  path: string,
  start = 0,
): AsyncGenerator<RawLine[], boolean, undefined> {
  const stream = createReadStream(path, { start, highWaterMark: 1024 * 1024 });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let offset = start;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const batch: RawLine[] = [];
      let from = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
        const part = chunk.subarray(from, nl);
        const bytes = pendingBytes === 0 ? part : Buffer.concat([...pending, part]);
        pending = [];
        pendingBytes = 0;
        batch.push({ bytes, offset });
        offset += bytes.length + 1;
        from = nl + 1;
      }
      if (from < chunk.length) {
        pending.push(chunk.subarray(from));
        pendingBytes += chunk.length - from;
        if (pendingBytes > MAX_LINE)
          throw new LogFormatError(`${path} has a line longer than ${MAX_LINE} bytes at byte ${offset}`, {});
      }
      if (batch.length > 0) yield batch;
    }
  } catch (err) {
    if (err instanceof LogFormatError) throw err;
    throw new LogFormatError(`cannot read log file ${path}: ${(err as Error).message}`, {}, { cause: err });
  } finally {
    stream.destroy();
  }
  return pendingBytes > 0;
}

/**
 * As {@link readRawLineBytes}, but every batch is read into one buffer that is reused for
 * the next batch: a line's bytes are valid only until the generator is resumed, and a caller
 * that keeps a line copies it. Reading a log does not touch fresh memory for every chunk
 * (a fresh page's first touch is a page fault; a 44 MB log is 11,000 of them).
 *
 * @throws LogFormatError when the file does not read, or a line is longer than MAX_LINE.
 */
export async function* scanRawLineBytes(
  path: string,
  start = 0,
): AsyncGenerator<RawLine[], boolean, undefined> {
  let buf = Buffer.allocUnsafeSlow(1024 * 1024);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  /** Bytes at the start of `buf` that belong to a line not complete yet. */
  let kept = 0;
  let offset = start;
  try {
    handle = await open(path, 'r');
    for (let pos = start; ; ) {
      if (kept === buf.length) {
        if (buf.length >= MAX_LINE)
          throw new LogFormatError(`${path} has a line longer than ${MAX_LINE} bytes at byte ${offset}`, {});
        const bigger = Buffer.allocUnsafeSlow(Math.min(buf.length * 2, MAX_LINE + 1));
        buf.copy(bigger, 0, 0, kept);
        buf = bigger;
      }
      const { bytesRead } = await handle.read(buf, kept, buf.length - kept, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const filled = kept + bytesRead;
      const view = buf.subarray(0, filled);
      const batch: RawLine[] = [];
      let from = 0;
      for (let nl = view.indexOf(NEWLINE, kept); nl !== -1; nl = view.indexOf(NEWLINE, nl + 1)) {
        batch.push({ bytes: view.subarray(from, nl), offset });
        offset += nl - from + 1;
        from = nl + 1;
      }
      if (batch.length > 0) yield batch;
      kept = filled - from;
      if (kept > MAX_LINE)
        throw new LogFormatError(`${path} has a line longer than ${MAX_LINE} bytes at byte ${offset}`, {});
      if (from > 0) buf.copy(buf, 0, from, filled);
    }
  } catch (err) {
    if (err instanceof LogFormatError) throw err;
    throw new LogFormatError(`cannot read log file ${path}: ${(err as Error).message}`, {}, { cause: err });
  } finally {
    await handle?.close();
  }
  return kept > 0;
}

/**
 * The complete lines of a plain log file between byte `start` (a line's first byte) and
 * byte `end` (the first byte of a later line), read at once into one buffer (no line is
 * pieced together from chunks). Undefined when the file no longer holds that many bytes
 * there, or the range does not end with a line's `\n` (the file changed).
 *
 * @throws LogFormatError when the file does not read.
 */
export function readRawLineRange(path: string, start: number, end: number): RawLine[] | undefined {
  const buf = Buffer.allocUnsafe(end - start);
  let got = 0;
  try {
    const fd = openSync(path, 'r');
    try {
      while (got < buf.length) {
        const n = readSync(fd, buf, got, buf.length - got, start + got);
        if (n === 0) break;
        got += n;
      }
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new LogFormatError(`cannot read log file ${path}: ${(err as Error).message}`, {}, { cause: err });
  }
  if (got < buf.length || (buf.length > 0 && buf[buf.length - 1] !== NEWLINE)) return undefined;
  const lines: RawLine[] = [];
  let from = 0;
  for (let nl = buf.indexOf(NEWLINE); nl !== -1; nl = buf.indexOf(NEWLINE, from)) {
    lines.push({ bytes: buf.subarray(from, nl), offset: start + from });
    from = nl + 1;
  }
  return lines;
}

/** True when the line's bytes hold `"wall":` anywhere (its hashed body then differs from its bytes). */
export function mayHoldWall(line: Buffer): boolean {
  return line.indexOf(WALL) !== -1;
}

/** The 16 hex digits of the line's `h` (its last key), or null when the line does not end in one. */
export function rawLineHash(line: Buffer): string | null {
  const n = line.length;
  if (n < HASH_SUFFIX_LENGTH + 1 || line[n - 1] !== 0x7d || line[n - 2] !== 0x22) return null;
  if (line.compare(SUFFIX, 0, SUFFIX.length, n - HASH_SUFFIX_LENGTH, n - 18) !== 0) return null;
  return line.toString('latin1', n - 18, n - 2);
}

/**
 * Where the hashed body of an event line ends (see log-format.ts: the body is the line
 * without `h` and without `wall`): before its `,"h":"..."` member, or, for a line whose last
 * member before `h` is `wall`, before `,"wall":`. Null when the line holds `"wall":` in any
 * other way, or a `wall` that is not a canonical JSON object (such a line is read in full).
 * `line` must end in an `h` member ({@link rawLineHash} not null).
 */
export function rawBodyEnd(line: Buffer): number | null {
  const end = line.length - HASH_SUFFIX_LENGTH;
  const at = line.lastIndexOf(WALL_MEMBER, end);
  if (at === -1) return mayHoldWall(line) ? null : end;
  // A nested `"wall":` (not the line's own) leaves unbalanced braces after it: no JSON object.
  const text = line.toString('utf8', at + WALL_MEMBER.length, end);
  let wall: unknown;
  try {
    wall = JSON.parse(text);
  } catch {
    return null;
  }
  if (wall === null || typeof wall !== 'object' || Array.isArray(wall)) return null;
  return canonicalJson(wall) === text ? at : null;
}

/**
 * The chain value after an event line, computed from its bytes as they are: the hashed body
 * is the line up to `bodyEnd` (default: without its `,"h":"..."` member, for a line without
 * `wall`; see {@link rawBodyEnd}) and its closing `}`, so no parsing or re-encoding is
 * needed. The bytes are not checked for canonical form.
 */
export function rawEventChain(
  line: Buffer,
  prevChain: string,
  bodyEnd = line.length - HASH_SUFFIX_LENGTH,
): string {
  return createHash('sha256')
    .update(`${prevChain}\n`)
    .update(line.subarray(0, bodyEnd))
    .update('}')
    .digest('hex');
}

const TAIL = /"t":(-?[0-9.e+-]+),"type":"([^"\\]+)","h":"[0-9a-f]{16}"}$/;
const END_TAIL = /,"type":"end","h":"[0-9a-f]{16}"}$/;

/**
 * The tick and type of an event line whose last key before `h` is `type` right after `t`
 * (tick and snapshot lines), read from its last bytes without parsing it; null otherwise.
 * An `end` line gives type `end` (its tick is not read).
 */
export function rawLineKind(line: Buffer): { t: number; type: string } | null {
  const tail = line.toString('latin1', Math.max(0, line.length - 80));
  const m = TAIL.exec(tail);
  if (m) return { t: Number(m[1]), type: m[2] };
  return END_TAIL.test(tail) ? { t: Number.NaN, type: 'end' } : null;
}
