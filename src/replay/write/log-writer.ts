import { closeSync, fstatSync, mkdirSync, openSync, writeSync, writevSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Base64Text, LogFormatError } from '../../core/index.ts';
import {
  type EncodedBytes,
  type EncodedLine,
  HASH_SUFFIX_LENGTH,
  LineEncoder,
  type LineSink,
  type StreamedLine,
} from '../format/line-codec.ts';
import {
  isGzipPath,
  LOG_FORMAT,
  type LogFields,
  type LogFormat,
  type LogHeader,
  RESERVED_FIELDS,
} from '../format/log-format.ts';
import {
  DEFAULT_SPLIT_ABOVE,
  estimateJsonSize,
  MIN_PART_CHARS,
  SNAPSHOT_PART,
  splitSnapshotLines,
} from '../format/snapshot-split.ts';
import { MAX_LINE } from '../read/byte-lines.ts';
import { saveParentIndex } from '../read/log-index.ts';
import { IndexRecorder } from './index-recorder.ts';
import { prepareResume } from './log-resume.ts';
import { type ColumnChanges, diffLine, patchLineText, snapshotPatch } from './patch-sink.ts';

/** Buffered text (in UTF-16 code units) above which `append` flushes on its own. */
const AUTO_FLUSH_CHARS = 4 * 1024 * 1024;

/**
 * A snapshot of a delta child's parent that the child's snapshots are written against (see
 * `snapshot-patch.ts`): its lines in order (its parts, then its `snapshot` line), each with
 * its seq and bytes (without `\n`).
 */
export type PatchBase = readonly { seq: number; bytes: Buffer }[];

/**
 * A snapshot line (or part) is written as a patch when the patch is at most this share of
 * the line: a patch that saves less costs its reader more than the bytes it saves.
 */
const PATCH_AT_MOST = 0.5;

/** Everything a writer needs to continue a log. */
interface WriterState {
  path: string;
  fd: number;
  header: LogHeader;
  seq: number;
  lastTick: number;
  chain: string;
  bytesWritten: number;
}

/**
 * Appends to a replay log (format: see `log-format.ts`). Lines are built as strings and
 * buffered; {@link LogWriter.flush} writes the buffer with one `writeSync` (one complete
 * gzip member for a `.gz` path), so a process killed at any moment leaves a log that
 * reads up to its last flushed line. The runner flushes at the end of every tick; the
 * writer also flushes by itself when the buffer exceeds 4 MiB.
 *
 * Synchronous by design: the simulation loop is deterministic and single-threaded, and a
 * log line must be in the buffer the moment its event enters the run.
 */
export class LogWriter {
  private readonly state: WriterState;
  private readonly gzip: boolean;
  private readonly encoder: LineEncoder;
  private pending = '';
  private closed = false;
  private readonly split = splitBound();
  /** Builds the verification index of a plain log written from its header (`create` with `index`). */
  private index: IndexRecorder | null = null;
  /** The parent snapshot this delta child's snapshots are patched against (`appendTo` with `patchBase`). */
  private patchBase: PatchBase | null = null;
  /** The `state` of the snapshot appended last, its estimated JSON size, and the seq it ended at (valid while nothing was appended since). */
  private lastEstimate: { state: unknown; size: number; seq: number } | null = null;
  /** The state of the snapshot patched just before (nothing appended since) and its columns' changes. */
  private lastPatched: { state: unknown; changes: ReadonlyMap<Base64Text, ColumnChanges> } | null = null;

  private constructor(state: WriterState, encoder: LineEncoder) {
    this.state = state;
    this.encoder = encoder;
    this.gzip = isGzipPath(state.path);
  }

  /**
   * Creates (or overwrites) the log at `path`, creating missing directories, and writes
   * and flushes the header line at once. `headerFields` are the run's header fields
   * (engine, world, params, seed...); `type`, `seq`, `t`, `format` and `h` are set by the
   * writer and may not be given.
   *
   * With `exclusive`, the file is created only if it does not exist (an atomic check: of
   * two runs started at once with the same path, the second is refused). `format` is
   * {@link LOG_FORMAT} unless given (an older format, to continue a log written in it).
   *
   * With `index` (a plain, not gzip, log), closing the writer after an `end` line also
   * writes the log's verification index `<path>.verified` (see `ParentIndex`), the same
   * that a scan of the finished file builds, so that the first fork of the run is warm.
   * The log's bytes do not change.
   *
   * @throws LogFormatError when the file cannot be created (or exists, with `exclusive`)
   *   or a header field is not JSON.
   */
  static create(
    path: string,
    headerFields: LogFields,
    opts: { exclusive?: boolean; index?: boolean; format?: LogFormat } = {},
  ): LogWriter {
    checkReserved(headerFields, 'header');
    const format = opts.format ?? LOG_FORMAT;
    const header = { ...headerFields, type: 'header', seq: 0, t: 0, format } as LogHeader;
    const encoder = new LineEncoder();
    let encoded: EncodedLine;
    try {
      encoded = encoder.encode(header, null);
    } catch (cause) {
      throw unwritable('header', 0, cause);
    }
    let fd: number;
    try {
      mkdirSync(dirname(path), { recursive: true });
      fd = openSync(path, opts.exclusive ? 'wx' : 'w');
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'EEXIST')
        throw new LogFormatError(
          `${path} already exists (another run may be writing it)`,
          {},
          { cause, hint: 'choose another --out, or add --force to overwrite it' },
        );
      throw ioError(`cannot create log file ${path}`, cause);
    }
    const writer = new LogWriter(
      {
        path,
        fd,
        header,
        seq: 0,
        lastTick: 0,
        chain: encoded.chain,
        bytesWritten: 0,
      },
      encoder,
    );
    if (opts.index && !writer.gzip)
      writer.index = new IndexRecorder(Buffer.byteLength(encoded.text), encoded.chain);
    writer.pending = `${encoded.text}\n`;
    writer.flush();
    return writer;
  }

  /**
   * Opens a log that the caller has just written and knows (its header, last seq, last
   * tick and chain value) for appending, without reading it again. With `patchBase` (a
   * delta child whose header names those lines as its base, format 3), each snapshot line
   * and part is written as a `snapshot-patch` against the base's line of the same rank
   * (parts by index, the `snapshot` line against the base's) when the patch is at most half
   * the line; the chain is the full line's either way.
   */
  static appendTo(
    path: string,
    known: { header: LogHeader; seq: number; lastTick: number; chain: string },
    opts: { patchBase?: PatchBase } = {},
  ): LogWriter {
    let fd: number;
    try {
      fd = openSync(path, 'a');
    } catch (cause) {
      throw ioError(`cannot open log file ${path} for appending`, cause);
    }
    const writer = new LogWriter(
      {
        path,
        fd,
        header: known.header,
        seq: known.seq,
        lastTick: known.lastTick,
        chain: known.chain,
        bytesWritten: fstatSync(fd).size,
      },
      new LineEncoder(),
    );
    if (opts.patchBase && opts.patchBase.length > 0) writer.patchBase = opts.patchBase;
    return writer;
  }

  /**
   * Opens an existing log for appending. The whole log is read and verified first; if it
   * ends with a partial line (or a partial gzip member), the file is cut back to its last
   * complete line before anything is appended, so the resumed log is byte-identical in
   * content (and digest) to one written in one go.
   *
   * @throws LogFormatError when the log is missing, not a grapevine log, or fails
   *   verification, or when it cannot be opened for writing.
   */
  static async resume(path: string): Promise<LogWriter> {
    const resumed = await prepareResume(path);
    let fd: number;
    try {
      fd = openSync(path, 'a');
    } catch (cause) {
      throw ioError(`cannot open log file ${path} for appending`, cause);
    }
    const { summary } = resumed;
    return new LogWriter(
      {
        path,
        fd,
        header: summary.header,
        seq: summary.lastSeq,
        lastTick: summary.lastTick,
        chain: summary.digest,
        bytesWritten: resumed.size,
      },
      new LineEncoder(),
    );
  }

  /**
   * Appends one event at simulation time `t` and returns its `seq`. The line is built and
   * chained now and written at the next flush (a line of a plain log over 1 Mi code units,
   * such as a snapshot part: now, after the lines before it, from the bytes it was hashed from;
   * a long `snapshot` line not written as a patch: now, as it is encoded, through one reused
   * buffer, see `LineEncoder.encodeEventForWrite`). A `snapshot` whose `state` is larger than
   * the split bound (16 Mi code units, or `GRAPEVINE_LOG_LINE_BOUND`) is written as
   * `snapshot-part` lines and then its `snapshot` line, whose seq is returned (see
   * `splitSnapshotLines`). A snapshot appended right after another (nothing appended
   * between) with the very same `state` object reuses that object's JSON (see
   * `LineEncoder`): do not change it between the two. `fields` must be JSON-safe and may not use
   * the keys `seq`, `t`, `type`, `h` or `format`; a `wall` field (an object) is written but
   * not hashed.
   *
   * @throws LogFormatError on a reserved key, a non-finite `t`, an empty `type`, a
   *   non-JSON value, or a closed writer.
   */
  append(type: string, t: number, fields: LogFields = {}): number {
    if (type !== 'snapshot') return this.appendLine(type, t, fields);
    const base = this.patchBase;
    const last = base?.[base.length - 1];
    // a final snapshot right after the periodic one has its state: not walked again
    const known = this.lastEstimate;
    const size =
      known !== null && known.state === fields.state && known.seq === this.state.seq
        ? known.size
        : estimateJsonSize(fields.state);
    if (size <= this.split.above) {
      const seq = this.appendLine(type, t, fields, last);
      this.lastEstimate = { state: fields.state, size, seq };
      return seq;
    }
    this.lastEstimate = null;
    let seq = this.state.seq;
    let part = 0;
    for (const line of splitSnapshotLines(fields, this.split.chars, seq + 1, base !== null && !this.gzip)) {
      // the k-th part against the base's k-th part (if it has one before its snapshot line)
      const against =
        line.type === 'snapshot' ? last : base && part < base.length - 1 ? base[part] : undefined;
      part++;
      seq = this.appendLine(line.type, t, line.fields, against);
    }
    return seq;
  }

  /** `base`: a line of the parent to write this one against as a patch (see {@link LogWriter.appendTo}). */
  private appendLine(
    type: string,
    t: number,
    fields: LogFields,
    base?: { seq: number; bytes: Buffer },
  ): number {
    const state = this.state;
    if (this.closed) throw new LogFormatError(`cannot append to ${state.path}: the log writer is closed`);
    if (typeof type !== 'string' || type === '')
      throw new LogFormatError(`cannot append to ${state.path}: event type must be a non-empty string`);
    if (typeof t !== 'number' || !Number.isFinite(t))
      throw new LogFormatError(`cannot append ${type} event to ${state.path}: t must be a finite number`);
    checkReserved(fields, type);
    const seq = state.seq + 1;
    const patched = this.lastPatched;
    this.lastPatched = null;
    if (base && !this.gzip && (type === 'snapshot' || type === SNAPSHOT_PART)) {
      const line = this.patchParts(type, t, seq, fields, base, patched);
      if (line !== undefined) return this.buffered(seq, t, line);
    }
    let encoded: EncodedLine | EncodedBytes | StreamedLine;
    try {
      // a long line of a plain log comes as bytes, written by itself (see encodeEventForWrite);
      // a long snapshot line not patched is written as it is encoded
      encoded = this.gzip
        ? this.encoder.encodeEvent(type, t, seq, fields, state.chain)
        : base
          ? this.encoder.encodeEventForWrite(type, t, seq, fields, state.chain)
          : this.encoder.encodeEventForWrite(type, t, seq, fields, state.chain, this.sinkFor(type, seq, t));
    } catch (cause) {
      // a line too long, or a failed write (the writer is then closed), is reported as it is
      if (cause instanceof LogFormatError) throw cause;
      throw unwritable(type, seq, cause);
    }
    if ('written' in encoded) return this.advance(seq, t, encoded.chain);
    const patch = base ? patchOf(encoded, base, seq, t) : undefined;
    if (patch !== undefined) encoded = { text: patch, chain: encoded.chain };
    if ('bytes' in encoded) {
      const size = byteCount(encoded.bytes) - 1;
      if (size > MAX_LINE) throw tooLong(type, seq, size);
      this.flush();
      this.index?.line(type, seq, t, 0, state.chain);
      this.advance(seq, t, encoded.chain);
      this.index?.writtenAlone(state.bytesWritten);
      this.write(encoded.bytes);
      return seq;
    }
    // A line the reader would refuse is never written (UTF-8 takes at most 3 bytes per code unit).
    if (encoded.text.length * 3 > MAX_LINE && Buffer.byteLength(encoded.text) > MAX_LINE)
      throw tooLong(type, seq, Buffer.byteLength(encoded.text));
    this.index?.line(type, seq, t, this.pending.length, state.chain);
    return this.buffered(seq, t, encoded);
  }

  /** Event `seq` at `t` is in the log (written, or about to be), its line chained to `chain`. */
  private advance(seq: number, t: number, chain: string): number {
    this.state.seq = seq;
    this.state.lastTick = t;
    this.state.chain = chain;
    return seq;
  }

  /** {@link LogWriter.advance}, the line's text going to the buffer flushed at the next flush. */
  private buffered(seq: number, t: number, line: EncodedLine): number {
    this.advance(seq, t, line.chain);
    this.pending += `${line.text}\n`;
    if (this.pending.length > AUTO_FLUSH_CHARS) this.flush();
    return seq;
  }

  /**
   * A snapshot line as a patch against `base` built from the line's parts (see
   * `snapshotPatch`: the columns are compared chunk by chunk, the full line is never built),
   * or undefined when that does not apply or the patch would be too large (the caller then
   * encodes the line and diffs it). The same text and chain as that path.
   */
  private patchParts(
    type: string,
    t: number,
    seq: number,
    fields: LogFields,
    base: { seq: number; bytes: Buffer },
    patched: { state: unknown; changes: ReadonlyMap<Base64Text, ColumnChanges> } | null,
  ): EncodedLine | undefined {
    if (this.index !== null) return undefined; // a run's own log is never a delta child
    let parts: ReturnType<LineEncoder['eventParts']>;
    try {
      parts = this.encoder.eventParts(type, t, seq, fields);
    } catch {
      return undefined; // the usual path reports it
    }
    if (parts === undefined) return undefined;
    // a line too long is reported by the usual path, before any patch is made
    let size = HASH_SUFFIX_LENGTH - 1;
    for (const part of parts) size += part.length;
    if (size > MAX_LINE) return undefined;
    const same = patched !== null && fields.state !== undefined && patched.state === fields.state;
    const known = same ? patched.changes : undefined;
    const made = snapshotPatch(base.bytes, parts, this.state.chain, PATCH_AT_MOST, known);
    if (made?.patch === undefined) return undefined;
    this.lastPatched = { state: fields.state, changes: made.changes };
    return { text: patchLineText(seq, t, { base: base.seq, ...made.patch }, made.chain), chain: made.chain };
  }

  /**
   * Writes the buffered lines to the file with a single write (for `.gz`, one complete
   * gzip member). Does nothing when the buffer is empty. Does not fsync.
   *
   * @throws LogFormatError when the write fails (disk full, file closed under us); the
   *   writer is then closed, and {@link LogWriter.resume} can continue the log.
   */
  flush(): void {
    if (this.pending === '') return;
    const bytes = this.gzip ? gzipSync(this.pending) : Buffer.from(this.pending, 'utf8');
    this.index?.flushed(this.state.bytesWritten, this.pending, bytes);
    this.pending = '';
    this.write(bytes);
  }

  /**
   * Where the encoder writes a long line as it encodes it: the lines before it first, then the
   * line's bytes straight to the file (each write synchronous, so the encoder may reuse its buffer).
   */
  private sinkFor(type: string, seq: number, t: number): LineSink {
    return {
      begin: (size) => {
        if (size > MAX_LINE) throw tooLong(type, seq, size);
        this.flush();
        this.index?.line(type, seq, t, 0, this.state.chain);
        this.index?.writtenAlone(this.state.bytesWritten);
      },
      write: (bytes) => this.write(bytes),
    };
  }

  /** Writes `bytes` (one buffer, or several in order) at the end of the file (see {@link LogWriter.flush} for failures). */
  private write(bytes: Buffer | Buffer[]): void {
    const size = byteCount(bytes);
    try {
      if (Array.isArray(bytes)) writeAll(this.state.fd, bytes, size);
      else {
        let off = 0;
        while (off < bytes.length) off += writeSync(this.state.fd, bytes, off, bytes.length - off);
      }
    } catch (cause) {
      // The file may now end with part of this write: stop here, so that nothing is
      // appended after it. LogWriter.resume can cut it back and continue.
      this.closed = true;
      try {
        closeSync(this.state.fd);
      } catch {}
      throw ioError(`cannot write log file ${this.state.path}; the writer is closed`, cause);
    }
    this.state.bytesWritten += size;
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

  /** Simulation time of the last line appended (0 = only the header). */
  get lastTick(): number {
    return this.state.lastTick;
  }

  /** Full 64-hex chain value of the last line appended, flushed or not: the run digest so far. */
  get digest(): string {
    return this.state.chain;
  }

  /** The log's format (a resumed or continued log keeps the one it was written in). */
  get format(): LogFormat {
    return this.state.header.format;
  }

  /** The header of this log (for a resumed log, the one read from the file). */
  get header(): LogHeader {
    return this.state.header;
  }

  /** Path of the log file. */
  get path(): string {
    return this.state.path;
  }

  /** Size of the file so far (compressed bytes for `.gz`), not counting buffered lines. */
  get bytesWritten(): number {
    return this.state.bytesWritten;
  }
}

/**
 * The size above which a snapshot is split, and its parts' size (a quarter of it). The
 * environment variable `GRAPEVINE_LOG_LINE_BOUND` (code units) lowers it, for tests; a
 * reader needs nothing, since a split snapshot records its part size.
 */
function splitBound(): { above: number; chars: number } {
  const text = process.env.GRAPEVINE_LOG_LINE_BOUND;
  const n = text === undefined || text === '' ? Number.NaN : Number(text);
  const above =
    Number.isInteger(n) && n >= 4 * MIN_PART_CHARS ? Math.min(n, DEFAULT_SPLIT_ABOVE) : DEFAULT_SPLIT_ABOVE;
  return { above, chars: Math.floor(above / 4) };
}

/** The text of a patch line for `encoded` against `base`, or undefined when the patch would be over {@link PATCH_AT_MOST} of the line. */
function patchOf(
  encoded: EncodedLine | EncodedBytes,
  base: { seq: number; bytes: Buffer },
  seq: number,
  t: number,
): string | undefined {
  let line: Buffer;
  if ('text' in encoded) line = Buffer.from(encoded.text, 'utf8');
  else {
    const bytes = Array.isArray(encoded.bytes) ? joined(encoded.bytes) : encoded.bytes;
    line = bytes.subarray(0, bytes.length - 1); // without its \n
  }
  const patch = diffLine(base.bytes, line, line.length * PATCH_AT_MOST);
  return patch && patchLineText(seq, t, { base: base.seq, ...patch }, encoded.chain);
}

/**
 * One buffer of a line given in pieces. A snapshot written right after another with the
 * same state comes as [head, state, tail], the state a view into the bytes of the line
 * before (see `LineEncoder`), which is not needed any more once written or patched: when
 * head and tail fit around the state there, they are copied in place of the old ones
 * (a new buffer of 4 MB costs ~14 ms of page faults on the 2-vCPU VM; the state bytes the
 * encoder keeps are not touched).
 */
function joined(pieces: Buffer[]): Buffer {
  const [head, state, tail] = pieces;
  const size = byteCount(pieces);
  const at = state.byteOffset - head.length;
  // never in Node's shared pool of small buffers (these lines are megabytes, but be sure)
  const own = state.buffer.byteLength > Buffer.poolSize;
  if (pieces.length !== 3 || !own || at < 0 || at + size > state.buffer.byteLength)
    return Buffer.concat(pieces);
  const line = Buffer.from(state.buffer, at, size);
  line.set(head, 0);
  line.set(tail, head.length + state.length);
  return line;
}

function byteCount(bytes: Buffer | Buffer[]): number {
  return Array.isArray(bytes) ? bytes.reduce((n, b) => n + b.length, 0) : bytes.length;
}

/** Writes the buffers in order with `writev`, going on after a short write. */
function writeAll(fd: number, buffers: Buffer[], size: number): void {
  let left = buffers;
  for (let done = writevSync(fd, left); done < size; ) {
    // a short write: drop what was written, then write the rest
    let skip = done;
    left = buffers.flatMap((b) => {
      if (skip >= b.length) {
        skip -= b.length;
        return [];
      }
      const rest = b.subarray(skip);
      skip = 0;
      return [rest];
    });
    done += writevSync(fd, left);
  }
}

function tooLong(type: string, seq: number, bytes: number): LogFormatError {
  return new LogFormatError(
    `cannot write ${type} line (seq ${seq}): it is ${(bytes / 2 ** 20).toFixed(0)} MiB, over the ${MAX_LINE / 2 ** 20} MiB a log line may hold`,
    { seq },
    {
      hint: `this ${type} event grows with the population (snapshots are split into parts, other events are not); run fewer agents, a sparser network or --log minimal`,
    },
  );
}

function checkReserved(fields: LogFields, what: string): void {
  for (const key of RESERVED_FIELDS)
    if (Object.hasOwn(fields, key))
      throw new LogFormatError(
        `cannot write ${what} line: the field ${key} is set by the log writer`,
        {},
        { hint: `the fields ${RESERVED_FIELDS.join(', ')} are reserved; rename the payload field` },
      );
}

function unwritable(type: string, seq: number, cause: unknown): LogFormatError {
  return new LogFormatError(
    `cannot write ${type} line (seq ${seq}): ${(cause as Error).message}`,
    { seq },
    { cause, hint: 'log fields must be JSON-safe: plain objects, arrays, strings, finite numbers' },
  );
}

function ioError(message: string, cause: unknown): LogFormatError {
  const code = (cause as NodeJS.ErrnoException).code;
  const reason = code ?? (cause as Error).message;
  const hint =
    code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG'
      ? 'free disk space (or lift the file size limit), then resume the run'
      : 'check the path and its permissions';
  return new LogFormatError(`${message}: ${reason}`, {}, { cause, hint });
}
