import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { LogFormatError } from '../../core/index.ts';
import {
  childHeaderLine,
  type DeltaRef,
  deltaRef,
  isDeltaHeader,
  resolveParent,
} from '../format/delta-ref.ts';
import { isGzipPath, type LogHeader, type LogLine } from '../format/log-format.ts';
import { isPatchLine, PatchBases, SNAPSHOT_PATCH } from '../write/patch-sink.ts';
import { readRawLines } from './byte-lines.ts';
import { findGzipTail } from './gzip-tail.ts';
import { LineVerifier } from './line-verifier.ts';
import { loadParentIndex } from './log-index.ts';
import { SnapshotAssembler } from './snapshot-assembler.ts';

/** The lines a `snapshot-patch` line may stand for. */
const PATCHED_TYPES = new Set(['snapshot', 'snapshot-part']);

/** Options of {@link readLog}. */
export interface ReadLogOptions {
  /**
   * Check canonical bytes and the hash chain of every line (default true). With `false`
   * only JSON, line shape and seq order are checked, and the summary's digest is null.
   */
  verify?: boolean;
}

/** What a complete read of a log found. */
export interface LogSummary {
  /** The header (line 1), without `h`. */
  header: LogHeader;
  /** Seq of the last complete line (0 when the log holds only its header). */
  lastSeq: number;
  /** Simulation time of the last complete line. */
  lastTick: number;
  /** Number of complete lines, header included. */
  lines: number;
  /** Run digest: full chain value of the last complete line; null when read without verify. */
  digest: string | null;
  /** True when the file ends with a partial line or a partial gzip member (ignored). */
  truncated: boolean;
  /** True when the last complete line is an event of type `"end"`: the run finished. */
  complete: boolean;
  /** For a delta child: the parent it reads its past from (the lines above include that past). */
  delta?: DeltaRef;
}

/**
 * Streams the lines of a replay log (plain NDJSON, or gzip when the path ends in `.gz`),
 * header first, verifying each before yielding it (see `LineVerifier`). Memory stays
 * bounded whatever the file size. A partial final line or gzip member ends the read
 * quietly; the generator's return value (a {@link LogSummary}) then has `truncated: true`.
 * Stopping the iteration early (`break`) closes the file.
 *
 * @throws LogFormatError naming the first problem: missing or unreadable file, not a
 *   grapevine log, invalid JSON, a missing or repeated seq, non-canonical bytes, a broken
 *   hash chain; `error.position` holds the line, seq and tick.
 */
export async function* readLog(
  path: string,
  opts: ReadLogOptions = {},
): AsyncGenerator<LogLine, LogSummary, undefined> {
  const verifier = new LineVerifier(path, opts.verify ?? true);
  const source = readRawLines(path);
  const snapshots = new SnapshotAssembler(path);
  let truncated: boolean;
  let delta: DeltaRef | undefined;
  let bases: PatchBases | undefined;
  const verify = opts.verify ?? true;
  try {
    for (;;) {
      let step: IteratorResult<string[], boolean>;
      try {
        step = await source.next();
      } catch (err) {
        throw verifier.locate(err);
      }
      if (step.done) {
        truncated = step.value;
        break;
      }
      for (const text of step.value) {
        // a snapshot patch of a delta child is verified as the line it stands for
        const patch = bases && isPatchLine(text) ? bases.expand(text, verifier.lines + 1, verify) : undefined;
        const line = verifier.accept(patch ? patch.raw : text);
        if (patch && (line.seq !== patch.seq || line.t !== patch.t || !PATCHED_TYPES.has(line.type)))
          throw new LogFormatError(
            `${path}: line ${line.line} (a ${SNAPSHOT_PATCH}) does not stand for a snapshot line with its seq and tick: the log was modified at this line`,
            { line: line.line, seq: line.seq, tick: line.t },
            {
              hint: 'the log was damaged or edited after it was written; restore it from a copy, or fork again',
            },
          );
        if (line.seq === 0 && isDeltaHeader(line.event)) {
          delta = deltaRef(line.event, path);
          const kept = new PatchBases(path, delta.base);
          bases = kept;
          yield* readParentPrefix(path, line, delta, verifier, verify, (l) => kept.offer(l.seq, l.raw));
        } else {
          snapshots.accept(line);
          yield line;
        }
      }
    }
  } finally {
    await source.return(false);
  }
  if (verifier.header === null) throw noHeader(path, truncated);
  if (verifier.lastType === 'end' && bytesAfterEnd(path, truncated))
    throw new LogFormatError(
      `${path} has bytes after its end line (line ${verifier.lines}, seq ${verifier.lastSeq}): a finished log has nothing after its end`,
      { line: verifier.lines + 1, seq: verifier.lastSeq + 1 },
      { hint: 'the log was damaged or edited after it was written; restore it from a copy or rerun' },
    );
  return {
    header: verifier.header,
    lastSeq: verifier.lastSeq,
    lastTick: verifier.lastTick,
    lines: verifier.lines,
    digest: verifier.chain,
    truncated,
    complete: verifier.lastType === 'end',
    ...(delta ? { delta } : {}),
  };
}

/**
 * Yields the past of a delta child from its parent (the parent's header with the child's
 * `wall`, then the parent's lines up to `ref.seq`), checks that the parent is the one the
 * child was forked from (its chain at `ref.seq` and its digest), and sets `verifier` to
 * take the child's own lines after it.
 *
 * @throws LogFormatError naming the parent when it is missing, does not read, or differs.
 */
async function* readParentPrefix(
  childPath: string,
  deltaLine: LogLine,
  ref: DeltaRef,
  verifier: LineVerifier,
  verify: boolean,
  /** Sees each line of the past before it is yielded. */
  offer: (line: LogLine) => void,
): AsyncGenerator<LogLine, void, undefined> {
  const parentPath = resolveParent(childPath, ref);
  // A parent whose verification index (trusted while the file is unchanged) names the
  // child's digest is read only up to the fork point: the lines after it are not the child's.
  const indexed = loadParentIndex(parentPath);
  const upToFork = indexed?.complete === true && indexed.digest === ref.digest;
  const lines = readLog(parentPath, { verify });
  let atFork: LogLine | undefined;
  let header: LogLine | undefined;
  let last: LogLine | undefined;
  let summary: LogSummary | undefined;
  try {
    for (;;) {
      let step: IteratorResult<LogLine, LogSummary>;
      try {
        step = await lines.next();
      } catch (err) {
        throw parentError(childPath, parentPath, ref, err);
      }
      if (step.done) {
        summary = step.value;
        break;
      }
      last = step.value;
      if (last.seq > ref.seq) continue;
      if (last.seq === 0) header = childHeaderLine(last, deltaLine.event);
      if (last.seq === ref.seq) atFork = last;
      offer(last);
      yield last.seq === 0 ? (header as LogLine) : last;
      if (upToFork && atFork) break;
    }
  } finally {
    // a reader that stops early (readHeader) closes the parent's file too
    await lines.return(undefined as unknown as LogSummary);
  }
  const sameAtFork =
    atFork && (verify ? atFork.chain === ref.chain : hashOf(atFork) === ref.chain.slice(0, 16));
  const sameDigest = upToFork
    ? true
    : verify
      ? summary!.digest === ref.digest
      : last && hashOf(last) === ref.digest.slice(0, 16);
  if (!sameAtFork || !sameDigest || !header)
    throw new LogFormatError(
      `the parent log ${parentPath} of ${childPath} is not the run it was forked from: ` +
        (sameAtFork
          ? `its digest is ${summary!.digest ?? `...${last ? hashOf(last) : ''}`}, the child names ${ref.digest}`
          : `its line at seq ${ref.seq} (end of tick ${ref.atTick}) does not continue into the child's chain`),
      {},
      { hint: `restore the parent with digest ${ref.digest} at ${ref.absolute}, or rerun the fork` },
    );
  verifier.continueAfter(header.event as LogHeader, ref.seq, atFork!.t, ref.chain);
}

function hashOf(line: LogLine): string {
  return line.raw.slice(-18, -2);
}

function parentError(childPath: string, parentPath: string, ref: DeltaRef, err: unknown): unknown {
  if (!(err instanceof LogFormatError)) return err;
  return new LogFormatError(
    `the parent log ${parentPath} of ${childPath} does not read: ${err.message}`,
    err.position,
    { cause: err, hint: err.hint ?? `restore the parent with digest ${ref.digest}, or rerun the fork` },
  );
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
 * Reads and verifies only the header (line 1) of a log.
 *
 * @throws LogFormatError when the file is missing or does not start with a valid header.
 */
export async function readHeader(path: string): Promise<LogHeader> {
  for await (const line of readLog(path)) return line.event as LogHeader;
  throw noHeader(path, false);
}

/**
 * True when a log whose last complete line is `end` has bytes after it. For plain text, a
 * partial line. For gzip, NUL bytes after the members, or an empty member; a cut-short
 * last member (the one holding the end line, cut in its trailer) is a truncation instead.
 */
function bytesAfterEnd(path: string, truncated: boolean): boolean {
  if (!isGzipPath(path)) return truncated;
  if (!truncated) return endsWithEmptyMember(path);
  const { tail } = findGzipTail(path);
  return tail.length === 0 || tail.every((b) => b === 0);
}

/**
 * True when the last gzip member of the file holds no data (its trailer says CRC 0, size
 * 0). The writer never writes an empty member, so one after the end line was appended.
 */
function endsWithEmptyMember(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size < 28) return false;
    const trailer = Buffer.alloc(8);
    readSync(fd, trailer, 0, 8, size - 8);
    return trailer.readUInt32LE(0) === 0 && trailer.readUInt32LE(4) === 0;
  } finally {
    closeSync(fd);
  }
}

function noHeader(path: string, truncated: boolean): LogFormatError {
  return new LogFormatError(
    truncated
      ? `${path} is not a grapevine log: it has no complete header line (the file is cut short)`
      : `${path} is empty: not a grapevine log`,
    { line: 1, seq: 0 },
    { hint: 'a log starts with its header line; the run may have died before writing it' },
  );
}
