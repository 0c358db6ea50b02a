import { canonicalJson, type LogFormatError } from '../../core/index.ts';
import { HASH_SUFFIX_LENGTH } from './chain.ts';
import { DAMAGED, logError } from './log-format.ts';

/** Event type of a delta child's patch lines: docs/LOG-FORMAT.md, "Snapshot patches in delta children". */
export const SNAPSHOT_PATCH = 'snapshot-patch';

/** The fields of a patch line besides `seq`, `t`, `type` and `h`. */
interface PatchFields {
  base: number;
  ops: string;
  data: string;
}

/** A line of the parent that a delta child's snapshot lines are patched against: its bytes without `\n`, and its long strings' ranges when known. */
export interface PatchBaseLine {
  seq: number;
  bytes: Buffer;
  longStrings?: number[];
}

const TAIL = Buffer.from(`,"type":"${SNAPSHOT_PATCH}"`);

/** True when a line (its bytes, without `\n`) is a patch line. */
export function isPatchLine(line: Uint8Array): boolean {
  const end = line.length - HASH_SUFFIX_LENGTH;
  return end > TAIL.length && Buffer.compare(line.subarray(end - TAIL.length, end), TAIL) === 0;
}

/** The text of a patch line for the line whose chain value is `chain` (its `h` is that line's). */
export function patchLineText(seq: number, t: number, fields: PatchFields, chain: string): string {
  // canonicalJson of {base, data, ops, seq, t, type} written out in its key order: the data
  // (hundreds of KB) is stringified once and not copied again to cut the closing brace
  const number = (n: number): string => canonicalJson(n);
  return `{"base":${number(fields.base)},"data":${JSON.stringify(fields.data)},"ops":${JSON.stringify(fields.ops)},"seq":${number(seq)},"t":${number(t)},"type":"${SNAPSHOT_PATCH}","h":"${chain.slice(0, 16)}"}`;
}

/** The bytes `base` patched by `ops` and `data`, or undefined when they do not fit it (an operation beyond the base or the data). */
export function applyPatch(base: Uint8Array, ops: string, data: string): Buffer | undefined {
  const values = varints(Buffer.from(ops, 'base64'));
  if (values === undefined || values.length % 3 !== 0) return undefined;
  const inserted = Buffer.from(data, 'latin1');
  let size = 0;
  let at = 0;
  let from = 0;
  for (let k = 0; k < values.length; k += 3) {
    at += values[k] + values[k + 2];
    from += values[k + 1];
    size += values[k] + values[k + 1];
  }
  if (at > base.length || from !== inserted.length) return undefined;
  const out = Buffer.allocUnsafe(size + base.length - at);
  let o = 0;
  at = 0;
  from = 0;
  for (let k = 0; k < values.length; k += 3) {
    const [copy, insert] = [values[k], values[k + 1]];
    o = copyBytes(out, o, base, at, copy);
    o = copyBytes(out, o, inserted, from, insert);
    from += insert;
    at += copy + values[k + 2];
  }
  copyBytes(out, o, base, at, base.length - at);
  return out;
}

/** The unsigned LEB128 numbers of `op`, or undefined when one is cut short or too large. */
function varints(op: Buffer): number[] | undefined {
  const values: number[] = [];
  for (let i = 0; i < op.length; ) {
    let n = 0;
    for (let scale = 1; ; scale *= 0x80) {
      if (i >= op.length || scale > 2 ** 42) return undefined;
      const byte = op[i++];
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
    }
    values.push(n);
  }
  return values;
}

/** Copies `n` bytes of `src` from `from` into `out` at `o`; returns the end. Short runs by hand (a native copy costs more than a few bytes). */
export function copyBytes(out: Uint8Array, o: number, src: Uint8Array, from: number, n: number): number {
  if (n > 64) out.set(src.subarray(from, from + n), o);
  else for (let i = 0; i < n; i++) out[o + i] = src[from + i];
  return o + n;
}

/**
 * Keeps the parent's lines that a delta child's patch lines name as bases (the lines its
 * header's `base` range names, as they are read) and turns each patch line back into the
 * line it stands for.
 */
export class PatchBases {
  private readonly lines = new Map<number, Buffer | string>();

  constructor(
    readonly path: string,
    private readonly range: readonly [number, number] | undefined,
  ) {}

  /** Takes a line of the child's past (its bytes or text): kept when the header names it as a base. */
  offer(seq: number, line: Buffer | string): void {
    if (this.range && seq >= this.range[0] && seq <= this.range[1]) this.lines.set(seq, line);
  }

  /**
   * The bytes of the line that the patch line `raw` (line `line` of the file) stands for.
   * With `verify`, the patch line itself must be in canonical form.
   *
   * @throws LogFormatError when the patch line is malformed, names a base not kept, or does not fit its base.
   */
  expand(raw: string, line: number, verify: boolean): { bytes: Buffer; seq: number; t: number } {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(raw) as Record<string, unknown>;
    } catch (cause) {
      throw this.fail(line, 'is not valid JSON', cause);
    }
    const { h, ...fields } = record;
    const ok =
      typeof h === 'string' &&
      Number.isSafeInteger(fields.base) &&
      Number.isSafeInteger(fields.seq) &&
      typeof fields.t === 'number' &&
      typeof fields.ops === 'string' &&
      typeof fields.data === 'string';
    if (!ok)
      throw this.fail(line, 'is not a well-formed snapshot patch (it needs base, ops, data, seq, t and h)');
    if (verify && `${canonicalJson(fields).slice(0, -1)},"h":"${h}"}` !== raw)
      throw this.fail(line, 'is not in canonical form: the log was modified at this line');
    const seq = fields.base as number;
    let base = this.lines.get(seq);
    const missing = `names base line seq ${seq}, which is not among the parent's lines its header keeps`;
    if (base === undefined) throw this.fail(line, missing);
    if (typeof base === 'string') {
      base = Buffer.from(base, 'utf8');
      this.lines.set(seq, base);
    }
    const full = applyPatch(base, fields.ops as string, fields.data as string);
    const end = `"h":"${h}"}`;
    if (
      full === undefined ||
      full.length < end.length ||
      full.toString('latin1', full.length - end.length) !== end
    )
      throw this.fail(line, `does not fit its base line (seq ${seq}): the log was modified at this line`);
    return { bytes: full, seq: fields.seq as number, t: fields.t as number };
  }

  private fail(line: number, message: string, cause?: unknown): LogFormatError {
    return logError(`${this.path}: line ${line} (a snapshot patch) ${message}`, { line }, DAMAGED, cause);
  }
}
