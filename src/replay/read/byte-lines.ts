import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { LogFormatError } from '../../core/index.ts';
import { isGzipPath, logError, MAX_LINE } from '../format/log-format.ts';

const READ_CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

/** One complete line of a log file: its bytes without `\n`, and the offset of its first byte in the (decompressed) file. */
export interface ByteLine {
  bytes: Buffer;
  offset: number;
}

/**
 * How a file ends: `whole`, after a complete line; `cut`, in a line or a gzip member (a crash);
 * `after`, complete gzip members followed by zero bytes (a crash) or ending in an unfinished
 * line (a writer that did not finish): neither can follow an end line.
 */
export type LinesEnd = 'whole' | 'cut' | 'after';

/**
 * Streams the complete lines of a log file (gunzipped for `.gz`) as bytes, a batch per chunk
 * read. The lines of a batch lie in a buffer reused for the next (a fresh page costs a fault on
 * first touch): a caller that keeps a line's bytes copies them. A `range` of a plain file is read
 * at once into a buffer of its own, whose lines stay valid (one that does not end with `\n` ends
 * as `'cut'`: the file changed). Memory stays bounded by the chunk size plus the longest line.
 *
 * @throws LogFormatError when the file is missing or unreadable, is not gzip data (for `.gz`),
 *   has corrupt gzip data, or has a line longer than `MAX_LINE`; its `position.line` says where.
 */
export async function* byteLines(
  path: string,
  range: { start?: number; end?: number } = {},
): AsyncGenerator<ByteLine[], LinesEnd, undefined> {
  const size = await checkFile(path);
  const gzip = isGzipPath(path);
  const start = range.start ?? 0;
  if (size <= start) return 'whole';
  // a range is read at once into a buffer of its own, which no later read overwrites
  const source = openBytes(path, start, gzip, range.end);
  let buf = Buffer.allocUnsafeSlow(range.end === undefined ? READ_CHUNK : range.end - start);
  let kept = 0;
  let offset = start;
  let lineNo = 0;
  try {
    for (;;) {
      if (kept === buf.length) {
        const bigger = Buffer.allocUnsafeSlow(Math.min(buf.length * 2, MAX_LINE + 2));
        buf.copy(bigger, 0, 0, kept);
        buf = bigger;
      }
      const read = await source.fill(buf, kept);
      if (read === 0) break;
      if (offset === 0 && kept === 0 && !gzip && buf[0] === 0x1f && buf[1] === 0x8b) {
        const message = `${path} is gzip-compressed but its name does not end in .gz`;
        throw logError(message, { line: 1 }, 'rename it to end in .ndjson.gz');
      }
      const filled = kept + read;
      const batch: ByteLine[] = [];
      const from = split(buf, kept, filled, offset, batch);
      offset += from;
      lineNo += batch.length;
      if (batch.length > 0) yield batch;
      kept = filled - from;
      if (kept > MAX_LINE) throw tooLong(path, lineNo + 1);
      if (from > 0) buf.copy(buf, 0, from, filled);
    }
  } catch (err) {
    if (err instanceof LogFormatError) throw err;
    if (gzip && (err as NodeJS.ErrnoException).code === 'Z_BUF_ERROR') return 'cut';
    throw streamError(path, err, lineNo, gzip);
  } finally {
    await source.close();
  }
  if (gzip && ((await zerosAfter(source.consumed(), path, size)) || kept > 0)) return 'after';
  return kept > 0 ? 'cut' : 'whole';
}

/**
 * Pushes to `batch` the complete lines of `buf[0, filled)`, the first at byte `offset` of the
 * file (the bytes before `at` hold no `\n`); returns the index just after the last `\n`.
 */
function split(buf: Buffer, at: number, filled: number, offset: number, batch: ByteLine[]): number {
  const view = buf.subarray(0, filled);
  let from = 0;
  for (let nl = view.indexOf(NEWLINE, at); nl !== -1; nl = view.indexOf(NEWLINE, nl + 1)) {
    batch.push({ bytes: view.subarray(from, nl), offset: offset + from });
    from = nl + 1;
  }
  return from;
}

/**
 * The bytes of a file from `start`, taken by `fill` into the caller's buffer: a plain file read
 * straight into it; a gzip file gunzipped so that a cut-short last member loses no output: each
 * chunk is inflated (without flushing) and its output taken before the next is written, and the
 * stream is ended only then, so the "unexpected end of file" of a partial member comes from the
 * final empty flush (with `pipe`, the last chunk may be inflated with Z_FINISH, and its error
 * then drops that chunk's output: up to a whole chunk of complete lines).
 */
function openBytes(path: string, start: number, gzip: boolean, end = Number.POSITIVE_INFINITY) {
  let pos = start;
  const file = gzip ? createReadStream(path, { highWaterMark: READ_CHUNK }) : undefined;
  const handle = gzip ? undefined : open(path, 'r');
  const gunzip = file && createGunzip({ chunkSize: 256 * 1024 });
  if (file && gunzip) {
    const write = (chunk: Buffer) =>
      new Promise<void>((ok, fail) => gunzip.write(chunk, (e) => (e ? fail(e) : ok())));
    (async () => {
      for await (const chunk of file) await write(chunk as Buffer);
      gunzip.end();
    })().catch((err: Error) => gunzip.destroy(err));
    gunzip.once('close', () => file.destroy());
  }
  const chunks = gunzip && (gunzip as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let rest: Buffer = Buffer.alloc(0);
  return {
    /** Puts the next bytes at `buf[at...]`; returns how many (0 at the end). */
    async fill(buf: Buffer, at: number): Promise<number> {
      if (handle) {
        // a read stops at `end`, and fills the room (a range's buffer is filled once)
        const room = Math.min(buf.length - at, end - pos);
        let got = 0;
        for (let n = -1; got < room && n !== 0; got += n)
          n = (await (await handle).read(buf, at + got, room - got, pos + got)).bytesRead;
        pos += got;
        return got;
      }
      if (rest.length === 0) {
        const step = await (chunks as AsyncIterator<Buffer>).next();
        if (step.done) return 0;
        rest = step.value;
      }
      const n = rest.copy(buf, at);
      rest = rest.subarray(n);
      return n;
    },
    /** The compressed bytes the gunzip read. */
    consumed: () => gunzip?.bytesWritten ?? 0,
    async close(): Promise<void> {
      gunzip?.destroy();
      await (await handle?.catch(() => undefined))?.close();
    },
  };
}

/** True when only zero bytes follow the gzip members (the gunzip stops at the first); any other byte is damage. */
async function zerosAfter(consumed: number, path: string, size: number): Promise<boolean> {
  if (consumed >= size) return false;
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    for (let pos = consumed; pos < size; ) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, size - pos), pos);
      if (bytesRead === 0) break;
      const bad = buf.subarray(0, bytesRead).findIndex((b) => b !== 0);
      const after = `after the gzip members that end at byte ${consumed}`;
      if (bad !== -1) throw logError(`${path} has unreadable data at byte ${pos + bad}, ${after}`);
      pos += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return true;
}

function tooLong(path: string, line: number): LogFormatError {
  const hint =
    'the log was damaged, or written by an earlier grapevine that wrote a large snapshot as one line; rerun it with this version';
  const message = `line ${line} of ${path} is longer than ${MAX_LINE / 2 ** 20} MiB, more than a log line may hold`;
  return logError(message, { line }, hint);
}

/** The file's size. @throws LogFormatError when it is missing or not a file. */
async function checkFile(path: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw streamError(path, cause, 0, false);
    const hint = 'check the path; a log is the .ndjson or .ndjson.gz file a run wrote';
    throw logError(`no such log file: ${path}`, {}, hint, cause);
  }
  if (info.isDirectory())
    throw logError(`${path} is a directory, not a log file`, {}, 'pass the log file itself');
  return info.size;
}

function streamError(path: string, err: unknown, lineNo: number, gzip: boolean): LogFormatError {
  const e = err as NodeJS.ErrnoException;
  if (!gzip || typeof e.code !== 'string' || !e.code.startsWith('Z_')) {
    const hint = 'check that the file exists and is readable';
    return logError(`cannot read log file ${path}: ${e.code ?? e.message}`, {}, hint, err);
  }
  if (lineNo > 0) {
    const message = `the gzip data of ${path} is corrupt after line ${lineNo}: ${e.message}`;
    return logError(message, { line: lineNo + 1 }, undefined, err);
  }
  const hint = 'a log whose name ends in .gz must be gzip data; rename a plain log to .ndjson';
  return logError(`${path} is not a gzip-compressed grapevine log: ${e.message}`, { line: 1 }, hint, err);
}
