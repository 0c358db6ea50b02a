import { LogFormatError } from '../../core/index.ts';
import { isDeltaHeader } from '../format/delta-ref.ts';
import { isGzipPath, type LogHeader, type LogLine } from '../format/log-format.ts';
import { IndexRecorder, loadParentIndex, type ParentIndex, saveParentIndex } from '../format/log-index.ts';
import { byteLines } from './byte-lines.ts';
import { type IndexedRange, type LogSummary, parseAll, readLines } from './line-reader.ts';
import { LineVerifier, type ParseRule, type VerifyMode } from './line-verifier.ts';

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
   * With `verify: 'chain'`, read for a continuation after tick `from` (and up to tick `to`): a
   * finished plain log is read, after its header, only over the stretch its verification index
   * names (docs/LOG-FORMAT.md, "Verification index beside a parent"). Other logs are read whole.
   */
  from?: number;
  to?: number;
}

/**
 * The one reader of replay logs: streams the lines of a log (plain NDJSON, or gzip when the
 * path ends in `.gz`), header first, checking each before yielding it (see `LineVerifier`):
 * the stretch an index names (`from`), a delta child's past from its parents, a split
 * snapshot's parts put back together. Memory stays bounded whatever the file size. A partial
 * final line or gzip member ends the read quietly; the generator's return value (a
 * {@link LogSummary}) then has `truncated: true`. Stopping early (`break`) closes the file.
 *
 * @throws LogFormatError naming the first problem (docs/LOG-FORMAT.md, "Verification"; a delta
 *   parent missing, different or looping), at `error.position`; `StaleIndex` when an index no
 *   longer describes the file.
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

/** The stretch of a finished plain log a continuation after tick `from` needs, from its index (built when missing); undefined for a delta child or an unfinished log. */
async function readIndexed(
  path: string,
  from: number,
  to: number | undefined,
): Promise<IndexedRange | undefined> {
  const header = await firstLine(path);
  if (header === undefined || isDeltaHeader(header.event)) return undefined;
  let index = loadParentIndex(path);
  if (index === undefined) {
    index = await buildIndex(path);
    if (index === undefined) return undefined;
    saveParentIndex(path, index);
  }
  if (!index.complete) return undefined;
  const s = index.snapshots.findLast((x) => x.tick < from || (x.tick === from && !x.final));
  const start = s
    ? { seq: s.before.seq ?? s.seq - 1, offset: s.before.offset, prev: s.before.prev, snapshot: s.seq }
    : { seq: 1, offset: index.headerBytes + 1, prev: index.headerChain, snapshot: 0 };
  // an index written before it named each snapshot's tick line has no `before.seq`: read to the end
  const next = to === undefined ? undefined : index.snapshots.find((x) => x.tick > to && !x.final);
  const stop = next?.before.seq === undefined ? undefined : { ...next.before, seq: next.before.seq };
  return { header, start, ...(stop ? { stop } : {}), digest: index.digest, lines: index.lines };
}

/** The verified header line of a log file, or undefined when it has none. */
async function firstLine(path: string): Promise<LogLine | undefined> {
  const source = byteLines(path);
  try {
    const step = await source.next();
    return step.done ? undefined : new LineVerifier(path, true).acceptBytes(step.value[0].bytes, 0, parseAll);
  } finally {
    await source.return('whole');
  }
}

/** The index of a whole plain log, read with its chain checked over its lines' bytes; undefined when the log did not end. @throws LogFormatError as {@link readLog}. */
export async function buildIndex(path: string): Promise<ParentIndex | undefined> {
  const lines = readLines(path, 'chain', () => false, []);
  let index: IndexRecorder | undefined;
  let prev = '';
  for (let step = await lines.next(); ; step = await lines.next()) {
    if (step.done) return index?.finish(path, step.value.digest as string);
    const { seq, type, t, offset, chain, raw } = step.value;
    if (seq === 0) index = new IndexRecorder(Buffer.byteLength(raw), chain as string);
    else index?.line(type, seq, t, offset as number, prev);
    index?.resolve((pos) => pos);
    prev = chain as string;
  }
}
