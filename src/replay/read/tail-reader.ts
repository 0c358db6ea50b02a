// Reading a plain log line by line over raw bytes, each line's `h` checked over them, parsing
// only the lines a reader needs: the fork's read of its parent from an indexed snapshot
// (read-fork-parent.ts) and the read before a rerun from the header.
import { LogFormatError } from '../../core/index.ts';
import { isDeltaHeader } from '../format/delta-ref.ts';
import { isGzipPath, type LogHeader, type LogLine } from '../format/log-format.ts';
import { SNAPSHOT_PART } from '../format/snapshot-split.ts';
import { LineVerifier } from './line-verifier.ts';
import {
  type RawLine,
  rawBodyEnd,
  rawEventChain,
  rawLineHash,
  rawLineKind,
  readRawLineBytes,
  scanRawLineBytes,
} from './raw-line.ts';
import { type RecordedRun, RecordedRunBuilder } from './recorded-run.ts';
import { SnapshotAssembler } from './snapshot-assembler.ts';
import { parseSnapshotLine } from './snapshot-line.ts';

/** The fast read does not apply to this log (its index does not describe it); read it the full way. */
export class NotIndexable extends Error {}

/**
 * Reads a whole plain log for a rerun from its header (`replay --verify`, with no snapshot to
 * restore): as `readRecordedRun`, except that snapshot lines and their parts are chained over
 * their raw bytes and not parsed or re-encoded. A rerun keeps no snapshot and writes each one
 * again, and its chain value there must equal the recorded one, so the rerun proves those
 * bytes (canonical JSON included); in an LLM world the final snapshot is most of the log.
 * Undefined when this read does not apply or finds anything wrong (a gzip log, a delta child,
 * a damaged or unfinished line, bytes after the end): the full read then reads the log and
 * reports what is wrong in its own words.
 */
export async function readForRerun(path: string): Promise<RecordedRun | undefined> {
  if (isGzipPath(path)) return undefined;
  try {
    const header = await readHeaderLine(path);
    if (header === undefined || header.chain === undefined || isDeltaHeader(header.event)) return undefined;
    const offset = Buffer.byteLength(header.raw) + 1;
    const start = { seq: 1, offset, prev: header.chain, snapshot: 0 };
    // a split snapshot's own line is small and says how it was split: it is parsed
    const tail = new TailReader(path, header, start, -1, [], SMALL_SNAPSHOT_LINE, true);
    const source = scanRawLineBytes(path, offset);
    try {
      for (;;) {
        const step = await source.next();
        if (step.done) {
          if (step.value) return undefined;
          break;
        }
        for (const line of step.value) tail.take(line);
      }
    } finally {
      // a line that stops the read leaves the file open otherwise
      await source.return(false);
    }
    return tail.builder.finish({ digest: tail.chain, complete: tail.lastType === 'end', truncated: false });
  } catch {
    // whatever is wrong (a missing file, a damaged line, bytes after the end), the full read says it
    return undefined;
  }
}

/** Snapshot lines shorter than this are parsed by {@link readForRerun} (a split snapshot's line is). */
const SMALL_SNAPSHOT_LINE = 1 << 16;

/** The verified header line of a plain log, or undefined when it has none. */
export async function readHeaderLine(path: string): Promise<LogLine | undefined> {
  const source = readRawLineBytes(path);
  try {
    const step = await source.next();
    if (step.done) return undefined;
    return new LineVerifier(path, true).accept(step.value[0].bytes.toString('utf8'));
  } finally {
    await source.return(false);
  }
}

/** Where a read for forks after `ticks` starts. */
export interface Start {
  /** Seq and offset of the first line read, and the chain value before it. */
  seq: number;
  offset: number;
  prev: string;
  /** Seq of the snapshot restored (0: none, the run restarts from its header). */
  snapshot: number;
}

/** Reads the lines of a log from an indexed snapshot on, checking each line's `h` over its bytes. */
export class TailReader {
  readonly builder: RecordedRunBuilder;
  chain: string;
  seq: number;
  lastType = '';
  /** True right after a `snapshot-part` line taken unparsed. */
  private skippedParts = false;
  private readonly verifier: LineVerifier;
  private readonly assembler: SnapshotAssembler;

  constructor(
    private readonly path: string,
    private readonly header: LogLine,
    private readonly start: Start,
    private readonly lastFork: number,
    ticks: readonly number[],
    /** Snapshot lines (not parts) shorter than this many bytes are parsed even when unused. */
    private readonly parseBelow = 0,
    /** The lines' bytes are reused after `take` (see scanRawLineBytes): the bytes kept are copied. */
    private readonly copyKept = false,
  ) {
    this.builder = new RecordedRunBuilder(ticks);
    this.builder.add(header);
    this.builder.skipTo(start.seq);
    this.chain = start.prev;
    this.seq = start.seq;
    this.verifier = new LineVerifier(path, true);
    this.assembler = new SnapshotAssembler(path);
  }

  take(line: RawLine): void {
    const seq = this.seq;
    if (this.lastType === 'end') throw new NotIndexable();
    const found = rawLineHash(line.bytes);
    // a line whose `wall` is not its last member before `h` is parsed and checked in full
    const bodyEnd = found === null ? null : rawBodyEnd(line.bytes);
    const hash = bodyEnd === null ? null : found;
    const kind = hash === null ? null : rawLineKind(line.bytes);
    const unused =
      (kind?.type === 'snapshot' || kind?.type === SNAPSHOT_PART) &&
      kind.t > this.lastFork &&
      seq !== this.start.snapshot &&
      (kind.type === SNAPSHOT_PART || line.bytes.length >= this.parseBelow);
    if (hash !== null && kind !== null && unused) {
      // a snapshot (or a part of one) after the last fork tick: chained, not parsed
      this.chain = this.checkRaw(line, hash, seq, bodyEnd as number);
      if (kind.type === SNAPSHOT_PART) this.builder.addUnparsedPart(kind.t, hash);
      else this.builder.addUnparsedSnapshot(seq, kind.t, hash, this.chain);
      this.skippedParts = kind.type === SNAPSHOT_PART;
      this.lastType = kind.type;
    } else {
      const parsed =
        hash === null
          ? this.acceptParsed(line, seq)
          : this.acceptRaw(
              line,
              hash,
              seq,
              bodyEnd as number,
              kind?.type === 'snapshot' && seq === this.start.snapshot,
            );
      const want =
        seq === this.start.snapshot ? 'snapshot' : seq === this.start.seq && seq > 1 ? 'tick' : null;
      if (want !== null && parsed.type !== want) throw new NotIndexable();
      // a split snapshot's parts are put back together as the full reader does (its state is
      // built when kept), unless they were not parsed (then nothing keeps its state)
      if (!(this.skippedParts && parsed.type === 'snapshot')) this.assembler.accept(parsed);
      this.skippedParts = false;
      const kept = parsed.type === 'snapshot' || parsed.type === SNAPSHOT_PART;
      this.builder.add(
        parsed,
        hash ?? undefined,
        kept && this.copyKept ? Buffer.from(line.bytes) : line.bytes,
      );
      this.chain = parsed.chain as string;
      this.lastType = parsed.type;
    }
    this.seq = seq + 1;
  }

  private checkRaw(line: RawLine, hash: string, seq: number, bodyEnd: number): string {
    const chain = rawEventChain(line.bytes, this.chain, bodyEnd);
    if (chain.slice(0, 16) !== hash)
      throw new LogFormatError(
        `${this.path}: line ${seq + 1} (seq ${seq}) does not match the hash chain: the log was modified at or before this line`,
        { line: seq + 1, seq },
        { hint: 'the log was damaged or edited after it was written; restore it from a copy or rerun' },
      );
    return chain;
  }

  /**
   * A line without `wall`, or with `wall` as its last member: its chain from its bytes, then
   * parsed (not re-encoded; a rerun writes the line again and proves its body). The
   * snapshot restored (`restored`) is parsed from its bytes with its columns decoded (see
   * parseSnapshotLine); its text is made only if asked for.
   */
  private acceptRaw(line: RawLine, hash: string, seq: number, bodyEnd: number, restored: boolean): LogLine {
    const chain = this.checkRaw(line, hash, seq, bodyEnd);
    const fast = restored ? parseSnapshotLine(line.bytes) : undefined;
    const text = fast === undefined ? line.bytes.toString('utf8') : undefined;
    const event = fast ?? (JSON.parse(text as string) as Record<string, unknown>);
    delete event.h;
    if (event.seq !== seq) throw new NotIndexable();
    const parsed = { seq, t: event.t as number, type: event.type as string, line: seq + 1, event, chain };
    if (text !== undefined) return { ...parsed, raw: text };
    return Object.defineProperty(parsed, 'raw', {
      enumerable: true,
      get: () => line.bytes.toString('utf8'),
    }) as LogLine;
  }

  /** A line with `wall` elsewhere (or without a well-formed `h`): parsed and checked in full. */
  private acceptParsed(line: RawLine, seq: number): LogLine {
    const v = this.verifier;
    v.lines = seq;
    v.continueAfter(this.header.event as LogHeader, seq - 1, 0, this.chain);
    return v.accept(line.bytes.toString('utf8'));
  }
}
