import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { LogFormatError } from '../../core/index.ts';
import type { LogHeader } from '../format/log-format.ts';
import { SNAPSHOT_PART } from '../format/snapshot-split.ts';
import { LineVerifier } from './line-verifier.ts';
import {
  mayHoldWall,
  type RawLine,
  rawEventChain,
  rawLineHash,
  rawLineKind,
  readRawLineBytes,
} from './raw-line.ts';

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

/**
 * Scans a whole plain log and checks its hash chain over the raw bytes of its lines (the
 * header and any line holding `wall` are parsed and checked by {@link LineVerifier}); the
 * canonical form of the other lines is not re-checked. Returns its index.
 *
 * @throws LogFormatError naming the first line whose `h` does not continue the chain, or
 *   a line after the end line.
 */
export async function buildParentIndex(path: string): Promise<ParentIndex> {
  const st = statSync(path);
  const scan = new ChainScan(path);
  const source = readRawLineBytes(path);
  let truncated = false;
  for (;;) {
    const step = await source.next();
    if (step.done) {
      truncated = step.value;
      break;
    }
    for (const line of step.value) scan.take(line);
  }
  const { snapshots } = scan;
  if (scan.lastType === 'end' && snapshots.at(-1)?.seq === scan.lines - 2) snapshots.at(-1)!.final = true;
  return {
    kind: PARENT_INDEX_KIND,
    size: st.size,
    mtimeMs: st.mtimeMs,
    ino: st.ino,
    digest: scan.chain,
    lines: scan.lines,
    complete: scan.lastType === 'end' && !truncated,
    headerBytes: scan.headerBytes,
    headerChain: scan.headerChain,
    snapshots,
  };
}

/** The state of a raw-chain scan: the chain so far and what was found. */
class ChainScan {
  readonly verifier: LineVerifier;
  chain = '';
  lines = 0;
  lastType = '';
  headerBytes = 0;
  headerChain = '';
  readonly snapshots: IndexedSnapshot[] = [];
  private before = { offset: 0, prev: '', seq: -1 };
  /** Where the tick line before the current run of snapshot parts is. */
  private beforeParts = { offset: 0, prev: '', seq: -1 };

  constructor(private readonly path: string) {
    this.verifier = new LineVerifier(path, true);
  }

  take(line: RawLine): void {
    const seq = this.lines;
    if (this.lastType === 'end')
      throw new LogFormatError(
        `${this.path}: line ${seq + 1} follows the end line (seq ${seq - 1}): a finished log has nothing after its end`,
        { line: seq + 1, seq },
        { hint: 'the log was damaged or edited after it was written; restore it from a copy or rerun' },
      );
    const prev = this.chain;
    const prevType = this.lastType;
    const before = this.before;
    this.before = { offset: line.offset, prev, seq };
    const hash = seq === 0 || mayHoldWall(line.bytes) ? null : rawLineHash(line.bytes);
    const chain = hash === null ? null : rawEventChain(line.bytes, prev);
    if (chain === null || chain.slice(0, 16) !== hash) this.verifyParsed(line.bytes, seq);
    else {
      this.chain = chain;
      this.lastType = rawLineKind(line.bytes)?.type ?? '';
    }
    if (seq === 0) {
      this.headerBytes = line.bytes.length;
      this.headerChain = this.chain;
    }
    if (this.lastType === SNAPSHOT_PART && prevType !== SNAPSHOT_PART) this.beforeParts = before;
    const kind = this.lastType === 'snapshot' ? rawLineKind(line.bytes) : null;
    const tickLine = prevType === SNAPSHOT_PART ? this.beforeParts : before;
    if (kind)
      this.snapshots.push({ seq, tick: kind.t, offset: line.offset, prev, final: false, before: tickLine });
    this.lines = seq + 1;
  }

  /** Checks a line the raw way cannot (the header, a line with `wall`) or reports why it fails, fully. */
  private verifyParsed(bytes: Buffer, seq: number): void {
    const v = this.verifier;
    if (seq > 0) {
      v.lines = seq;
      v.continueAfter(v.header as LogHeader, seq - 1, 0, this.chain);
    }
    const line = v.accept(bytes.toString('utf8'));
    this.chain = v.chain as string;
    this.lastType = line.type;
  }
}
