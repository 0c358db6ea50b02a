import { statSync } from 'node:fs';
import { LogFormatError } from '../../core/index.ts';
import { isDeltaHeader } from '../format/delta-ref.ts';
import type { LogHeader, LogLine } from '../format/log-format.ts';
import {
  type IndexedSnapshot,
  loadParentIndex,
  PARENT_INDEX_KIND,
  type ParentIndex,
  saveParentIndex,
} from '../format/log-index.ts';
import { SNAPSHOT_PART } from '../format/snapshot-split.ts';
import { byteLines } from './byte-lines.ts';
import { LineVerifier, type ParseRule } from './line-verifier.ts';
import { type LogSummary, readWhole } from './read-whole.ts';
import { SnapshotAssembler } from './snapshot-assembler.ts';

/** A log's verification index no longer describes the file (changed under an unchanged size, mtime and inode). */
export class StaleIndex extends LogFormatError {}

/** Where a read for a continuation starts: a tick line, the chain value before it, and the snapshot after it. */
interface Start {
  seq: number;
  offset: number;
  prev: string;
  /** Seq of the snapshot restored (0: none, the run restarts from its header). */
  snapshot: number;
}

/**
 * The lines of a finished plain log for a continuation after tick `from` (see
 * `ReadLogOptions.from`): the header, then the lines from the tick line of the snapshot that
 * continuation restores, up to the tick line of the first periodic snapshot after tick `to`
 * (in one read of their bytes) or to the end. Each line's `h` is checked over its bytes, and
 * the lines read must end in the chain value the index holds there. Undefined for a delta
 * child or an unfinished log (read whole).
 *
 * @throws StaleIndex when the lines do not match the index.
 */
export async function readIndexed(
  path: string,
  from: number,
  to: number | undefined,
  parse: ParseRule,
): Promise<AsyncGenerator<LogLine, LogSummary, undefined> | undefined> {
  const header = await firstLine(path);
  if (header === undefined || isDeltaHeader(header.event)) return undefined;
  let index = loadParentIndex(path);
  if (index === undefined) {
    index = await buildIndex(path);
    if (index.complete) saveParentIndex(path, index);
  }
  return index.complete ? fromIndex(path, header, index, from, to, parse) : undefined;
}

async function* fromIndex(
  path: string,
  header: LogLine,
  index: ParentIndex,
  from: number,
  to: number | undefined,
  parse: ParseRule,
): AsyncGenerator<LogLine, LogSummary, undefined> {
  const start = startOf(index, from);
  const stop = to === undefined ? undefined : stopOf(index, to);
  const verifier = new LineVerifier(path, 'chain');
  verifier.continueAfter(header.event as LogHeader, start.seq - 1, 0, start.prev);
  verifier.lines = start.seq;
  const assembler = new SnapshotAssembler(path);
  yield header;
  const source = byteLines(path, { start: start.offset, end: stop?.offset });
  let truncated = false;
  try {
    for (;;) {
      const step = await source.next();
      if (step.done) {
        truncated = step.value !== 'whole';
        break;
      }
      for (const { bytes, offset } of step.value) {
        const seq = verifier.lastSeq + 1;
        const line = verifier.acceptBytes(bytes, offset, parse, seq === start.snapshot, stop !== undefined);
        const want = seq === start.snapshot ? 'snapshot' : seq === start.seq && seq > 1 ? 'tick' : null;
        if (want !== null && line.type !== want)
          throw stale(path, start.seq, `seq ${seq} is not a ${want} line`);
        assembler.accept(line);
        yield line;
      }
    }
  } finally {
    await source.return('whole');
  }
  const ends = stop
    ? !truncated && verifier.lastSeq + 1 === stop.seq && verifier.chain === stop.prev
    : !truncated &&
      verifier.lastType === 'end' &&
      verifier.chain === index.digest &&
      verifier.lines === index.lines;
  if (!ends)
    throw stale(
      path,
      start.seq,
      `they do not end in ${stop ? `the chain value it had at seq ${stop.seq}` : `its digest ${index.digest}`}`,
    );
  const h = header.event as LogHeader;
  return {
    header: h,
    lastSeq: index.lines - 1,
    lastTick: verifier.lastTick,
    lines: index.lines,
    digest: index.digest,
    truncated: false,
    complete: true,
  };
}

function stale(path: string, seq: number, why: string): StaleIndex {
  return new StaleIndex(
    `${path} changed since it was verified: its lines from seq ${seq} on do not match its index (${why})`,
    { seq },
    { hint: 'the log was damaged or edited after it was written; restore it from a copy or rerun' },
  );
}

/** The tick line of the snapshot a continuation after `from` restores (the snapshot follows it), or the first event. */
function startOf(index: ParentIndex, from: number): Start {
  const s = index.snapshots.findLast((x) => x.tick < from || (x.tick === from && !x.final));
  if (!s) return { seq: 1, offset: index.headerBytes + 1, prev: index.headerChain, snapshot: 0 };
  return { seq: s.before.seq ?? s.seq - 1, offset: s.before.offset, prev: s.before.prev, snapshot: s.seq };
}

/** The tick line of the first periodic snapshot after tick `to`, if the index names it. */
function stopOf(index: ParentIndex, to: number): { seq: number; offset: number; prev: string } | undefined {
  const s = index.snapshots.find((x) => x.tick > to && !x.final);
  if (s?.before.seq === undefined) return undefined;
  return { seq: s.before.seq, offset: s.before.offset, prev: s.before.prev };
}

/** The verified header line of a log file, or undefined when it has none. */
async function firstLine(path: string): Promise<LogLine | undefined> {
  const source = byteLines(path);
  try {
    const step = await source.next();
    if (step.done) return undefined;
    return new LineVerifier(path, true).acceptBytes(step.value[0].bytes, 0, () => true);
  } finally {
    await source.return('whole');
  }
}

/**
 * Reads a whole plain log, its hash chain checked over the bytes of its lines (none parsed
 * but the header and lines holding `wall`), and returns its index: where each snapshot and
 * the tick line before it start, with the chain value before them.
 *
 * @throws LogFormatError naming the first line that does not verify.
 */
export async function buildIndex(path: string): Promise<ParentIndex> {
  const st = statSync(path);
  const snapshots: IndexedSnapshot[] = [];
  const lines = readWhole(path, 'chain', () => false, []);
  let prev = '';
  let prevType = '';
  let headerBytes = 0;
  let headerChain = '';
  let before = { offset: 0, prev: '', seq: -1 };
  let beforeParts = before;
  for (;;) {
    const step = await lines.next();
    if (step.done) {
      const s = step.value;
      const last = snapshots.at(-1);
      if (s.complete && last?.seq === s.lastSeq - 1) last.final = true;
      const complete = s.complete && !s.truncated;
      const kind = PARENT_INDEX_KIND;
      const digest = s.digest as string;
      return {
        kind,
        size: st.size,
        mtimeMs: st.mtimeMs,
        ino: st.ino,
        digest,
        lines: s.lines,
        complete,
        headerBytes,
        headerChain,
        snapshots,
      };
    }
    const line = step.value;
    const mark = { offset: line.offset as number, prev, seq: line.seq };
    if (line.seq === 0) {
      headerBytes = Buffer.byteLength(line.raw);
      headerChain = line.chain as string;
    }
    if (line.type === SNAPSHOT_PART && prevType !== SNAPSHOT_PART) beforeParts = before;
    if (line.type === 'snapshot')
      snapshots.push({
        seq: line.seq,
        tick: line.t,
        offset: mark.offset,
        prev,
        final: false,
        before: prevType === SNAPSHOT_PART ? beforeParts : before,
      });
    before = mark;
    prev = line.chain as string;
    prevType = line.type;
  }
}
