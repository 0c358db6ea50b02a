import { isDeltaHeader } from '../format/delta-ref.ts';
import type { LogLine } from '../format/log-format.ts';
import { IndexRecorder, loadParentIndex, type ParentIndex, saveParentIndex } from '../format/log-index.ts';
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
    return step.done
      ? undefined
      : new LineVerifier(path, true).acceptBytes(step.value[0].bytes, 0, () => true);
  } finally {
    await source.return('whole');
  }
}

/**
 * Reads a whole plain log, its hash chain checked over the bytes of its lines (none parsed
 * but the header and lines holding `wall`), and returns its index, or undefined when the log
 * did not end.
 *
 * @throws LogFormatError naming the first line that does not verify.
 */
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
