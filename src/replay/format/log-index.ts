import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';

/** The `kind` of a verification cache file. */
export const PARENT_INDEX_KIND = 'grapevine-verified/1';

/** A snapshot line of an indexed log: where a fork can start reading. */
export interface IndexedSnapshot {
  seq: number;
  tick: number;
  /** Byte offset of the line in the file. */
  offset: number;
  /** Full chain value after the line before it. */
  prev: string;
  /** True for the snapshot right before the `end` line (it does not belong to its tick). */
  final: boolean;
  /**
   * The snapshot's tick line (the line before it, or before its first part when it is
   * split): its offset, the chain value before it, and its seq (absent in an index written
   * before split snapshots were indexed: the line right before the snapshot).
   */
  before: { offset: number; prev: string; seq?: number };
}

/**
 * What a scan of a whole plain log found: its digest, whether it finished, and where its
 * snapshots are (byte offset and the chain value before each). Saved beside the log as
 * `<log>.verified` and trusted while the file's size, mtime and inode are unchanged.
 */
export interface ParentIndex {
  kind: typeof PARENT_INDEX_KIND;
  size: number;
  mtimeMs: number;
  ino: number;
  /** The run digest: the chain value after the last line. */
  digest: string;
  /** Number of complete lines, header included. */
  lines: number;
  /** The last line is an `end` event and nothing follows it. */
  complete: boolean;
  /** Byte length of the header line (the first event starts one byte after it). */
  headerBytes: number;
  /** Chain value after the header. */
  headerChain: string;
  snapshots: IndexedSnapshot[];
}

/** The path of the verification cache of `path`. */
export function parentIndexPath(path: string): string {
  return `${path}.verified`;
}

/** The cached index of `path` when there is one and the file is unchanged since (size, mtime, inode); else undefined. */
export function loadParentIndex(path: string): ParentIndex | undefined {
  try {
    const index = JSON.parse(readFileSync(parentIndexPath(path), 'utf8')) as ParentIndex;
    const st = statSync(path);
    const same =
      index.kind === PARENT_INDEX_KIND &&
      index.size === st.size &&
      index.mtimeMs === st.mtimeMs &&
      index.ino === st.ino;
    return same ? index : undefined;
  } catch {
    return undefined;
  }
}

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

/** Removes the verification cache of `path`, if any. */
export function dropParentIndex(path: string): void {
  rmSync(parentIndexPath(path), { force: true });
}
