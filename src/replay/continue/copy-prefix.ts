import { renameSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Json } from '../../core/index.ts';
import { LineEncoder } from '../format/line-codec.ts';
import { isGzipPath } from '../format/log-format.ts';
import { readRawLines } from '../read/byte-lines.ts';
import { readLog } from '../read/read-log.ts';

/**
 * Writes the first lines of a log (seq 0..`lastSeq`, byte for byte) to `dst`, optionally
 * with extra `wall` fields in the header (wall-clock data is outside the hash chain, so the
 * copy's chain and every `h` stay the same). Writes a temporary file and renames it, so
 * `dst` may be the source itself. Returns the `state` of the line at `captureSeq` (a snapshot), if asked.
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
    if (line.seq === 0 && wallExtra) {
      const { h: _h, ...header } = JSON.parse(line.raw) as Record<string, unknown>;
      const wall = { ...((header.wall as Record<string, Json> | undefined) ?? {}), ...wallExtra };
      lines.push(new LineEncoder().encode({ ...header, wall }, null).text);
    } else lines.push(line.raw);
  }
  const text = `${lines.join('\n')}\n`;
  const tmp = `${dst}.tmp-${process.pid}`;
  writeFileSync(tmp, isGzipPath(dst) ? gzipSync(text) : text);
  renameSync(tmp, dst);
  return captured;
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
  const source = readRawLines(src);
  try {
    for (let done = false; !done; ) {
      const step = await source.next();
      if (step.done) break;
      for (const raw of step.value) {
        done = lines.length > 0 && (JSON.parse(raw) as { seq: number }).seq > lastSeq;
        if (done) break;
        lines.push(raw);
      }
    }
  } finally {
    await source.return(false);
  }
  const text = `${lines.join('\n')}\n`;
  const tmp = `${dst}.tmp-${process.pid}`;
  writeFileSync(tmp, isGzipPath(dst) ? gzipSync(text) : text);
  renameSync(tmp, dst);
}
