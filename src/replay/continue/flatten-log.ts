import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LogFormatError } from '../../core/index.ts';
import { isGzipPath } from '../format/log-format.ts';
import { type LogSummary, readLog } from '../read/read-log.ts';

/** Bytes of text gathered before a write (one gzip member for a `.gz` output). */
const BATCH_CHARS = 4 * 1024 * 1024;

/**
 * Writes the whole content of a log (a delta child's past read from its parents, then its
 * own lines) to `dst` as one self-contained log: the same lines, byte for byte, as a
 * standalone fork would have written, hence the same digest. Every line is verified on
 * the way. Writes a temporary file and renames it, so `dst` may be `src` itself.
 *
 * @throws LogFormatError when `src` (or a parent) does not verify, or `dst` cannot be written.
 */
export async function flattenLog(src: string, dst: string): Promise<LogSummary & { digest: string }> {
  const tmp = `${dst}.tmp-${process.pid}`;
  const gzip = isGzipPath(dst);
  let fd: number | undefined;
  try {
    mkdirSync(dirname(dst), { recursive: true });
    fd = openSync(tmp, 'w');
    let batch = '';
    const write = () => {
      const bytes = gzip ? gzipSync(batch) : Buffer.from(batch, 'utf8');
      for (let off = 0; off < bytes.length; ) off += writeSync(fd as number, bytes, off);
      batch = '';
    };
    const lines = readLog(src);
    for (;;) {
      const step = await lines.next();
      if (step.done) {
        if (batch) write();
        closeSync(fd);
        fd = undefined;
        renameSync(tmp, dst);
        return step.value as LogSummary & { digest: string };
      }
      batch += `${step.value.raw}\n`;
      if (batch.length > BATCH_CHARS) write();
    }
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    if (err instanceof LogFormatError) throw err;
    throw new LogFormatError(
      `cannot write ${dst}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      {},
      { cause: err, hint: 'check the path, its permissions and the free disk space' },
    );
  }
}
