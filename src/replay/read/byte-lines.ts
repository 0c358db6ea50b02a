import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { createGunzip, type Gunzip } from 'node:zlib';
import { LogFormatError } from '../../core/index.ts';
import { isGzipPath, MAX_LINE } from '../format/log-format.ts';

const READ_CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;
const BAD_HINT = { hint: 'the log was damaged or edited; restore it from a copy or rerun' };

/** One complete line of a log file, as bytes. */
export interface ByteLine {
  /** The line's bytes, without its `\n`. */
  bytes: Buffer;
  /** Byte offset of the line's first byte in the (decompressed) file. */
  offset: number;
}

/**
 * How a file of lines ends: `'whole'` after a complete line; `'cut'` in a partial line or
 * gzip member; `'zeros'` with zero bytes after its last gzip member (what a crash can leave
 * on some file systems).
 */
export type LinesEnd = 'whole' | 'cut' | 'zeros';

/** Where {@link byteLines} reads. */
export interface ByteLinesOptions {
  /** Byte offset of the first line read (a plain file only; default 0). */
  start?: number;
  /**
   * Byte offset just after the last line read (a plain file only): the range is read at once
   * into a buffer of its own, whose lines stay valid. The range must end with a `\n`, else the
   * file changed: the read then ends as `'cut'`.
   */
  end?: number;
}

/**
 * Streams the complete lines of a log file (gunzipped when the path ends in `.gz`) as bytes,
 * in batches, one per chunk read, without loading the file. The lines of a batch lie in a
 * buffer that is reused for the next batch (a fresh page costs a fault on first touch):
 * a caller that keeps a line's bytes copies them, except from a read with `end`. The
 * generator's return value says how the file ends (see {@link LinesEnd}). Memory stays
 * bounded by the chunk size plus the longest line.
 *
 * @throws LogFormatError when the file is missing or unreadable, is not gzip data (for
 *   `.gz`), has corrupt gzip data, or has a line longer than `MAX_LINE`. Its `position`
 *   holds the 1-based `line` where the problem starts.
 */
export async function* byteLines(
  path: string,
  opts: ByteLinesOptions = {},
): AsyncGenerator<ByteLine[], LinesEnd, undefined> {
  const size = await checkFile(path);
  const gzip = isGzipPath(path);
  const start = opts.start ?? 0;
  if (size <= start) return 'whole';
  if (opts.end !== undefined) return yield* rangeLines(path, start, opts.end);
  const source = gzip ? gunzipped(path) : plain(path, start);
  let buf = Buffer.allocUnsafeSlow(READ_CHUNK);
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
      if (offset === 0 && kept === 0 && !gzip) checkNotGzip(buf, path);
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
  if (gzip && (await endsEarly(source.consumed(), path, size))) return 'zeros';
  return kept > 0 ? 'cut' : 'whole';
}

/** The lines of a plain file between `start` and `end`, read at once into a buffer of their own (one batch). */
async function* rangeLines(path: string, start: number, end: number): AsyncGenerator<ByteLine[], LinesEnd> {
  const buf = Buffer.allocUnsafeSlow(end - start);
  let got = 0;
  const handle = await open(path, 'r').catch((err) => {
    throw streamError(path, err, 0, false);
  });
  try {
    for (let n = -1; got < buf.length && n !== 0; got += n)
      n = (await handle.read(buf, got, buf.length - got, start + got)).bytesRead;
  } finally {
    await handle.close();
  }
  const batch: ByteLine[] = [];
  const from = split(buf, 0, got, start, batch);
  if (batch.length > 0) yield batch;
  return from < buf.length ? 'cut' : 'whole';
}

/**
 * Pushes to `batch` the complete lines of `buf[0, filled)` whose `\n` lies at or after `at`
 * (the bytes before `at` hold no `\n`); the first starts at byte `offset` of the file.
 * Returns the index just after the last `\n`.
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

/** Bytes of a file: `fill` puts the next ones at `buf[at...]` and says how many (0 at the end). */
interface Source {
  fill(buf: Buffer, at: number): Promise<number>;
  /** Compressed bytes consumed (gzip). */
  consumed(): number;
  close(): Promise<void>;
}

/** A plain file from `start`. */
function plain(path: string, start: number): Source {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  let pos = start;
  return {
    async fill(buf, at) {
      handle ??= await open(path, 'r');
      const { bytesRead } = await handle.read(buf, at, buf.length - at, pos);
      pos += bytesRead;
      return bytesRead;
    },
    consumed: () => pos,
    close: async () => handle?.close(),
  };
}

/** The gunzipped bytes of a `.gz` file. */
function gunzipped(path: string): Source {
  const gunzip = gunzipAll(createReadStream(path, { highWaterMark: READ_CHUNK }));
  const chunks = (gunzip as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let rest: Buffer | undefined;
  return {
    async fill(buf, at) {
      if (rest === undefined || rest.length === 0) {
        const step = await chunks.next();
        if (step.done) return 0;
        rest = step.value;
      }
      const n = rest.copy(buf, at);
      rest = rest.subarray(n);
      return n;
    },
    consumed: () => (gunzip as Gunzip).bytesWritten,
    close: async () => {
      gunzip.destroy();
    },
  };
}

/**
 * True when the gunzip stopped before the end of the file because only zero bytes follow
 * the last member (what a crash can leave behind on some file systems): the log is then
 * cut short. Any other unread data is an error.
 */
async function endsEarly(consumed: number, path: string, size: number): Promise<boolean> {
  if (consumed >= size) return false;
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    for (let pos = consumed; pos < size; ) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, size - pos), pos);
      if (bytesRead === 0) break;
      const bad = buf.subarray(0, bytesRead).findIndex((b) => b !== 0);
      if (bad !== -1)
        throw new LogFormatError(
          `${path} has unreadable data at byte ${pos + bad}, after the gzip members that end at byte ${consumed}`,
          {},
          BAD_HINT,
        );
      pos += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Gunzips `file` so that a cut-short last member loses no output: each chunk is inflated
 * (without flushing) and its output delivered before the next is written, and the stream
 * is ended only then, so the "unexpected end of file" of a partial member comes from the
 * final empty flush. (With `pipe`, the last chunk may be inflated with Z_FINISH, and its
 * error then drops that chunk's output: up to a whole chunk of complete lines.)
 */
function gunzipAll(file: Readable): Readable {
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  const pump = async (): Promise<void> => {
    for await (const chunk of file) await writeChunk(gunzip, chunk as Buffer);
    gunzip.end();
  };
  pump().catch((err: Error) => gunzip.destroy(err));
  gunzip.once('close', () => file.destroy());
  return gunzip;
}

function writeChunk(stream: Writable, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(chunk, (err) => (err ? reject(err) : resolve()));
  });
}

function checkNotGzip(chunk: Buffer, path: string): void {
  if (chunk.length >= 2 && chunk[0] === 0x1f && chunk[1] === 0x8b)
    throw new LogFormatError(
      `${path} is gzip-compressed but its name does not end in .gz`,
      { line: 1 },
      { hint: 'rename it to end in .ndjson.gz' },
    );
}

function tooLong(path: string, lineNo: number): LogFormatError {
  return new LogFormatError(
    `line ${lineNo} of ${path} is longer than ${MAX_LINE / 1024 / 1024} MiB, more than a log line may hold`,
    { line: lineNo },
    {
      hint: 'the log was damaged, or written by an earlier grapevine that wrote a large snapshot as one line; rerun it with this version',
    },
  );
}

/** Returns the file's size; throws a clear error when it is missing or not a file. */
async function checkFile(path: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT')
      throw new LogFormatError(
        `no such log file: ${path}`,
        {},
        { cause, hint: 'check the path; a log is the .ndjson or .ndjson.gz file a run wrote' },
      );
    throw streamError(path, cause, 0, false);
  }
  if (info.isDirectory())
    throw new LogFormatError(
      `${path} is a directory, not a log file`,
      {},
      { hint: 'pass the log file itself' },
    );
  return info.size;
}

function streamError(path: string, err: unknown, lineNo: number, gzip: boolean): LogFormatError {
  const e = err as NodeJS.ErrnoException;
  if (gzip && typeof e.code === 'string' && e.code.startsWith('Z_')) {
    if (lineNo === 0)
      return new LogFormatError(
        `${path} is not a gzip-compressed grapevine log: ${e.message}`,
        { line: 1 },
        { cause: err, hint: 'a log whose name ends in .gz must be gzip data; rename a plain log to .ndjson' },
      );
    return new LogFormatError(
      `the gzip data of ${path} is corrupt after line ${lineNo}: ${e.message}`,
      { line: lineNo + 1 },
      { cause: err, ...BAD_HINT },
    );
  }
  return new LogFormatError(
    `cannot read log file ${path}: ${e.code ?? e.message}`,
    {},
    { cause: err, hint: 'check that the file exists and is readable' },
  );
}
