import type { Json, LogFormatError } from '../../core/index.ts';
import { type LogLine, logError } from '../format/log-format.ts';
import { SNAPSHOT_PART, type SnapshotPart, type SplitInfo } from '../format/snapshot-split.ts';
import { isUnparsed } from './line-verifier.ts';

/**
 * Puts split snapshots back together while a log is read: it keeps the pieces of the
 * `snapshot-part` lines, and gives their `snapshot` line's event a `state` assembled from them
 * on first access (a reader that never looks at it never pays for it). Parts not followed by
 * their snapshot (a log cut short) are dropped; lines read without being parsed are passed
 * over, and so is a snapshot whose parts were.
 */
export class SnapshotAssembler {
  private parts: SnapshotPart[] = [];
  private firstLine = 0;
  /** The line before was a part read without being parsed. */
  private unparsedPart = false;

  constructor(private readonly path: string) {}

  /** Takes the next line. @throws LogFormatError when parts are not followed by their snapshot, or it does not have the parts it names. */
  accept(line: LogLine): void {
    // a split snapshot whose parts were not parsed is not put back together (nothing keeps its state)
    const skip = isUnparsed(line) || (this.unparsedPart && line.type === 'snapshot');
    this.unparsedPart = isUnparsed(line) && line.type === SNAPSHOT_PART;
    if (skip) return;
    if (line.type === SNAPSHOT_PART) {
      if (this.parts.length === 0) this.firstLine = line.line;
      const e = line.event as unknown as SnapshotPart & { of: unknown };
      if (!Array.isArray(e.path) || !Number.isInteger(e.index) || !Number.isInteger(e.of))
        throw failAt(this.path, line, 'a snapshot-part line needs `of`, `path`, `index` and `data`');
      this.parts.push({ path: e.path, index: e.index, data: e.data });
      return;
    }
    const split = line.type === 'snapshot' ? (line.event.split as SplitInfo | undefined) : undefined;
    const first = this.firstLine;
    const orphans = `the snapshot parts from line ${first} are not followed by their snapshot`;
    if (this.parts.length > 0 && split === undefined) throw failAt(this.path, line, orphans);
    if (split === undefined) return;
    const count = `the snapshot names ${split.parts} parts, ${this.parts.length} precede it`;
    if (split.parts !== this.parts.length) throw failAt(this.path, line, count);
    const parts = this.parts;
    this.parts = [];
    const {
      event,
      event: { state: skeleton },
    } = line;
    const path = this.path;
    Object.defineProperty(event, 'state', {
      configurable: true,
      enumerable: true,
      get() {
        const value = assemble(skeleton as Json, parts, path, line);
        Object.defineProperty(event, 'state', {
          value,
          configurable: true,
          enumerable: true,
          writable: true,
        });
        return value;
      },
    });
  }
}

function failAt(path: string, { line, seq, t: tick }: LogLine, message: string): LogFormatError {
  return logError(`line ${line} of ${path} (seq ${seq}, tick ${tick}): ${message}`, { line, seq, tick });
}

/** The snapshot's state: `skeleton` with each run of parts (one path) put in its place. */
function assemble(skeleton: Json, parts: SnapshotPart[], path: string, line: LogLine): Json {
  let root = skeleton;
  for (let k = 0; k < parts.length; ) {
    const at = parts[k].path;
    const key = JSON.stringify(at);
    let end = k;
    while (end < parts.length && JSON.stringify(parts[end].path) === key) {
      if (parts[end].index !== end - k) throw failAt(path, line, `the parts of ${key} are out of order`);
      end++;
    }
    const run = parts.slice(k, end).map((p) => p.data);
    const value = joinRun(run);
    if (value === null) throw failAt(path, line, `the parts of ${key} mix strings, arrays and objects`);
    if (at.length === 0) root = value;
    else place(root, at, value, () => failAt(path, line, `the path ${key} is not in the snapshot`));
    k = end;
  }
  return root;
}

/** Concatenated strings, concatenated arrays or merged objects; null when the pieces are of different kinds. */
function joinRun(run: SnapshotPart['data'][]): Json {
  if (run.every((d) => typeof d === 'string')) return run.join('');
  if (run.every(Array.isArray)) return (run as Json[][]).flat(1);
  if (!run.every((d) => d !== null && typeof d === 'object' && !Array.isArray(d))) return null;
  const merged: { [key: string]: Json } = {};
  for (const d of run as { [key: string]: Json }[])
    for (const k of Object.keys(d)) {
      if (k === '__proto__') return null;
      merged[k] = d[k];
    }
  return merged;
}

function place(root: Json, at: (string | number)[], value: Json, fail: () => Error): void {
  let node: unknown = root;
  if (at.includes('__proto__')) throw fail();
  for (let i = 0; i < at.length - 1; i++) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, at[i])) throw fail();
    node = (node as Record<string | number, unknown>)[at[i]];
  }
  const last = at[at.length - 1];
  if (node === null || typeof node !== 'object' || !Object.hasOwn(node, last)) throw fail();
  (node as Record<string | number, unknown>)[last] = value;
}
