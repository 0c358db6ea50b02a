import { statSync } from 'node:fs';
import { isDeltaHeader } from '../format/delta-ref.ts';
import type { LogLine } from '../format/log-format.ts';
import {
  type IndexedSnapshot,
  loadParentIndex,
  PARENT_INDEX_KIND,
  type ParentIndex,
  saveParentIndex,
} from '../format/log-index.ts';
import { SNAPSHOT_PART } from '../format/snapshot-split.ts';
import { byteLines } from './byte-lines.ts';
import { type IndexedRange, readLines } from './line-reader.ts';
import { LineVerifier } from './line-verifier.ts';

/**
 * The stretch of a finished plain log a continuation after tick `from` needs, from the log's
 * index (`<log>.verified`, built by one scan of the file when missing or stale): from the tick
 * line of the snapshot that continuation restores, up to the tick line of the first periodic
 * snapshot after tick `to` (or to the end). Undefined for a delta child or an unfinished log.
 */
export async function readIndexed(
  path: string,
  from: number,
  to: number | undefined,
): Promise<IndexedRange | undefined> {
  const header = await firstLine(path);
  if (header === undefined || isDeltaHeader(header.event)) return undefined;
  let index = loadParentIndex(path);
  if (index === undefined) {
    index = await buildIndex(path);
    if (index.complete) saveParentIndex(path, index);
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
    return step.done
      ? undefined
      : new LineVerifier(path, true).acceptBytes(step.value[0].bytes, 0, () => true);
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
  const { size, mtimeMs, ino } = statSync(path);
  const snapshots: IndexedSnapshot[] = [];
  const lines = readLines(path, 'chain', () => false, []);
  let [prev, prevType, headerBytes, headerChain] = ['', '', 0, ''];
  // the line before the current one, and the line before the current run of snapshot parts
  let before = { offset: 0, prev: '', seq: -1 };
  let beforeParts = before;
  for (;;) {
    const step = await lines.next();
    if (step.done) {
      const { complete, truncated, lastSeq, digest, lines: count } = step.value;
      const last = snapshots.at(-1);
      if (complete && last?.seq === lastSeq - 1) last.final = true;
      const done = complete && !truncated;
      return {
        kind: PARENT_INDEX_KIND,
        size,
        mtimeMs,
        ino,
        digest: digest as string,
        lines: count,
        complete: done,
        headerBytes,
        headerChain,
        snapshots,
      };
    }
    const line = step.value;
    if (line.seq === 0) [headerBytes, headerChain] = [Buffer.byteLength(line.raw), line.chain as string];
    if (line.type === SNAPSHOT_PART && prevType !== SNAPSHOT_PART) beforeParts = before;
    if (line.type === 'snapshot') {
      const tickLine = prevType === SNAPSHOT_PART ? beforeParts : before;
      snapshots.push({
        seq: line.seq,
        tick: line.t,
        offset: line.offset as number,
        prev,
        final: false,
        before: tickLine,
      });
    }
    before = { offset: line.offset as number, prev, seq: line.seq };
    prev = line.chain as string;
    prevType = line.type;
  }
}
