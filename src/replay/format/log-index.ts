import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { SNAPSHOT_PART } from './snapshot-split.ts';

// The verification index `<log>.verified`: docs/LOG-FORMAT.md, "Verification index beside a parent".

const PARENT_INDEX_KIND = 'grapevine-verified/1';

/** A snapshot line of an indexed log; `final`: right before `end`, not its tick's; `before`: its tick line. */
interface IndexedSnapshot {
  seq: number;
  tick: number;
  offset: number;
  prev: string;
  final: boolean;
  before: { offset: number; prev: string; seq?: number };
}

/** What a scan of a whole plain log found, trusted while the file's size, mtime and inode are unchanged. */
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

/** Where a line starts (a position `resolve` turns into a byte offset), and the chain value before it. */
type Mark = Required<IndexedSnapshot['before']>;

/**
 * Builds the {@link ParentIndex} of a plain log from its lines, given in order from the
 * header: by the writer as it writes (offsets are character positions in its pending text
 * until that text is flushed), and by a scan of a finished file (offsets are byte offsets).
 */
export class IndexRecorder {
  private readonly snapshots: IndexedSnapshot[] = [];
  /** Marks whose offset is still a position to resolve. */
  private unresolved: Mark[] = [];
  /** The line taken last: its start and the chain value before it. */
  private lastAt = 0;
  private lastPrev = '';
  private lastResolved = false;
  private lastType = 'header';
  private lines = 1;
  /** The line before the current run of snapshot parts. */
  private partsMark: Mark | undefined;

  constructor(
    private readonly headerBytes: number,
    private readonly headerChain: string,
  ) {}

  /** Takes the line after the last one, starting at `pos`, after the chain value `prev`. */
  line(type: string, seq: number, tick: number, pos: number, prev: string): void {
    // a split snapshot's tick line is the line before its first part
    if (type === SNAPSHOT_PART && this.lastType !== SNAPSHOT_PART) this.partsMark = this.lastMark(seq - 1);
    if (type === 'snapshot') {
      const before =
        this.lastType === SNAPSHOT_PART && this.partsMark ? this.partsMark : this.lastMark(seq - 1);
      const entry: IndexedSnapshot = { seq, tick, offset: pos, prev, final: false, before };
      this.unresolved.push(entry);
      this.snapshots.push(entry);
    }
    [this.lastAt, this.lastPrev, this.lastResolved, this.lastType] = [pos, prev, false, type];
    this.lines = seq + 1;
  }

  /** The positions taken so far become byte offsets: `at(position)`. */
  resolve(at: (pos: number) => number): void {
    for (const m of this.unresolved) m.offset = at(m.offset);
    this.unresolved = [];
    if (!this.lastResolved) this.lastAt = at(this.lastAt);
    this.lastResolved = true;
  }

  /** The index of the log at `path` whose chain ends in `digest`, or undefined when it did not end. */
  finish(path: string, digest: string): ParentIndex | undefined {
    if (this.lastType !== 'end' || this.unresolved.length > 0) return undefined;
    const last = this.snapshots.at(-1);
    if (last && last.seq === this.lines - 2) last.final = true;
    const st = statSync(path);
    const { headerBytes, headerChain, snapshots, lines } = this;
    const file = { kind: PARENT_INDEX_KIND, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino } as const;
    return { ...file, digest, lines, complete: true, headerBytes, headerChain, snapshots };
  }

  private lastMark(seq: number): Mark {
    const mark = { offset: this.lastAt, prev: this.lastPrev, seq };
    if (!this.lastResolved) this.unresolved.push(mark);
    return mark;
  }
}
