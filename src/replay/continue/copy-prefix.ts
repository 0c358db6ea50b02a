import type { Json } from '../../core/index.ts';
import { childHeaderLine } from '../format/delta-ref.ts';
import { byteLines } from '../read/byte-lines.ts';
import { readLog } from '../read/read-log.ts';
import type { RecordedRun } from '../read/recorded-run.ts';
import { cloneSnapshotState } from '../read/snapshot-line.ts';
import { writeLogFile } from '../write/log-file.ts';

/**
 * Writes the first lines of a log (seq 0..`lastSeq`, byte for byte) to `dst`, optionally
 * with extra `wall` fields in the header (wall-clock data is outside the hash chain, so the
 * copy's chain and every `h` stay the same); `dst` may be the source itself. Returns the
 * `state` of the line at `captureSeq` (a snapshot), if asked.
 */
export async function copyPrefix(
  src: string,
  dst: string,
  lastSeq: number,
  wallExtra?: Record<string, Json>,
  captureSeq?: number,
): Promise<Json | undefined> {
  const lines: string[] = [];
  let captured: Json | undefined;
  // The source was verified by the caller: read it raw.
  for await (const line of readLog(src, { verify: false })) {
    if (line.seq > lastSeq) break;
    if (line.seq === captureSeq) captured = line.event.state as Json;
    lines.push(line.seq === 0 && wallExtra ? childHeaderLine(line, { wall: wallExtra }).raw : line.raw);
  }
  await writeLogFile(dst, [lines.join('\n')]);
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
  for await (const line of readLog(path, { verify: false })) {
    if (line.seq === seq && line.type === 'snapshot') return line.event.state as Json;
    if (line.seq > seq) break;
  }
  throw new Error(`no snapshot at seq ${seq} in ${path}`);
}

/**
 * Writes a delta child's own file up to seq `lastSeq` to `dst`: its delta header and its
 * own lines (those after the parent's past), byte for byte; for resuming it in place.
 */
export async function copyOwnLines(src: string, dst: string, lastSeq: number): Promise<void> {
  const lines: string[] = [];
  read: for await (const batch of byteLines(src))
    for (const { bytes } of batch) {
      const raw = bytes.toString('utf8');
      if (lines.length > 0 && (JSON.parse(raw) as { seq: number }).seq > lastSeq) break read;
      lines.push(raw);
    }
  await writeLogFile(dst, [lines.join('\n')]);
}
