// Logs written from another log's lines, byte for byte: a continuation's past, a delta
// child's own lines, a flattened child.
import type { Json } from '../../core/index.ts';
import { childHeaderLine } from '../format/delta-ref.ts';
import type { LogLine } from '../format/log-format.ts';
import { byteLines } from '../read/byte-lines.ts';
import type { LogSummary } from '../read/line-reader.ts';
import { readLog } from '../read/read-log.ts';
import type { RecordedRun } from '../read/recorded-run.ts';
import { cloneSnapshotState } from '../read/snapshot-line.ts';
import { writeLogFile } from '../write/log-file.ts';

/** The lines of a log up to seq `last`, read without verifying it (the caller did). */
export async function* linesUpTo(path: string, last: number): AsyncGenerator<LogLine, void, undefined> {
  for await (const line of readLog(path, { verify: false })) {
    if (line.seq > last) return;
    yield line;
  }
}

/**
 * Writes the lines 0..`lastSeq` of a log byte for byte to `dst` (may be `src`), with `wallExtra`
 * merged into the header's `wall` (not hashed); returns the `state` of the line at `captureSeq`.
 */
export async function copyPrefix(
  src: string,
  dst: string,
  lastSeq: number,
  wallExtra?: Record<string, Json>,
  captureSeq?: number,
): Promise<Json | undefined> {
  let captured: Json | undefined;
  async function* raws(): AsyncGenerator<string> {
    for await (const line of linesUpTo(src, lastSeq)) {
      if (line.seq === captureSeq) captured = line.event.state as Json;
      yield line.seq === 0 && wallExtra ? childHeaderLine(line, { wall: wallExtra }).raw : line.raw;
    }
  }
  await writeLogFile(dst, raws());
  return captured;
}

/** The state of the snapshot at `seq`: a copy of the one the reader kept (that one with `owned`), or read from the log. */
export async function snapshotState(
  recorded: RecordedRun,
  path: string,
  seq: number,
  owned = false,
): Promise<Json> {
  const kept = recorded.snapshotStates.get(seq);
  if (kept === undefined) return readSnapshotAt(path, seq);
  return owned ? kept : cloneSnapshotState(kept);
}

/** The `state` of the snapshot event at `seq`. */
export async function readSnapshotAt(path: string, seq: number): Promise<Json> {
  for await (const line of linesUpTo(path, seq))
    if (line.seq === seq && line.type === 'snapshot') return line.event.state as Json;
  throw new Error(`no snapshot at seq ${seq} in ${path}`);
}

/**
 * Writes a delta child's own file up to seq `lastSeq` to `dst`: its delta header and its
 * own lines (those after the parent's past), byte for byte; for resuming it in place.
 */
export async function copyOwnLines(src: string, dst: string, lastSeq: number): Promise<void> {
  async function* own(): AsyncGenerator<string> {
    for await (const batch of byteLines(src))
      for (const { bytes, offset } of batch) {
        const raw = bytes.toString('utf8');
        if (offset > 0 && (JSON.parse(raw) as { seq: number }).seq > lastSeq) return;
        yield raw;
      }
  }
  await writeLogFile(dst, own());
}

/**
 * Writes the whole content of a log (a delta child's past read from its parents, then its own
 * lines) to `dst` as one self-contained log with the same digest, each line verified on the
 * way; `dst` may be `src` itself.
 *
 * @throws LogFormatError when `src` (or a parent) does not verify, or `dst` cannot be written.
 */
export async function flattenLog(src: string, dst: string): Promise<LogSummary & { digest: string }> {
  const lines = readLog(src);
  let summary: LogSummary | undefined;
  async function* raws(): AsyncGenerator<string> {
    for (let step = await lines.next(); ; step = await lines.next()) {
      if (step.done) {
        summary = step.value;
        return;
      }
      yield step.value.raw;
    }
  }
  await writeLogFile(dst, raws());
  return summary as LogSummary & { digest: string };
}
