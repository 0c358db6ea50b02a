import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { LogFormatError } from '../../core/index.ts';

const WINDOW = 8 * 1024 * 1024;
const TRAILER = 8;
const FLAG_HCRC = 2;
const FLAG_EXTRA = 4;
const FLAG_NAME = 8;
const FLAG_COMMENT = 16;

/** Where the complete gzip members of a file end, and what follows them. */
export interface GzipTail {
  /** Byte offset just after the last complete member (the file size when all are complete). */
  end: number;
  /** The bytes after `end`: a partial member, or empty. */
  tail: Buffer;
  /** Number of `\n` bytes in the decompressed complete members: their complete lines. */
  lines: number;
}

/**
 * Walks the gzip members of a file from the start and finds the end of the last complete
 * one (a zero byte where a member should start also ends the walk, as it ends gunzip). Each member is inflated once to learn its compressed length (gzip does not store
 * it); memory stays bounded by a window of `windowBytes` (default 8 MiB) or twice the
 * largest member.
 *
 * @throws LogFormatError when the data between members is not a gzip member.
 */
export function findGzipTail(path: string, windowBytes = WINDOW): GzipTail {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    let win = Buffer.alloc(0);
    let winStart = 0;
    let pos = 0;
    let lines = 0;
    while (pos < size) {
      // Zero bytes after a member are what a crash can leave; gunzip stops there too.
      if (pos - winStart < win.length && win[pos - winStart] === 0) break;
      const member = inflateMember(win, pos - winStart, path, pos);
      if (member !== null) {
        pos += member.length;
        lines += member.lines;
        continue;
      }
      const winEnd = winStart + win.length;
      if (winEnd >= size) break;
      const keep = win.subarray(pos - winStart);
      const more = readAt(fd, winEnd, Math.min(Math.max(windowBytes, keep.length), size - winEnd));
      win = Buffer.concat([keep, more]);
      winStart = pos;
    }
    return { end: pos, tail: Buffer.from(win.subarray(pos - winStart)), lines };
  } finally {
    closeSync(fd);
  }
}

/**
 * Compressed length and line count of the member starting at `off` in `buf`, or null if
 * `buf` ends before the member does.
 */
function inflateMember(
  buf: Buffer,
  off: number,
  path: string,
  filePos: number,
): { length: number; lines: number } | null {
  const header = headerLength(buf, off, path, filePos);
  if (header === null) return null;
  try {
    const { buffer, engine } = inflateRawSync(buf.subarray(off + header), { info: true }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    const length = header + engine.bytesWritten + TRAILER;
    return off + length <= buf.length ? { length, lines: countNewlines(buffer) } : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'Z_BUF_ERROR') return null;
    throw corrupt(path, filePos, err);
  }
}

/** Length of the gzip header at `off` (RFC 1952, section 2.3), or null if `buf` ends first. */
function headerLength(buf: Buffer, off: number, path: string, filePos: number): number | null {
  const avail = buf.length - off;
  if (avail < 10) {
    const magic = [0x1f, 0x8b, 0x08];
    for (let i = 0; i < Math.min(avail, 3); i++) if (buf[off + i] !== magic[i]) throw corrupt(path, filePos);
    return null;
  }
  if (buf[off] !== 0x1f || buf[off + 1] !== 0x8b || buf[off + 2] !== 0x08) throw corrupt(path, filePos);
  const flags = buf[off + 3];
  let p = off + 10;
  if (flags & FLAG_EXTRA) {
    if (p + 2 > buf.length) return null;
    p += 2 + buf.readUInt16LE(p);
  }
  for (const flag of [FLAG_NAME, FLAG_COMMENT]) {
    if (!(flags & flag)) continue;
    const zero = buf.indexOf(0, p);
    if (zero === -1) return null;
    p = zero + 1;
  }
  if (flags & FLAG_HCRC) p += 2;
  return p <= buf.length ? p - off : null;
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) n++;
  return n;
}

function readAt(fd: number, position: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, out, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? out : out.subarray(0, done);
}

function corrupt(path: string, filePos: number, cause?: unknown): LogFormatError {
  return new LogFormatError(
    `the gzip data of ${path} is corrupt at byte ${filePos}`,
    {},
    { cause, hint: 'the log was damaged; restore it from a copy or rerun' },
  );
}
