import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Base64Text, LogFormatError } from '../../core/index.ts';
import { HASH_SUFFIX_LENGTH } from '../format/chain.ts';
import { type LineBody, LineCodec, lineSize, lineText, streamLine } from '../format/line-codec.ts';
import {
  isGzipPath,
  LOG_FORMAT,
  type LogFields,
  type LogFormat,
  type LogHeader,
  MAX_LINE,
} from '../format/log-format.ts';
import { IndexRecorder, saveParentIndex } from '../format/log-index.ts';
import { type PatchBaseLine, patchLineText } from '../format/snapshot-patch.ts';
import {
  DEFAULT_SPLIT_ABOVE,
  estimateJsonSize,
  MIN_PART_CHARS,
  splitSnapshotLines,
} from '../format/snapshot-split.ts';
import type { ColumnChanges } from './column-compare.ts';
import { PatchSink } from './patch-sink.ts';
import { checkReserved, ioError, tooLong, unwritable } from './write-errors.ts';

/** Buffered text (in UTF-16 code units) above which `append` flushes on its own. */
const AUTO_FLUSH_CHARS = 4 * 1024 * 1024;
/** Body length (code units) from which a line of a plain log is streamed to the file, not batched. */
const STREAM_ABOVE = 1 << 20;
/** Size of the one buffer streamed lines go through, reused from line to line. */
const STREAM_BUFFER = 1 << 18;
/** A snapshot line is written as a patch when the patch is at most this share of it. */
const PATCH_AT_MOST = 0.5;

/** A snapshot of a delta child's parent that the child's snapshots are written against: its parts, then its `snapshot` line. */
export type PatchBase = readonly PatchBaseLine[];

/** The file, its header, and where the log stands: the last line appended and the file's size. */
interface WriterState {
  path: string;
  fd: number;
  header: LogHeader;
  seq: number;
  chain: string;
  bytesWritten: number;
}

/** The snapshot appended last (while nothing else was appended since): its state, estimated size, columns' changes. */
interface LastSnapshot {
  state: unknown;
  size: number;
  changes?: Map<Base64Text, ColumnChanges>;
}

/**
 * Appends to a replay log. Each line's body is built once by the line codec and goes to one
 * sink: the text batch {@link LogWriter.flush} writes at once (one gzip member for `.gz`), the
 * file itself for a long line of a plain log, or a patch against a delta child's parent. A
 * process killed at any moment leaves a log that reads up to its last flushed line.
 * Synchronous: the run is single-threaded.
 */
export class LogWriter {
  private readonly gzip: boolean;
  private readonly codec = new LineCodec();
  private pending = '';
  private closed = false;
  private readonly split = splitBound();
  /** The verification index of a plain log written from its header (`create` with `index`). */
  private index: IndexRecorder | null = null;
  /** The parent snapshot a delta child's snapshots are patched against, and the sink that does it. */
  private patchBase: PatchBase | null = null;
  private patcher: PatchSink | null = null;
  private last: LastSnapshot | null = null;
  private streamBuffer: Buffer | undefined;

  private constructor(private readonly state: WriterState) {
    this.gzip = isGzipPath(state.path);
  }

  /**
   * Creates (or overwrites) the log at `path` and its directories, and writes its header:
   * `headerFields` with `type`, `seq`, `t` and `format` ({@link LOG_FORMAT}). With `exclusive`,
   * the file must not exist (atomically: of two runs started at once, one is refused). With
   * `index`, closing after an `end` line also writes `<path>.verified`.
   *
   * @throws LogFormatError when the file cannot be created (or exists) or a header field is not JSON.
   */
  static create(path: string, headerFields: LogFields, opts: { exclusive?: boolean; index?: boolean } = {}) {
    checkReserved(headerFields, 'header');
    const header = { ...headerFields, type: 'header', seq: 0, t: 0, format: LOG_FORMAT } as LogHeader;
    let line: { text: string; chain: string };
    try {
      line = new LineCodec().encode(header, null);
    } catch (cause) {
      throw unwritable('header', 0, cause);
    }
    let fd: number;
    try {
      mkdirSync(dirname(path), { recursive: true });
      fd = openSync(path, opts.exclusive ? 'wx' : 'w');
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'EEXIST')
        throw ioError(`cannot create log file ${path}`, cause);
      const hint = 'choose another --out, or add --force to overwrite it';
      throw new LogFormatError(`${path} already exists (another run may be writing it)`, {}, { cause, hint });
    }
    const writer = new LogWriter({ path, fd, header, seq: 0, chain: line.chain, bytesWritten: 0 });
    if (opts.index && !writer.gzip)
      writer.index = new IndexRecorder(Buffer.byteLength(line.text), line.chain);
    writer.pending = `${line.text}\n`;
    writer.flush();
    return writer;
  }

  /**
   * Opens for appending a log the caller has just written (its header, last seq and chain
   * value known). With `patchBase` (a delta child whose header names it, format 3), each
   * snapshot line and part is written as a `snapshot-patch` against the base's line of the same
   * rank when the patch is at most half the line; the chain is the full line's either way.
   */
  static appendTo(path: string, known: Pick<WriterState, 'header' | 'seq' | 'chain'>, patchBase?: PatchBase) {
    let fd: number;
    try {
      fd = openSync(path, 'a');
    } catch (cause) {
      throw ioError(`cannot open log file ${path} for appending`, cause);
    }
    const writer = new LogWriter({ path, fd, ...known, bytesWritten: fstatSync(fd).size });
    if (patchBase?.length) [writer.patchBase, writer.patcher] = [patchBase, new PatchSink()];
    return writer;
  }

  /**
   * Appends one event at time `t`; returns its `seq` (a split snapshot's: its `snapshot` line's).
   * `fields`: JSON-safe, without the keys the log owns; a `wall` object is not hashed. A snapshot
   * right after another with the same `state` object reuses its work: do not change it between.
   *
   * @throws LogFormatError on a reserved key, a bad `t` or `type`, a value that is not JSON, a
   *   line over the size a line may hold, or a closed writer.
   */
  append(type: string, t: number, fields: LogFields = {}): number {
    if (type !== 'snapshot') return this.appendLine(type, t, fields);
    const base = this.patchBase;
    const against = base?.[base.length - 1];
    const again = this.last?.state === fields.state ? this.last : null;
    const entry: LastSnapshot = { state: fields.state, size: again?.size ?? estimateJsonSize(fields.state) };
    if (entry.size <= this.split.above) {
      entry.changes = again?.changes;
      const seq = this.appendLine(type, t, fields, against, entry);
      this.last = entry;
      return seq;
    }
    let seq = this.state.seq;
    let part = 0;
    for (const line of splitSnapshotLines(fields, this.split.chars, seq + 1)) {
      // the k-th part against the base's k-th part (if it has one before its snapshot line)
      const to = line.type === 'snapshot' ? against : base && part < base.length - 1 ? base[part] : undefined;
      part++;
      seq = this.appendLine(line.type, t, line.fields, to);
    }
    return seq;
  }

  /** `base`: a line of the parent to write this one against; `snap`: the entry whose changes a patch reuses and sets. */
  private appendLine(type: string, t: number, fields: LogFields, base?: PatchBaseLine, snap?: LastSnapshot) {
    const { path, chain } = this.state;
    this.last = null;
    if (this.closed) throw new LogFormatError(`cannot append to ${path}: the log writer is closed`);
    if (typeof type !== 'string' || type === '')
      throw new LogFormatError(`cannot append to ${path}: event type must be a non-empty string`);
    if (typeof t !== 'number' || !Number.isFinite(t))
      throw new LogFormatError(`cannot append ${type} event to ${path}: t must be a finite number`);
    checkReserved(fields, type);
    const seq = this.state.seq + 1;
    let body: LineBody;
    try {
      body = this.codec.event(type, t, seq, fields);
    } catch (cause) {
      throw unwritable(type, seq, cause);
    }
    // UTF-8 takes at most 3 bytes per code unit: the exact size is counted only for long lines
    if (body.length * 3 + HASH_SUFFIX_LENGTH > MAX_LINE && lineSize(body) > MAX_LINE)
      throw tooLong(type, seq, lineSize(body));
    if (base && this.patcher && !body.hashed) {
      const made = this.patcher.patch(body, chain, base, PATCH_AT_MOST, snap?.changes);
      if (snap) snap.changes = made.changes;
      const patch = made.patch && patchLineText(seq, t, { base: base.seq, ...made.patch }, made.chain);
      if (patch) return this.buffered(type, seq, t, patch, made.chain);
    }
    if (this.gzip || body.length < STREAM_ABOVE || body.hashed) {
      const line = lineText(body, chain);
      return this.buffered(type, seq, t, line.text, line.chain);
    }
    // a long line: the lines before it written first, then it goes to the file as it is encoded
    this.flush();
    const at = this.state.bytesWritten;
    this.index?.line(type, seq, t, 0, chain);
    this.index?.resolve((pos) => at + pos);
    this.streamBuffer ??= Buffer.allocUnsafeSlow(STREAM_BUFFER);
    this.state.chain = streamLine(body, chain, this.streamBuffer, (bytes) => this.write(bytes));
    this.state.seq = seq;
    return seq;
  }

  /** The line `text` goes to the batch written at the next flush. */
  private buffered(type: string, seq: number, t: number, text: string, chain: string): number {
    this.index?.line(type, seq, t, this.pending.length, this.state.chain);
    this.state.seq = seq;
    this.state.chain = chain;
    this.pending += `${text}\n`;
    if (this.pending.length > AUTO_FLUSH_CHARS) this.flush();
    return seq;
  }

  /**
   * Writes the buffered lines to the file at once (for `.gz`, one gzip member); no fsync.
   * @throws LogFormatError when the write fails (a full disk): the writer is then closed.
   */
  flush(): void {
    if (this.pending === '') return;
    const { pending, state } = this;
    const bytes = this.gzip ? gzipSync(pending) : Buffer.from(pending, 'utf8');
    const ascii = bytes.length === pending.length;
    const base = state.bytesWritten;
    this.index?.resolve((pos) => base + (ascii ? pos : Buffer.byteLength(pending.slice(0, pos))));
    this.pending = '';
    this.write(bytes);
  }

  /** Writes `bytes` at the end of the file; a failure closes the writer, so that nothing follows a partial write. */
  private write(bytes: Buffer): void {
    try {
      for (let off = 0; off < bytes.length; ) off += writeSync(this.state.fd, bytes, off, bytes.length - off);
    } catch (cause) {
      this.closed = true;
      try {
        closeSync(this.state.fd);
      } catch {}
      throw ioError(`cannot write log file ${this.state.path}; the writer is closed`, cause);
    }
    this.state.bytesWritten += bytes.length;
  }

  /** Flushes and closes the file; returns the run digest. Calling it again is a no-op. */
  close(): string {
    if (this.closed) return this.state.chain;
    this.flush();
    this.closed = true;
    try {
      closeSync(this.state.fd);
    } catch (cause) {
      throw ioError(`cannot close log file ${this.state.path}`, cause);
    }
    const index = this.index?.finish(this.state.path, this.state.chain);
    if (index) saveParentIndex(this.state.path, index);
    return this.state.chain;
  }

  /** Seq of the last line appended (0 = only the header), flushed or not. */
  get seq(): number {
    return this.state.seq;
  }

  /** Full 64-hex chain value of the last line appended, flushed or not: the run digest so far. */
  get digest(): string {
    return this.state.chain;
  }

  /** The log's format (a continued log keeps the one it was written in). */
  get format(): LogFormat {
    return this.state.header.format;
  }
}

/** The size above which a snapshot is split, and its parts' size (a quarter); `GRAPEVINE_LOG_LINE_BOUND` lowers it, for tests. */
function splitBound(): { above: number; chars: number } {
  const text = process.env.GRAPEVINE_LOG_LINE_BOUND;
  const n = text === undefined || text === '' ? Number.NaN : Number(text);
  const above =
    Number.isInteger(n) && n >= 4 * MIN_PART_CHARS ? Math.min(n, DEFAULT_SPLIT_ABOVE) : DEFAULT_SPLIT_ABOVE;
  return { above, chars: Math.floor(above / 4) };
}
