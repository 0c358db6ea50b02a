import { statSync } from 'node:fs';
import { type IndexedSnapshot, PARENT_INDEX_KIND, type ParentIndex } from '../format/log-index.ts';
import { SNAPSHOT_PART } from '../format/snapshot-split.ts';

/** Where a line starts: a character position in the writer's pending text until it is flushed, then a byte offset in the file. */
interface Mark {
  offset: number;
  prev: string;
  seq: number;
}

/**
 * Builds, while the log writer writes a plain log from its header, the {@link ParentIndex} a
 * scan of the finished file finds (`buildIndex`), so that the first fork of the run reads it
 * warm. Offsets are taken as character positions in the writer's pending text and turned into
 * byte offsets when that text is flushed (the same number for ASCII text).
 */
export class IndexRecorder {
  private readonly snapshots: IndexedSnapshot[] = [];
  /** Marks still holding a character position in the pending text. */
  private unresolved: Mark[] = [];
  /** The line taken last: its start and the chain before it. */
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

  /** Takes a line appended at character `pos` of the pending text, after the chain value `prev`. */
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
    this.lastAt = pos;
    this.lastPrev = prev;
    this.lastResolved = false;
    this.lastType = type;
    this.lines = seq + 1;
  }

  /** The pending text `text` (encoded as `bytes`) is being written at byte offset `base`. */
  flushed(base: number, text: string, bytes: Buffer): void {
    const ascii = bytes.length === text.length;
    const at = (pos: number) => base + (ascii ? pos : Buffer.byteLength(text.slice(0, pos)));
    for (const m of this.unresolved) m.offset = at(m.offset);
    this.unresolved = [];
    if (!this.lastResolved) {
      this.lastAt = at(this.lastAt);
      this.lastResolved = true;
    }
  }

  /** The line taken last was written by itself at byte offset `base` (nothing else was pending). */
  writtenAlone(base: number): void {
    for (const m of this.unresolved) m.offset = base + m.offset;
    this.unresolved = [];
    if (!this.lastResolved) {
      this.lastAt = base + this.lastAt;
      this.lastResolved = true;
    }
  }

  /** The index of the closed log at `path` whose chain ends in `digest`, or undefined when the run did not finish. */
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
