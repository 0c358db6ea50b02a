import { LogFormatError } from '../../core/index.ts';
import { isGzipPath, type LogHeader, type LogLine } from '../format/log-format.ts';
import { readIndexed } from './indexed-read.ts';
import { type LogSummary, parseAll, readLines } from './line-reader.ts';
import type { ParseRule, VerifyMode } from './line-verifier.ts';

export type { LogSummary };

/** Options of {@link readLog}. */
export interface ReadLogOptions {
  /**
   * How each line is checked. `true` (default): its canonical bytes and the hash chain; the
   * summary's digest is the run digest. `'chain'`: the hash chain over each line's bytes as
   * they are, without encoding it again (for a reader that reruns or continues the run, which
   * proves the bytes it needs). `false`: only JSON, line shape and seq order; no digest.
   */
  verify?: VerifyMode;
  /** With `verify: 'chain'`, which `snapshot` and `snapshot-part` lines are parsed (default: all); the others come with an empty `event` and `raw`. */
  parse?: ParseRule;
  /**
   * With `verify: 'chain'`, read for a continuation after tick `from`: a finished plain log is
   * read from the snapshot such a continuation restores, using its verification index
   * `<log>.verified` (built by one scan of the file when missing, then trusted while the file's
   * size, mtime and inode are unchanged): its header comes first, then the lines from there;
   * the lines skipped are vouched for by the index. Other logs are read whole.
   */
  from?: number;
  /** With `from`: nothing after the end of tick `to` is needed; the read may stop at the tick line of the first periodic snapshot after it. */
  to?: number;
}

/**
 * The one reader of replay logs: streams the lines of a log (plain NDJSON, or gzip when the
 * path ends in `.gz`), header first, checking each before yielding it (see `LineVerifier`).
 * It picks its own way through the file: the whole file as bytes in a reused buffer, the
 * stretch an index names (`from`), a delta child's past from its parents (whose patch lines
 * it expands), and a split snapshot's parts put back together. Memory stays bounded whatever
 * the file size. A partial final line or gzip member ends the read quietly; the generator's
 * return value (a {@link LogSummary}) then has `truncated: true`. Stopping the iteration early
 * (`break`) closes the file.
 *
 * @throws LogFormatError naming the first problem: missing or unreadable file, not a grapevine
 *   log, invalid JSON, a missing or repeated seq, non-canonical bytes, a broken hash chain, a
 *   delta parent that is missing, differs or loops; `error.position` holds the line, seq and
 *   tick. `StaleIndex` when an index no longer describes the file.
 */
export async function* readLog(
  path: string,
  opts: ReadLogOptions = {},
): AsyncGenerator<LogLine, LogSummary, undefined> {
  const { verify = true, parse = parseAll, from } = opts;
  const range =
    from !== undefined && verify === 'chain' && !isGzipPath(path)
      ? await readIndexed(path, from, opts.to)
      : undefined;
  return yield* readLines(path, verify, parse, [], range);
}

/** Reads and verifies a whole log and returns its summary (the digest is always set). @throws LogFormatError as {@link readLog}. */
export async function scanLog(path: string): Promise<LogSummary & { digest: string }> {
  const lines = readLog(path);
  for (;;) {
    const step = await lines.next();
    if (step.done) return step.value as LogSummary & { digest: string };
  }
}

/** Reads and verifies only the header of a log (of a delta child: its parent's, with the child's `wall`). @throws LogFormatError as {@link readLog}. */
export async function readHeader(path: string): Promise<LogHeader> {
  for await (const line of readLog(path)) return line.event as LogHeader;
  throw new LogFormatError(`${path} has no header`);
}
