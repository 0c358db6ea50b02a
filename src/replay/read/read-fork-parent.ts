import { LogFormatError } from '../../core/index.ts';
import { readRecordedRun } from '../continue/rerun-log.ts';
import { isDeltaHeader } from '../format/delta-ref.ts';
import { isGzipPath, type LogHeader, type LogLine } from '../format/log-format.ts';
import {
  buildParentIndex,
  dropParentIndex,
  loadParentIndex,
  type ParentIndex,
  saveParentIndex,
} from './log-index.ts';
import { readRawLineBytes, readRawLineRange } from './raw-line.ts';
import type { RecordedRun } from './recorded-run.ts';
import { NotIndexable, readHeaderLine, type Start, TailReader } from './tail-reader.ts';

/** Options of {@link readForkParent}. */
export interface ReadForkParentOptions {
  /** Use and write the verification cache `<log>.verified` (default true). */
  cache?: boolean;
}

/**
 * Reads a finished plain log for forks after `ticks`, at a cost that follows the forks'
 * future, not the log's length: from the log's index (see {@link ParentIndex}; cached
 * beside it, built by one raw-byte chain scan when missing or stale), it reads only the
 * lines from the snapshot the earliest fork restores up to the tick line of the first
 * periodic snapshot after the last fork tick, in one read of their bytes: their chain
 * continues the indexed chain value and ends in the one indexed there, each line's `h` is
 * checked over its raw bytes, and only lines the forks need are parsed (a snapshot after
 * the last fork tick is not). The lines after that point are not read: like the lines
 * before the restore point, they are vouched for by the index, which is trusted while the
 * file's size, mtime and inode are unchanged. A run with an LLM (its forks replay the
 * parent's later replies), forks after the last periodic snapshot, or an index that does
 * not name each snapshot's tick line, read on to the end of the log, whose chain must end
 * in the indexed digest. The result is a {@link RecordedRun} that knows nothing of the
 * lines outside what was read (their hashes, types and LLM records are absent); its
 * digest is the indexed one.
 *
 * A gzip log, a delta child, or an unfinished log is read whole by `readRecordedRun`.
 *
 * @throws LogFormatError as `readRecordedRun` when the log does not verify.
 */
export async function readForkParent(
  path: string,
  ticks: readonly number[],
  opts: ReadForkParentOptions = {},
): Promise<RecordedRun> {
  const full = () => readRecordedRun(path, { restoreTicks: ticks });
  if (isGzipPath(path) || ticks.length === 0) return full();
  const header = await readHeaderLine(path);
  if (header === undefined || isDeltaHeader(header.event)) return full();
  const cache = opts.cache ?? true;
  const cached = cache ? loadParentIndex(path) : undefined;
  try {
    if (cached) {
      try {
        return await readFromIndex(path, header, cached, ticks);
      } catch (err) {
        // the file changed under an unchanged size, mtime and inode: scan it again
        if (!(err instanceof LogFormatError)) throw err;
        dropParentIndex(path);
      }
    }
    const index = await buildParentIndex(path);
    if (!index.complete) return full();
    const run = await readFromIndex(path, header, index, ticks);
    if (cache) saveParentIndex(path, index);
    return run;
  } catch (err) {
    if (err instanceof NotIndexable) return full();
    throw err;
  }
}

/**
 * Where a read for forks after `ticks` may stop: the tick line of the first periodic
 * snapshot after the last fork tick (every line of the fork ticks lies before it), its
 * offset and the chain value before it, which the lines read must end in.
 */
interface Stop {
  seq: number;
  offset: number;
  prev: string;
}

/**
 * The line a read for forks after `ticks` starts at: the tick line of the snapshot the
 * earliest fork restores (the snapshot follows it), or the first event.
 */
function startOf(index: ParentIndex, ticks: readonly number[]): Start {
  const first = Math.min(...ticks);
  const s = index.snapshots.findLast((x) => x.tick < first || (x.tick === first && !x.final));
  if (!s) return { seq: 1, offset: index.headerBytes + 1, prev: index.headerChain, snapshot: 0 };
  return { seq: s.before.seq ?? s.seq - 1, offset: s.before.offset, prev: s.before.prev, snapshot: s.seq };
}

/**
 * Where the read may stop, or undefined when it reads to the end: a run with an LLM (a
 * fork replays the parent's later replies), forks in the last stretch of the log, or an
 * index written before it named each snapshot's tick line.
 */
function stopOf(index: ParentIndex, header: LogLine, ticks: readonly number[]): Stop | undefined {
  if ((header.event as LogHeader).llm !== undefined) return undefined;
  const last = Math.max(...ticks);
  const s = index.snapshots.find((x) => x.tick > last && !x.final);
  if (s?.before.seq === undefined) return undefined;
  return { seq: s.before.seq, offset: s.before.offset, prev: s.before.prev };
}

async function readFromIndex(
  path: string,
  header: LogLine,
  index: ParentIndex,
  ticks: readonly number[],
): Promise<RecordedRun> {
  const start = startOf(index, ticks);
  const stop = stopOf(index, header, ticks);
  const tail = new TailReader(path, header, start, Math.max(...ticks), ticks);
  let ends: boolean;
  if (stop) {
    // the lines of the fork ticks: one read of their bytes, chained up to the indexed value
    const lines = readRawLineRange(path, start.offset, stop.offset);
    for (const line of lines ?? []) tail.take(line);
    ends = lines !== undefined && tail.seq === stop.seq && tail.chain === stop.prev;
  } else {
    const source = readRawLineBytes(path, start.offset);
    let truncated: boolean;
    for (;;) {
      const step = await source.next();
      if (step.done) {
        truncated = step.value;
        break;
      }
      for (const line of step.value) tail.take(line);
    }
    ends = !truncated && tail.lastType === 'end' && tail.chain === index.digest && tail.seq === index.lines;
  }
  if (!ends)
    throw new LogFormatError(
      `${path} changed since it was verified: its lines from seq ${start.seq} on do not end in ${stop ? `the chain value it had at seq ${stop.seq}` : `its digest ${index.digest}`}`,
      { seq: start.seq },
      { hint: 'the log was damaged or edited after it was written; restore it from a copy or rerun' },
    );
  const run = tail.builder.finish({ digest: index.digest, complete: true, truncated: false });
  if (!run) throw new NotIndexable();
  return run;
}
