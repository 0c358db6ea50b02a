import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LogFormatError } from '../../core/index.ts';
import { isGzipPath } from '../format/log-format.ts';
import { ioError } from './write-errors.ts';

/** Text gathered before a write (one gzip member for a `.gz` file). */
const BATCH_CHARS = 4 * 1024 * 1024;

/**
 * Writes `lines` (each without its `\n`) as the whole file `dst` (gzip for `.gz`) through a
 * file renamed into place: `dst` may be the lines' source, and a failure leaves it as it was.
 * @throws LogFormatError of the lines' source as it is, or when `dst` cannot be written.
 */
export async function writeLogFile(
  dst: string,
  lines: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  const tmp = `${dst}.tmp-${process.pid}`;
  let fd: number | undefined;
  let batch = '';
  const write = (): void => {
    const bytes = isGzipPath(dst) ? gzipSync(batch) : Buffer.from(batch, 'utf8');
    for (let off = 0; off < bytes.length; ) off += writeSync(fd as number, bytes, off);
    batch = '';
  };
  try {
    mkdirSync(dirname(dst), { recursive: true });
    fd = openSync(tmp, 'w');
    for await (const line of lines) {
      batch += `${line}\n`;
      if (batch.length > BATCH_CHARS) write();
    }
    if (batch) write();
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, dst);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw err instanceof LogFormatError ? err : ioError(`cannot write ${dst}`, err, 'run the command again');
  }
}
