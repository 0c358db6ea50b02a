import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { createGunzip, type Gunzip } from 'node:zlib';
import { LogFormatError } from '../../core/index.ts';
import { isGzipPath } from '../format/log-format.ts';

const READ_CHUNK = 1024 * 1024;
/** Longest line (in bytes) the reader accepts, and the writer writes; a longer one means the file is not a log. */
export const MAX_LINE = 256 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Streams the complete lines of a log file (gunzipped when the path ends in `.gz`) in
 * batches, one batch per chunk read, without loading the file. Each line is the UTF-8
 * text between two `\n`, without the `\n`. The generator's return value is `true` when the
 * file is cut short: it ends with a partial line (no final `\n`) or a partial gzip member.
 * Memory stays bounded by the chunk size plus the longest line.
 *
 * @throws LogFormatError when the file is missing or unreadable, is not gzip data (for
 *   `.gz`), has corrupt gzip data, or has a line that is not valid UTF-8. Its `position`
 *   holds the 1-based `line` where the problem starts.
 */
export async function* readRawLines(path: string): AsyncGenerator<string[], boolean, undefined> {
  const size = await checkFile(path);
  if (size === 0) return false;
  const gzip = isGzipPath(path);
  const stream = openStream(path, gzip);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (lineNo === 0 && pendingBytes === 0 && !gzip) checkNotGzip(chunk, path);
      const batch: string[] = [];
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        lineNo++;
        let text: string | null;
        if (pendingBytes === 0) text = decode(chunk, start, nl);
        else {
          pending.push(chunk.subarray(start, nl));
          text = decode(Buffer.concat(pending), 0, pendingBytes + nl - start);
          pending = [];
          pendingBytes = 0;
        }
        if (text === null) {
          if (batch.length > 0) yield batch;
          throw new LogFormatError(
            `line ${lineNo} of ${path} is not valid UTF-8`,
            { line: lineNo },
            BAD_HINT,
          );
        }
        batch.push(text);
        start = nl + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > MAX_LINE) throw tooLong(path, lineNo + 1);
      }
      if (batch.length > 0) yield batch;
    }
  } catch (err) {
    if (err instanceof LogFormatError) throw err;
    if (gzip && (err as NodeJS.ErrnoException).code === 'Z_BUF_ERROR') return true;
    throw streamError(path, err, lineNo, gzip);
  } finally {
    stream.destroy();
  }
  if (gzip && (await endsEarly(stream as Gunzip, path, size))) return true;
  return pendingBytes > 0;
}

/** The UTF-8 text of `buf[start, end)`, or null when those bytes are not valid UTF-8. */
function decode(buf: Buffer, start: number, end: number): string | null {
  const text = buf.toString('utf8', start, end);
  if (text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(buf.subarray(start, end))) return null;
  return text;
}

/**
 * True when the gunzip stopped before the end of the file because only zero bytes follow
 * the last member (what a crash can leave behind on some file systems): the log is then
 * cut short. Any other unread data is an error.
 */
async function endsEarly(gunzip: Gunzip, path: string, size: number): Promise<boolean> {
  const consumed = gunzip.bytesWritten;
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

const BAD_HINT = { hint: 'the log was damaged or edited; restore it from a copy or rerun' };

function openStream(path: string, gzip: boolean): Readable {
  const file = createReadStream(path, { highWaterMark: READ_CHUNK });
  return gzip ? gunzipAll(file) : file;
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
