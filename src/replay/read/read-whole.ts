import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { LogFormatError } from '../../core/index.ts';
import {
  childHeaderLine,
  type DeltaRef,
  deltaRef,
  isDeltaHeader,
  resolveParent,
} from '../format/delta-ref.ts';
import { isGzipPath, type LogHeader, type LogLine } from '../format/log-format.ts';
import { loadParentIndex } from '../format/log-index.ts';
import { isPatchLine, PatchBases, SNAPSHOT_PATCH } from '../format/snapshot-patch.ts';
import { type ByteLine, byteLines, type LinesEnd } from './byte-lines.ts';
import { LineVerifier, type ParseRule, type VerifyMode } from './line-verifier.ts';
import { SnapshotAssembler } from './snapshot-assembler.ts';

/** The lines a `snapshot-patch` line may stand for. */
const PATCHED_TYPES = new Set(['snapshot', 'snapshot-part']);
/** Generations of delta parents read at most (a longer chain is refused, a loop at once). */
const MAX_DELTA_DEPTH = 64;

/** What a complete read of a log found. */
export interface LogSummary {
  /** The header (line 1), without `h`. */
  header: LogHeader;
  /** Seq of the last complete line (0 when the log holds only its header). */
  lastSeq: number;
  /** Simulation time of the last complete line read. */
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

/** Parses every line. */
export const parseAll: ParseRule = () => true;

/** `readLog` from the first line; `ancestors`: the delta children being read, whose parent this may be. */
export async function* readWhole(
  path: string,
  verify: VerifyMode,
  parse: ParseRule,
  ancestors: readonly string[],
): AsyncGenerator<LogLine, LogSummary, undefined> {
  const verifier = new LineVerifier(path, verify);
  const source = byteLines(path);
  const snapshots = new SnapshotAssembler(path);
  let end: LinesEnd;
  let delta: DeltaRef | undefined;
  let bases: PatchBases | undefined;
  try {
    for (;;) {
      let step: IteratorResult<ByteLine[], LinesEnd>;
      try {
        step = await source.next();
      } catch (err) {
        throw verifier.locate(err);
      }
      if (step.done) {
        end = step.value;
        break;
      }
      for (const { bytes, offset } of step.value) {
        // a snapshot patch of a delta child is verified as the line it stands for
        const line =
          bases && isPatchLine(bytes)
            ? expand(bases, bytes, offset, verifier, verify, parse)
            : verifier.acceptBytes(bytes, offset, parse);
        if (line.seq === 0 && isDeltaHeader(line.event)) {
          delta = deltaRef(line.event, path);
          const kept = new PatchBases(path, delta.base);
          bases = kept;
          const ancestry = [...ancestors, realpathSync(path)];
          yield* parentPrefix(path, line, delta, verifier, ancestry, (l) =>
            kept.offer(l.seq, l.bytes ?? l.raw),
          );
        } else {
          snapshots.accept(line);
          yield line;
        }
      }
    }
  } finally {
    await source.return('whole');
  }
  const truncated = end !== 'whole';
  if (verifier.header === null) throw noHeader(path, truncated);
  if (verifier.lastType === 'end' && bytesAfterEnd(path, end))
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

/** The line a patch line of a delta child stands for, verified as such. */
function expand(
  bases: PatchBases,
  bytes: Buffer,
  offset: number,
  verifier: LineVerifier,
  verify: VerifyMode,
  parse: ParseRule,
): LogLine {
  const patch = bases.expand(bytes.toString('utf8'), verifier.lines + 1, verify === true);
  const line = verifier.acceptBytes(patch.bytes, offset, parse, false, true);
  if (line.seq !== patch.seq || line.t !== patch.t || !PATCHED_TYPES.has(line.type))
    throw new LogFormatError(
      `${bases.path}: line ${line.line} (a ${SNAPSHOT_PATCH}) does not stand for a snapshot line with its seq and tick: the log was modified at this line`,
      { line: line.line, seq: line.seq, tick: line.t },
      { hint: 'the log was damaged or edited after it was written; restore it from a copy, or fork again' },
    );
  return line;
}

/**
 * Yields the past of a delta child from its parent (the parent's header with the child's
 * `wall`, then the parent's lines up to `ref.seq`), checks that the parent is the one the
 * child was forked from (its chain at `ref.seq` and its digest), and sets `verifier` to
 * take the child's own lines after it.
 *
 * @throws LogFormatError naming the parent when it is missing, does not read, differs, is
 *   the child itself or one of its descendants, or lies too many generations up.
 */
async function* parentPrefix(
  childPath: string,
  deltaLine: LogLine,
  ref: DeltaRef,
  verifier: LineVerifier,
  ancestry: readonly string[],
  /** Sees each line of the past before it is yielded. */
  offer: (line: LogLine) => void,
): AsyncGenerator<LogLine, void, undefined> {
  const parentPath = resolveParent(childPath, ref);
  checkAncestry(childPath, parentPath, ancestry);
  const verify = verifier.mode;
  // A parent whose verification index names the child's digest is read only up to the fork
  // point: the lines after it are not the child's, and the index vouches for them.
  const indexed = loadParentIndex(parentPath);
  const upToFork = indexed?.complete === true && indexed.digest === ref.digest;
  const lines = readWhole(parentPath, verify, parseAll, ancestry);
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
  const hashOf = (line: LogLine) => line.raw.slice(-18, -2);
  const sameAtFork =
    atFork && (verify ? atFork.chain === ref.chain : hashOf(atFork) === ref.chain.slice(0, 16));
  const sameDigest =
    upToFork || (verify ? summary!.digest === ref.digest : last && hashOf(last) === ref.digest.slice(0, 16));
  if (!sameAtFork || !sameDigest || !header)
    throw new ParentLogError(
      `the parent log ${parentPath} of ${childPath} is not the run it was forked from: ` +
        (sameAtFork
          ? `its digest is ${summary!.digest ?? `...${last ? hashOf(last) : ''}`}, the child names ${ref.digest}`
          : `its line at seq ${ref.seq} (end of tick ${ref.atTick}) does not continue into the child's chain`),
      {},
      { hint: `restore the parent with digest ${ref.digest} at ${ref.absolute}, or rerun the fork` },
    );
  verifier.continueAfter(header.event as LogHeader, ref.seq, atFork!.t, ref.chain);
}

/** An error about a delta child's parent, passed up unchanged through the generations above it. */
class ParentLogError extends LogFormatError {}

/** @throws ParentLogError when `parentPath` is one of the logs being read (a loop) or lies too far up. */
function checkAncestry(childPath: string, parentPath: string, ancestry: readonly string[]): void {
  const real = realpathSync(parentPath);
  const hint = 'a delta child names the log it was forked from; restore that parent, or rerun the fork';
  if (ancestry.includes(real))
    throw new ParentLogError(
      `${childPath} names ${parentPath} as its parent, which is ${real === ancestry.at(-1) ? 'the log itself' : 'one of its own descendants'}: its delta parents form a loop`,
      { line: 1, seq: 0 },
      { hint },
    );
  if (ancestry.length >= MAX_DELTA_DEPTH)
    throw new ParentLogError(
      `${childPath} has more than ${MAX_DELTA_DEPTH} generations of delta parents`,
      { line: 1, seq: 0 },
      { hint: `flatten a child on the way (grapevine flatten), or ${hint}` },
    );
}

function parentError(childPath: string, parentPath: string, ref: DeltaRef, err: unknown): unknown {
  if (!(err instanceof LogFormatError) || err instanceof ParentLogError) return err;
  return new ParentLogError(
    `the parent log ${parentPath} of ${childPath} does not read: ${err.message}`,
    err.position,
    {
      cause: err,
      hint: err.hint ?? `restore the parent with digest ${ref.digest}, or rerun the fork`,
    },
  );
}

/**
 * True when a log whose last complete line is `end` has bytes after it: for plain text, a
 * partial line; for gzip, zero bytes after the members, or an empty member (a member cut
 * short, the one holding the end line cut in its trailer, is a truncation instead).
 */
function bytesAfterEnd(path: string, end: LinesEnd): boolean {
  if (!isGzipPath(path)) return end === 'cut';
  return end === 'zeros' || (end === 'whole' && endsWithEmptyMember(path));
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

export function noHeader(path: string, truncated: boolean): LogFormatError {
  return new LogFormatError(
    truncated
      ? `${path} is not a grapevine log: it has no complete header line (the file is cut short)`
      : `${path} is empty: not a grapevine log`,
    { line: 1, seq: 0 },
    { hint: 'a log starts with its header line; the run may have died before writing it' },
  );
}
