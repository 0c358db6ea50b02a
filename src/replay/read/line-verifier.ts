import { LogFormatError } from '../../core/index.ts';
import { chainHash, HASH_SUFFIX_LENGTH } from '../format/chain.ts';
import { LineCodec } from '../format/line-codec.ts';
import {
  DAMAGED,
  isReadableFormat,
  LOG_FORMAT,
  type LogHeader,
  type LogLine,
  logError,
  READABLE_FORMATS,
} from '../format/log-format.ts';
import { SNAPSHOT_PART } from '../format/snapshot-split.ts';
import { rawLine } from './raw-line.ts';
import { parseSnapshotLine } from './snapshot-line.ts';

/** How a log's lines are checked (see `ReadLogOptions.verify`). */
export type VerifyMode = boolean | 'chain';

/** Which `snapshot` and `snapshot-part` lines read over their bytes are parsed (see `ReadLogOptions.parse`). */
export type ParseRule = (line: { seq: number; t: number; type: string; size: number }) => boolean;

const BROKEN_CHAIN = 'does not match the hash chain: the log was modified at or before this line';

/** The `event` of a line read without being parsed. */
const UNPARSED: Record<string, unknown> = Object.freeze({});

/** True for a line read without being parsed (see `ReadLogOptions.parse`): its `event` and `raw` are empty. */
export function isUnparsed(line: LogLine): boolean {
  return line.event === UNPARSED;
}

/**
 * Checks the lines of one log in order, as they are read (docs/LOG-FORMAT.md, "Verification"),
 * and turns each into a {@link LogLine}. With `verify: false` only JSON, line shape and seq
 * order are checked; with `'chain'`, an event line is chained over its bytes as they are and
 * parsed once, not encoded again (a rerun proves its bytes).
 */
export class LineVerifier {
  /** The header once line 1 is accepted; lines accepted (or stood for, see {@link LineVerifier.continueAfter}). */
  header: LogHeader | null = null;
  lines = 0;
  /** Seq (-1 before the header), tick, type and full chain value (null without verify) after the last line accepted. */
  lastSeq = -1;
  lastTick = 0;
  lastType = '';
  chain: string | null = null;
  private readonly codec = new LineCodec();

  constructor(
    private readonly path: string,
    readonly mode: VerifyMode,
  ) {}

  /**
   * Verifies the next line given as bytes (without `\n`, at byte `offset` of the file). With
   * `verify: 'chain'`: a `snapshot` or `snapshot-part` line that `parse` declines comes with an
   * empty `event` and `raw`; the snapshot a continuation restores (`restored`) is parsed with
   * its columns decoded (`parseSnapshotLine`); a parsed snapshot line or part keeps its bytes
   * (a copy, unless `stable`: not overwritten later).
   */
  acceptBytes(bytes: Buffer, offset: number, parse: ParseRule, restored = false, stable = false): LogLine {
    const raw = this.mode === 'chain' && this.lines > 0 ? rawLine(bytes) : null;
    const line = this.next();
    if (raw === null) {
      const text = this.decode(bytes, line);
      const record = this.parse(text, line);
      const { h } = record;
      delete record.h;
      if (this.mode) this.checkBytes(record, text, h, line);
      if (line === 1) this.header = record as LogHeader;
      const { seq, t, type } = record as { seq: number; t: number; type: string };
      return this.taken({ seq, t, type, line, raw: text, event: record, offset });
    }
    const seq = this.lastSeq + 1;
    const chain = chainHash(this.chain as string, [bytes.subarray(0, raw.bodyEnd), '}']);
    if (chain.slice(0, 16) !== raw.hash) throw this.fail(`line ${line} (seq ${seq}) ${BROKEN_CHAIN}`, line);
    this.chain = chain;
    const { kind } = raw;
    const snapshotish = kind?.type === 'snapshot' || kind?.type === SNAPSHOT_PART;
    if (kind && snapshotish && !restored && !parse({ seq, t: kind.t, type: kind.type, size: bytes.length }))
      return this.taken({ seq, t: kind.t, type: kind.type, line, raw: '', event: UNPARSED, chain, offset });
    const fast = restored ? parseSnapshotLine(bytes) : undefined;
    const text = fast === undefined ? this.decode(bytes, line) : undefined;
    const record = fast?.event ?? this.parse(text as string, line);
    delete record.h;
    if (record.seq !== seq)
      throw this.fail(`line ${line}: expected seq ${seq} but found seq ${record.seq}`, line);
    const t = record.t as number;
    const type = record.type as string;
    const out: LogLine = { seq, t, type, line, raw: text ?? '', event: record, chain, offset };
    if (out.type === 'snapshot' || out.type === SNAPSHOT_PART) {
      const kept = stable ? bytes : Buffer.from(bytes);
      out.bytes = kept;
      out.longStrings = fast?.longStrings;
      if (text === undefined)
        Object.defineProperty(out, 'raw', { enumerable: true, get: () => kept.toString('utf8') });
    }
    return this.taken(out);
  }

  /**
   * Stands for the lines up to `seq` not read here (a delta child's past, read from its
   * parent, or the lines before an index's restore point): `header`, and the tick and chain
   * value (null without verify) at `seq`. The next line must be `seq + 1`.
   */
  continueAfter(header: LogHeader, seq: number, tick: number, chain: string | null): void {
    this.header = header;
    this.lastSeq = seq;
    this.lastTick = tick;
    this.lastType = '';
    if (this.mode) this.chain = chain;
  }

  /** Re-raises an error of the line source with this verifier's position (expected seq, tick). */
  locate(err: unknown): unknown {
    if (!(err instanceof LogFormatError) || err.position.line === undefined || this.lines === 0) return err;
    const where = `(expected seq ${this.lastSeq + 1}, after tick ${this.lastTick})`;
    const position = { line: err.position.line, seq: this.lastSeq + 1, tick: this.lastTick };
    return logError(`${err.message} ${where}`, position, err.hint, err.cause ?? err);
  }

  /** The UTF-8 text of line `line`. @throws LogFormatError when its bytes are not valid UTF-8. */
  private decode(bytes: Buffer, line: number): string {
    const text = bytes.toString('utf8');
    if (text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(bytes))
      throw this.locate(logError(`line ${line} of ${this.path} is not valid UTF-8`, { line }));
    return text;
  }

  /** The number of the next line; refused after an `end` line. */
  private next(): number {
    const line = this.lines + 1;
    const after = `line ${line} follows the end line (seq ${this.lastSeq})`;
    if (this.lastType === 'end') throw this.fail(`${after}: a finished log has nothing after its end`, line);
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
    const expected = `line ${line} (expected seq ${this.lastSeq + 1})`;
    try {
      value = JSON.parse(raw);
    } catch (cause) {
      if (line === 1) throw this.notALog('line 1 is not JSON', cause);
      throw this.fail(`${expected} is not valid JSON`, line, undefined, cause);
    }
    const record =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : null;
    if (line === 1) return this.checkHeader(record);
    const problem = eventProblem(record);
    if (problem !== null) throw this.fail(`${expected} is not a log event: ${problem}`, line);
    const rec = record as Record<string, unknown>;
    const found = `line ${line}: expected seq ${this.lastSeq + 1} but found seq ${rec.seq} (tick ${rec.t})`;
    if (rec.seq !== this.lastSeq + 1)
      throw this.fail(`${found}: a line is missing, duplicated or out of order`, line, rec.t as number);
    return rec;
  }

  private checkHeader(record: Record<string, unknown> | null): Record<string, unknown> {
    if (record === null || record.type !== 'header' || typeof record.format !== 'string')
      throw this.notALog('line 1 is not a grapevine log header');
    if (!isReadableFormat(record.format)) {
      const readable = READABLE_FORMATS.map(formatNumber)
        .join(', ')
        .replace(/, (?=[^,]*$)/, ' and ');
      const message = `${this.path} was written by format ${formatNumber(record.format)}; this grapevine reads formats ${readable}`;
      throw logError(message, { line: 1, seq: 0, tick: 0 }, 'use the grapevine version that wrote the log');
    }
    if (record.seq !== 0 || record.t !== 0)
      throw this.fail('line 1 (the header) must have seq 0 and t 0', 1, 0);
    return record;
  }

  private checkBytes(record: Record<string, unknown>, raw: string, h: unknown, line: number): void {
    const tick = record.t as number;
    const at = `line ${line} (seq ${record.seq}, tick ${tick})`;
    let encoded: { text: string; chain: string };
    try {
      if (h === undefined) throw new TypeError('it has no h');
      encoded = this.codec.encode(record, this.chain);
    } catch (cause) {
      throw this.fail(`${at} is not a valid log line: ${(cause as Error).message}`, line, tick, cause);
    }
    if (encoded.text !== raw) {
      // the same bytes but for `h`: the body is canonical, its chain is not
      const cut = raw.length - HASH_SUFFIX_LENGTH;
      if (
        typeof h !== 'string' ||
        encoded.text.length !== raw.length ||
        encoded.text.slice(0, cut) !== raw.slice(0, cut)
      )
        throw this.fail(`${at} is not in canonical form: the log was modified at this line`, line, tick);
      throw this.fail(`${at} ${BROKEN_CHAIN}`, line, tick);
    }
    this.chain = encoded.chain;
  }

  private fail(message: string, line: number, tick?: number, cause?: unknown): LogFormatError {
    const seq = this.lastSeq + 1;
    const where = tick === undefined ? { line, seq } : { line, seq, tick };
    return logError(`${this.path}: ${message}`, where, DAMAGED, cause);
  }

  private notALog(reason: string, cause?: unknown): LogFormatError {
    const hint = `a grapevine log starts with a header line of format ${LOG_FORMAT}`;
    return logError(`${this.path} is not a grapevine log: ${reason}`, { line: 1, seq: 0 }, hint, cause);
  }
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
