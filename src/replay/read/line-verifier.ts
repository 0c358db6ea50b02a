import { LogFormatError } from '../../core/index.ts';
import { HASH_SUFFIX_LENGTH } from '../format/chain.ts';
import { type EncodedLine, LineCodec } from '../format/line-codec.ts';
import {
  isReadableFormat,
  LOG_FORMAT,
  type LogHeader,
  type LogLine,
  READABLE_FORMATS,
} from '../format/log-format.ts';
import { SNAPSHOT_PART } from '../format/snapshot-split.ts';
import { rawBodyEnd, rawEventChain, rawLineHash, rawLineKind } from './raw-line.ts';
import { parseSnapshotLine } from './snapshot-line.ts';

const TAMPER_HINT = 'the log was damaged or edited after it was written; restore it from a copy or rerun';

/** How a log's lines are checked (see `ReadLogOptions.verify`). */
export type VerifyMode = boolean | 'chain';

/** Which `snapshot` and `snapshot-part` lines read over their bytes are parsed (see `ReadLogOptions.parse`). */
export type ParseRule = (line: { seq: number; t: number; type: string; size: number }) => boolean;

/** The `event` of a line read without being parsed. */
const UNPARSED: Record<string, unknown> = Object.freeze({});

/** True for a line read without being parsed (see `ReadLogOptions.parse`): its `event` and `raw` are empty. */
export function isUnparsed(line: LogLine): boolean {
  return line.event === UNPARSED;
}

/**
 * Checks the lines of one log in order, as they are read, and turns each into a
 * {@link LogLine}. It checks, in this order: the line is JSON, it is a header (line 1) or
 * an event (`seq`, `t`, `type`), its `seq` follows the previous one, its bytes are exactly
 * what the writer would write for it, and its `h` continues the hash chain. With
 * `verify: false` only the first three checks run; with `'chain'`, a line given as bytes
 * ({@link LineVerifier.acceptBytes}) has its chain computed over its bytes as they are, and is
 * parsed only when the caller asks (its canonical form is not checked: a rerun proves it).
 *
 * The first failing check throws a {@link LogFormatError} whose message names the line,
 * the seq expected there and, when known, the tick.
 */
export class LineVerifier {
  /** The header, once line 1 has been accepted. */
  header: LogHeader | null = null;
  /** Number of lines accepted. */
  lines = 0;
  /** Seq of the last line accepted (-1 before the header). */
  lastSeq = -1;
  /** Simulation time of the last line accepted. */
  lastTick = 0;
  /** Type of the last line accepted. */
  lastType = '';
  /** Full chain value after the last line accepted (null before the header or without verify). */
  chain: string | null = null;
  private readonly codec = new LineCodec();

  constructor(
    private readonly path: string,
    private readonly verify: VerifyMode,
  ) {}

  /** How this verifier checks lines. */
  get mode(): VerifyMode {
    return this.verify;
  }

  /** Verifies the next line (its text without `\n`) and returns it parsed. */
  accept(raw: string): LogLine {
    const line = this.next();
    const record = this.parse(raw, line);
    const h = record.h;
    delete record.h;
    if (this.verify) this.checkBytes(record, raw, h, line);
    if (line === 1) this.header = record as LogHeader;
    return this.taken({
      seq: record.seq as number,
      t: record.t as number,
      type: record.type as string,
      line,
      raw,
      event: record,
    });
  }

  /**
   * Verifies the next line given as bytes (without `\n`, starting at byte `offset`). With
   * `verify: 'chain'`, an event line whose `h` and hashed body are found in its bytes is
   * chained over them; a `snapshot` or `snapshot-part` line that `parse` declines comes with
   * an empty `event` and `raw`; the snapshot a continuation restores (`restored`) is parsed
   * with its columns decoded (`parseSnapshotLine`). A parsed snapshot line or part keeps a
   * copy of its bytes unless `stable` (they are not overwritten later). Any other line is
   * checked as {@link LineVerifier.accept} checks it.
   */
  acceptBytes(bytes: Buffer, offset: number, parse: ParseRule, restored = false, stable = false): LogLine {
    const hash = this.verify === 'chain' && this.lines > 0 ? rawLineHash(bytes) : null;
    const bodyEnd = hash === null ? null : rawBodyEnd(bytes);
    if (bodyEnd === null) {
      const out = this.accept(this.decode(bytes, this.lines + 1));
      out.offset = offset;
      return out;
    }
    const line = this.next();
    const seq = this.lastSeq + 1;
    const chain = rawEventChain(bytes, this.chain as string, bodyEnd);
    if (chain.slice(0, 16) !== hash)
      throw this.fail(
        `line ${line} (seq ${seq}) does not match the hash chain: the log was modified at or before this line`,
        line,
      );
    this.chain = chain;
    const kind = rawLineKind(bytes);
    const snapshotish = kind?.type === 'snapshot' || kind?.type === SNAPSHOT_PART;
    if (kind && snapshotish && !restored && !parse({ seq, t: kind.t, type: kind.type, size: bytes.length }))
      return this.taken({ seq, t: kind.t, type: kind.type, line, raw: '', event: UNPARSED, chain, offset });
    const fast = restored ? parseSnapshotLine(bytes) : undefined;
    const text = fast === undefined ? this.decode(bytes, line) : undefined;
    const record = fast?.event ?? this.parse(text as string, line);
    delete record.h;
    if (fast !== undefined && record.seq !== seq)
      throw this.fail(`line ${line}: expected seq ${seq} but found seq ${record.seq}`, line);
    const out: LogLine = {
      seq,
      t: record.t as number,
      type: record.type as string,
      line,
      raw: text ?? '',
      event: record,
      chain,
      offset,
    };
    if (out.type === 'snapshot' || out.type === SNAPSHOT_PART) {
      const kept = stable ? bytes : Buffer.from(bytes);
      out.bytes = kept;
      if (fast) out.longStrings = fast.longStrings;
      if (text === undefined)
        Object.defineProperty(out, 'raw', { enumerable: true, get: () => kept.toString('utf8') });
    }
    return this.taken(out);
  }

  /**
   * Takes the place of the lines not read: those before `seq + 1` (a read from an index,
   * or a delta child's past read from its parent), with `header`, the tick and chain value
   * at `seq` (null without verify); the next line must be `seq + 1`.
   */
  continueAfter(header: LogHeader, seq: number, tick: number, chain: string | null): void {
    this.header = header;
    this.lastSeq = seq;
    this.lastTick = tick;
    this.lastType = '';
    if (this.verify) this.chain = chain;
  }

  /** Re-raises an error of the line source with this verifier's position (expected seq, tick). */
  locate(err: unknown): unknown {
    if (!(err instanceof LogFormatError) || err.position.line === undefined || this.lines === 0) return err;
    const where = `(expected seq ${this.lastSeq + 1}, after tick ${this.lastTick})`;
    return new LogFormatError(
      `${err.message} ${where}`,
      { line: err.position.line, seq: this.lastSeq + 1, tick: this.lastTick },
      { cause: err.cause ?? err, hint: err.hint },
    );
  }

  /** The UTF-8 text of line `line`. @throws LogFormatError when its bytes are not valid UTF-8. */
  private decode(bytes: Buffer, line: number): string {
    const text = bytes.toString('utf8');
    if (text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(bytes))
      throw this.locate(
        new LogFormatError(
          `line ${line} of ${this.path} is not valid UTF-8`,
          { line },
          {
            hint: 'the log was damaged or edited; restore it from a copy or rerun',
          },
        ),
      );
    return text;
  }

  /** The number of the next line; refused after an `end` line. */
  private next(): number {
    const line = this.lines + 1;
    if (this.lastType === 'end')
      throw this.fail(
        `line ${line} follows the end line (seq ${this.lastSeq}): a finished log has nothing after its end`,
        line,
      );
    return line;
  }

  private taken(out: LogLine): LogLine {
    this.lines = out.line;
    this.lastSeq = out.seq;
    this.lastTick = out.t;
    this.lastType = out.type;
    if (this.chain !== null && out.chain === undefined) out.chain = this.chain;
    return out;
  }

  private parse(raw: string, line: number): Record<string, unknown> {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (cause) {
      if (line === 1) throw this.notALog('line 1 is not JSON', cause);
      throw this.fail(
        `line ${line} (expected seq ${this.lastSeq + 1}) is not valid JSON`,
        line,
        undefined,
        cause,
      );
    }
    const record = isRecord(value) ? value : null;
    if (line === 1) return this.checkHeader(record);
    const problem = eventProblem(record);
    if (problem !== null)
      throw this.fail(`line ${line} (expected seq ${this.lastSeq + 1}) is not a log event: ${problem}`, line);
    const rec = record as Record<string, unknown>;
    if (rec.seq !== this.lastSeq + 1)
      throw this.fail(
        `line ${line}: expected seq ${this.lastSeq + 1} but found seq ${rec.seq} (tick ${rec.t}): ` +
          'a line is missing, duplicated or out of order',
        line,
        rec.t as number,
      );
    return rec;
  }

  private checkHeader(record: Record<string, unknown> | null): Record<string, unknown> {
    if (record === null || record.type !== 'header' || typeof record.format !== 'string')
      throw this.notALog('line 1 is not a grapevine log header');
    if (!isReadableFormat(record.format))
      throw new LogFormatError(
        `${this.path} was written by format ${formatNumber(record.format)}; this grapevine reads formats ${READABLE_FORMATS.map(
          formatNumber,
        )
          .join(', ')
          .replace(/, (?=[^,]*$)/, ' and ')}`,
        { line: 1, seq: 0, tick: 0 },
        { hint: 'use the grapevine version that wrote the log' },
      );
    if (record.seq !== 0 || record.t !== 0)
      throw this.fail('line 1 (the header) must have seq 0 and t 0', 1, 0);
    return record;
  }

  private checkBytes(record: Record<string, unknown>, raw: string, h: unknown, line: number): void {
    const seq = record.seq as number;
    const tick = record.t as number;
    const at = `line ${line} (seq ${seq}, tick ${tick})`;
    let encoded: EncodedLine;
    try {
      if (h === undefined) throw new TypeError('it has no h');
      encoded = this.codec.encode(record, this.chain);
    } catch (cause) {
      throw this.fail(`${at} is not a valid log line: ${(cause as Error).message}`, line, tick, cause);
    }
    if (encoded.text !== raw) {
      const cut = raw.length - HASH_SUFFIX_LENGTH;
      const sameBody =
        raw.length === encoded.text.length &&
        raw.slice(0, cut) === encoded.text.slice(0, cut) &&
        typeof h === 'string';
      if (!sameBody)
        throw this.fail(`${at} is not in canonical form: the log was modified at this line`, line, tick);
      throw this.fail(
        `${at} does not match the hash chain: the log was modified at or before this line`,
        line,
        tick,
      );
    }
    this.chain = encoded.chain;
  }

  private fail(message: string, line: number, tick?: number, cause?: unknown): LogFormatError {
    const seq = this.lastSeq + 1;
    const position = tick === undefined ? { line, seq } : { line, seq, tick };
    return new LogFormatError(`${this.path}: ${message}`, position, { cause, hint: TAMPER_HINT });
  }

  private notALog(reason: string, cause?: unknown): LogFormatError {
    return new LogFormatError(
      `${this.path} is not a grapevine log: ${reason}`,
      { line: 1, seq: 0 },
      { cause, hint: `a grapevine log starts with a header line of format ${LOG_FORMAT}` },
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function eventProblem(record: Record<string, unknown> | null): string | null {
  if (record === null) return 'not a JSON object';
  if (typeof record.seq !== 'number' || !Number.isInteger(record.seq)) return 'seq is not an integer';
  if (typeof record.t !== 'number' || !Number.isFinite(record.t)) return 't is not a number';
  if (typeof record.type !== 'string' || record.type === '') return 'type is not a non-empty string';
  return null;
}

/** The version of a format name (`grapevine-log/1` -> `1`), or the whole name when it is another kind. */
function formatNumber(format: string): string {
  return /^grapevine-log\/(\d+)$/.exec(format)?.[1] ?? JSON.stringify(format);
}
