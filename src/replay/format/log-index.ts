import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';

/** The `kind` of a verification index file (docs/LOG-FORMAT.md, "Verification index"). */
export const PARENT_INDEX_KIND = 'grapevine-verified/1';

/**
 * A snapshot line of an indexed log, where a fork can start reading: its seq, tick, byte
 * offset and the chain value before it; whether it is the final snapshot (right before `end`,
 * not its tick's); and its tick line (the line before it, or before its first part): offset,
 * chain value before it, and seq (which an index of an older grapevine lacks).
 */
export interface IndexedSnapshot {
  seq: number;
  tick: number;
  offset: number;
  prev: string;
  final: boolean;
  before: { offset: number; prev: string; seq?: number };
}

/**
 * What a scan of a whole plain log found: its digest and number of lines, whether it ended
 * with `end` and nothing after, the header's length in bytes and chain value, and where its
 * snapshots are. Saved beside the log as `<log>.verified` and trusted while the file's size,
 * mtime and inode are unchanged.
 */
export interface ParentIndex {
  kind: typeof PARENT_INDEX_KIND;
  size: number;
  mtimeMs: number;
  ino: number;
  digest: string;
  lines: number;
  complete: boolean;
  headerBytes: number;
  headerChain: string;
  snapshots: IndexedSnapshot[];
}

/** The path of the verification index of `path`. */
export function parentIndexPath(path: string): string {
  return `${path}.verified`;
}

/**
 * The index of `path` when there is one, the file is unchanged since (size, mtime, inode), and
 * it is well formed (offsets within the file, chain values of 64 hex digits); else undefined.
 */
export function loadParentIndex(path: string): ParentIndex | undefined {
  try {
    const index = JSON.parse(readFileSync(parentIndexPath(path), 'utf8')) as ParentIndex;
    const st = statSync(path);
    const at = (offset: unknown, prev: unknown) =>
      Number.isSafeInteger(offset) &&
      (offset as number) >= 0 &&
      (offset as number) <= st.size &&
      HEX64.test(String(prev));
    const same =
      index.kind === PARENT_INDEX_KIND &&
      index.size === st.size &&
      index.mtimeMs === st.mtimeMs &&
      index.ino === st.ino;
    const sound =
      at(index.headerBytes, index.headerChain) &&
      HEX64.test(index.digest) &&
      index.snapshots.every(
        (s) => at(s.offset, s.prev) && at(s.before.offset, s.before.prev) && s.before.offset <= s.offset,
      );
    return same && sound ? index : undefined;
  } catch {
    return undefined;
  }
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Saves `index` beside its log (written aside and renamed); a directory that cannot be written is ignored. */
export function saveParentIndex(path: string, index: ParentIndex): void {
  const file = parentIndexPath(path);
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, `${JSON.stringify(index)}\n`);
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** Removes the verification index of `path`, if any. */
export function dropParentIndex(path: string): void {
  rmSync(parentIndexPath(path), { force: true });
}
