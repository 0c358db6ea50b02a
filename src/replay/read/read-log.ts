import { isGzipPath, type LogHeader, type LogLine } from '../format/log-format.ts';
import { readIndexed } from './indexed-read.ts';
import type { ParseRule, VerifyMode } from './line-verifier.ts';
import { type LogSummary, noHeader, parseAll, readWhole } from './read-whole.ts';

export type { LogSummary };

/** Options of {@link readLog}. */
export interface ReadLogOptions {
  /**
   * How each line is checked. `true` (default): its canonical bytes and the hash chain; the
   * summary's digest is the run digest. `'chain'`: the hash chain over each line's bytes as
   * they are, without re-encoding (for a reader that reruns or continues the run, which
   * proves the bytes it needs again). `false`: only JSON, line shape and seq order; the
   * summary's digest is null.
   */
  verify?: VerifyMode;
  /**
   * With `verify: 'chain'`, which `snapshot` and `snapshot-part` lines are parsed (default:
   * all); the others come with an empty `event` and `raw`.
   */
  parse?: ParseRule;
  /**
   * With `verify: 'chain'`, read for a continuation after tick `from` (a fork's earliest tick):
   * a finished plain log is read from the snapshot such a continuation restores, using its
   * verification index `<log>.verified` (built by one scan of the file when missing or
   * stale, then trusted while the file's size, mtime and inode are unchanged). The header
   * comes first, then the lines from that point; the lines skipped are vouched for by the
   * index. Other logs are read whole.
   */
  from?: number;
  /**
   * With `from`: nothing after the end of tick `to` is needed, so the read may stop at the
   * tick line of the first periodic snapshot after it (the summary then gives the log's
   * digest and size from the index).
   */
  to?: number;
}

/**
 * The one reader of replay logs: streams the lines of a log (plain NDJSON, or gzip when the
 * path ends in `.gz`), header first, checking each before yielding it (see `LineVerifier`).
 * It picks its own way through the file: the whole file as bytes in a reused buffer, the
 * range an index names (`from`), a delta child's past from its parents (whose patch lines it
 * expands), and a split snapshot's parts put back together (see `SnapshotAssembler`).
 * Memory stays bounded whatever the file size. A partial final line or gzip member ends the
 * read quietly; the generator's return value (a {@link LogSummary}) then has
 * `truncated: true`. Stopping the iteration early (`break`) closes the file.
 *
 * @throws LogFormatError naming the first problem: missing or unreadable file, not a
 *   grapevine log, invalid JSON, a missing or repeated seq, non-canonical bytes, a broken
 *   hash chain, a delta parent that is missing, differs or loops; `error.position` holds the
 *   line, seq and tick. `StaleIndex` when an index no longer describes the file.
 */
export async function* readLog(
  path: string,
  opts: ReadLogOptions = {},
): AsyncGenerator<LogLine, LogSummary, undefined> {
  if (opts.from !== undefined && opts.verify === 'chain' && !isGzipPath(path)) {
    const indexed = await readIndexed(path, opts.from, opts.to, opts.parse ?? parseAll);
    if (indexed !== undefined) return yield* indexed;
  }
  return yield* readWhole(path, opts.verify ?? true, opts.parse ?? parseAll, []);
}

/**
 * Reads and verifies a whole log and returns its summary (the digest is always set).
 *
 * @throws LogFormatError as {@link readLog}.
 */
export async function scanLog(path: string): Promise<LogSummary & { digest: string }> {
  const lines = readLog(path);
  for (;;) {
    const step = await lines.next();
    if (step.done) return step.value as LogSummary & { digest: string };
  }
}

/**
 * Reads and verifies only the header (line 1) of a log (for a delta child: its parent's,
 * with the child's `wall`).
 *
 * @throws LogFormatError when the file is missing or does not start with a valid header.
 */
export async function readHeader(path: string): Promise<LogHeader> {
  for await (const line of readLog(path)) return line.event as LogHeader;
  throw noHeader(path, false);
}
