import {
  appendFileSync,
  closeSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { LogFormatError } from '../../core/index.ts';
import { isGzipPath } from '../format/log-format.ts';
import { findGzipTail } from '../read/gzip-tail.ts';
import { type LogSummary, scanLog } from '../read/read-log.ts';

/** A log made ready for appending. */
export interface ResumePoint {
  /** Summary of the verified log: the writer continues after `lastSeq`, from `digest`. */
  summary: LogSummary & { digest: string };
  /** Size of the file now, after any repair. */
  size: number;
}

/**
 * Verifies the log at `path` and repairs a cut-short end so that appending can continue
 * the chain: a plain log is cut back to the end of its last complete line; a gzip log is
 * cut back to the end of its last complete member, and the complete lines the reader
 * recovered from the partial member are written again as one new member. Afterwards the
 * file holds exactly the lines of `summary`, and nothing else.
 *
 * @throws LogFormatError when the log does not verify or cannot be repaired.
 */
export async function prepareResume(path: string): Promise<ResumePoint> {
  const summary = await scanLog(path);
  let size: number;
  try {
    if (!summary.truncated) size = statSync(path).size;
    else if (isGzipPath(path)) size = repairGzip(path, summary);
    else size = cutPartialLine(path);
  } catch (cause) {
    if (cause instanceof LogFormatError) throw cause;
    throw new LogFormatError(
      `cannot repair the end of ${path} for resuming: ${(cause as Error).message}`,
      {},
      { cause, hint: 'check that the file is writable' },
    );
  }
  return { summary, size };
}

/** Cuts a plain log after its last `\n`; returns the new size. */
function cutPartialLine(path: string): number {
  const fd = openSync(path, 'r+');
  try {
    let end = fstatSync(fd).size;
    const chunk = Buffer.alloc(64 * 1024);
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const n = readSync(fd, chunk, 0, end - start, start);
      const nl = chunk.subarray(0, n).lastIndexOf(0x0a);
      if (nl !== -1) {
        ftruncateSync(fd, start + nl + 1);
        return start + nl + 1;
      }
      end = start;
    }
    throw new LogFormatError(`${path} has no complete line to resume from`, { line: 1 });
  } finally {
    closeSync(fd);
  }
}

/**
 * Cuts a gzip log after its last complete member and re-appends, as one member, the
 * complete lines of the partial member that the reader verified. Returns the new size.
 */
function repairGzip(path: string, summary: LogSummary): number {
  const { end, tail, lines } = findGzipTail(path);
  const salvaged = salvageLines(tail, summary.lastSeq);
  if (lines + salvaged.length !== summary.lines)
    throw new LogFormatError(
      `cannot resume ${path}: its complete gzip members hold ${lines} lines and its partial last ` +
        `member ${salvaged.length} more, but the reader verified ${summary.lines}`,
      { seq: summary.lastSeq },
      { hint: 'copy the readable part with `zcat` into a new file, or rerun' },
    );
  truncateSync(path, end);
  if (salvaged.length === 0) return end;
  const member = gzipSync(`${salvaged.join('\n')}\n`);
  appendFileSync(path, member);
  return end + member.length;
}

/** The complete lines in a partial gzip member, up to seq `lastSeq`. */
function salvageLines(tail: Buffer, lastSeq: number): string[] {
  if (tail.length === 0) return [];
  let text: string;
  try {
    text = gunzipSync(tail, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n');
  lines.pop();
  const kept: string[] = [];
  for (const line of lines) {
    let seq: unknown;
    try {
      seq = (JSON.parse(line) as { seq?: unknown }).seq;
    } catch {
      break;
    }
    if (typeof seq !== 'number' || seq > lastSeq) break;
    kept.push(line);
  }
  return kept;
}
