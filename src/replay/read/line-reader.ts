import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { LogFormatError } from '../../core/index.ts';
import { type DeltaRef, deltaRef, isDeltaHeader } from '../format/delta-ref.ts';
import { DAMAGED, isGzipPath, type LogHeader, type LogLine, logError } from '../format/log-format.ts';
import { isPatchLine, PatchBases } from '../format/snapshot-patch.ts';
import { type ByteLine, byteLines, type LinesEnd } from './byte-lines.ts';
import { expand, parentPrefix } from './delta-past.ts';
import { LineVerifier, type ParseRule, type VerifyMode } from './line-verifier.ts';
import { SnapshotAssembler } from './snapshot-assembler.ts';

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

/** The stretch of a finished plain log that its index says a continuation needs (see `readIndexed`). */
export interface IndexedRange {
  /** The verified header line, yielded first. */
  header: LogLine;
  /** The tick line the read starts at, the chain value before it, and the snapshot after it (0: none). */
  start: { seq: number; offset: number; prev: string; snapshot: number };
  /** The tick line the read stops before, and the chain value before it; absent: to the end. */
  stop?: { seq: number; offset: number; prev: string };
  /** The log's digest and number of lines, as its index has them. */
  digest: string;
  lines: number;
}

/** A log's verification index no longer describes the file (changed under an unchanged size, mtime and inode). */
export class StaleIndex extends LogFormatError {}

/** Parses every line. */
export const parseAll: ParseRule = () => true;

/**
 * The lines of a log (see `readLog`): the whole file, or the stretch `range` of an index
 * names; `ancestors`: the delta children being read, whose parent this may be.
 */
export async function* readLines(
  path: string,
  verify: VerifyMode,
  parse: ParseRule,
  ancestors: readonly string[],
  range?: IndexedRange,
): AsyncGenerator<LogLine, LogSummary, undefined> {
  const verifier = new LineVerifier(path, verify);
  const snapshots = new SnapshotAssembler(path);
  if (range) {
    verifier.continueAfter(range.header.event as LogHeader, range.start.seq - 1, 0, range.start.prev);
    verifier.lines = range.start.seq;
    yield range.header;
  }
  const source = byteLines(path, range ? { start: range.start.offset, end: range.stop?.offset } : {});
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
        const restored = verifier.lastSeq + 1 === range?.start.snapshot;
        // a snapshot patch of a delta child is verified as the line it stands for
        const patch = bases && isPatchLine(bytes);
        const line = patch
          ? expand(bases as PatchBases, bytes, offset, verifier, parse)
          : verifier.acceptBytes(bytes, offset, parse, restored, range?.stop !== undefined);
        if (range) checkIndexed(path, range, line);
        if (line.seq === 0 && isDeltaHeader(line.event)) {
          delta = deltaRef(line.event, path);
          bases = new PatchBases(path, delta.base);
          const ancestry = [...ancestors, realpathSync(path)];
          yield* parentPrefix(readLines, path, line, delta, verifier, ancestry, bases);
        } else {
          snapshots.accept(line);
          yield line;
        }
      }
    }
  } finally {
    await source.return('whole');
  }
  return range ? indexedEnd(path, range, verifier, end) : summaryOf(path, verifier, end, delta);
}

/** The summary of a whole read. @throws LogFormatError when the log has no header or bytes after its end. */
function summaryOf(path: string, v: LineVerifier, end: LinesEnd, delta?: DeltaRef): LogSummary {
  const truncated = end !== 'whole';
  const why = truncated ? 'it has no complete header line (the file is cut short)' : 'it is empty';
  const hint = 'a log starts with its header line; the run may have died before writing it';
  if (v.header === null) throw logError(`${path} is not a grapevine log: ${why}`, { line: 1, seq: 0 }, hint);
  const after = `${path} has bytes after its end line (line ${v.lines}, seq ${v.lastSeq})`;
  const at = { line: v.lines + 1, seq: v.lastSeq + 1 };
  if (v.lastType === 'end' && bytesAfterEnd(path, end))
    throw logError(`${after}: a finished log has nothing after its end`, at);
  const { header, lastSeq, lastTick, lines, chain: digest } = v;
  const complete = v.lastType === 'end';
  return { header, lastSeq, lastTick, lines, digest, truncated, complete, ...(delta && { delta }) };
}

/** @throws StaleIndex when the first line read is not the tick line the index names, or its restore point not a snapshot. */
function checkIndexed(path: string, range: IndexedRange, line: LogLine): void {
  const { seq, snapshot } = range.start;
  const want = line.seq === snapshot ? 'snapshot' : line.seq === seq && seq > 1 ? 'tick' : null;
  if (want !== null && line.type !== want) throw stale(path, seq, `seq ${line.seq} is not a ${want} line`);
}

/** The summary of an indexed read. @throws StaleIndex when the lines read do not end in the chain value the index holds there. */
function indexedEnd(path: string, range: IndexedRange, verifier: LineVerifier, end: LinesEnd): LogSummary {
  const { stop, digest, lines } = range;
  const ends = stop
    ? verifier.lastSeq + 1 === stop.seq && verifier.chain === stop.prev
    : verifier.lastType === 'end' && verifier.chain === digest && verifier.lines === lines;
  const where = stop ? `the chain value it had at seq ${stop.seq}` : `its digest ${digest}`;
  if (end !== 'whole' || !ends) throw stale(path, range.start.seq, `they do not end in ${where}`);
  const header = range.header.event as LogHeader;
  const { lastTick } = verifier;
  return { header, lastSeq: lines - 1, lastTick, lines, digest, truncated: false, complete: true };
}

function stale(path: string, seq: number, why: string): StaleIndex {
  const message = `${path} changed since it was verified: its lines from seq ${seq} on do not match its index (${why})`;
  return new StaleIndex(message, { seq }, { hint: DAMAGED });
}

/**
 * True when a log whose last complete line is `end` has bytes after it: a partial line; for gzip,
 * what a crash cannot leave after an end line (see `LinesEnd`), or an empty member (never
 * written). A member cut short (the end line's, in its trailer) is a truncation instead.
 */
function bytesAfterEnd(path: string, end: LinesEnd): boolean {
  if (!isGzipPath(path)) return end === 'cut';
  if (end !== 'whole') return end === 'after';
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const trailer = Buffer.alloc(8);
    // the last member's trailer: CRC 0 and size 0
    const read = size >= 28 && readSync(fd, trailer, 0, 8, size - 8) === 8;
    return read && trailer.readUInt32LE(0) === 0 && trailer.readUInt32LE(4) === 0;
  } finally {
    closeSync(fd);
  }
}
