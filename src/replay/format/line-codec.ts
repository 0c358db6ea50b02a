import { type Base64Text, CanonicalEncoder, canonicalJson, sortKeys } from '../../core/index.ts';
import { chainHash, chainHasher, HASH_SUFFIX_LENGTH, hashSuffix } from './chain.ts';
import { SNAPSHOT_PART } from './snapshot-split.ts';

/** A line's canonical body, built once by {@link LineCodec} for one sink: {@link lineText}, {@link streamLine} or a patch sink. */
export interface LineBody {
  /** The body but for its closing brace (the line has `,"h":...}` there): JSON text, and long base64 columns not encoded yet. */
  pieces: (string | Base64Text)[];
  /** Code units of the pieces (a column counts its text). */
  length: number;
  /** The whole body the chain hashes, when the line holds `wall` (which is not hashed). */
  hashed?: string;
}

/** One log line as text (without `\n`), and the full chain value after it (its first 16 hex digits are the line's `h`). */
interface EncodedLine {
  text: string;
  chain: string;
}

/** The `seq`, `t` and `type` of an event whose payload is given apart. */
type EventKeys = { seq: number; t: number; type: string };

/**
 * Builds the canonical bodies of log lines: the one definition of a line's bytes. It walks the
 * top level itself, so that an event needs no merged copy of its payload, and gives a
 * snapshot's state (and a snapshot part's data) as pieces whose base64 columns stay
 * {@link Base64Text}s, for a sink to encode a slice at a time, or not at all.
 */
export class LineCodec {
  private readonly json = new CanonicalEncoder();
  /** The snapshot state encoded last and its JSON, until the next line: a final snapshot right after a periodic one has the same state. */
  private last: { state: object; json: (string | Base64Text)[] } | null = null;

  /** The body of the event `{...fields, seq, t, type}`; `fields` must not hold those keys or `h`. */
  event(type: string, t: number, seq: number, fields: Record<string, unknown>): LineBody {
    return this.body(fields, { seq, t, type });
  }

  /** A whole record (the header, or an event as parsed back) as a line chained to `prevChain` (`null` for the header). @throws TypeError on a value that is not JSON. */
  encode(record: Record<string, unknown>, prevChain: string | null): EncodedLine {
    return lineText(this.body(record, null), prevChain ?? String(record.format));
  }

  private body(fields: Record<string, unknown>, event: EventKeys | null): LineBody {
    const last = this.last;
    this.last = null;
    const type = event?.type ?? fields.type;
    const keys = Object.keys(fields);
    if (event !== null) keys.push('seq', 't', 'type');
    // the members `"key":json` in key order; a columnar value's pieces follow the member at `at`
    const members: string[] = [];
    let at = -1;
    let json: (string | Base64Text)[] | undefined;
    let wall = -1;
    for (const key of sortKeys(keys)) {
      const value = event !== null && isEventKey(key) ? event[key] : fields[key];
      if (value === undefined) continue;
      if (typeof value === 'object' && value !== null && isColumnar(type, key)) {
        json = last?.state === value ? last.json : this.json.tryEncodeParts(value);
        if (json === undefined) throw rejection(fields, event);
        if (key === 'state') this.last = { state: value, json };
        at = members.push(`${this.json.quote(key)}:`) - 1;
        continue;
      }
      const item = this.json.tryEncode(value);
      if (item === undefined) throw rejection(fields, event);
      if (key === 'wall' && (value === null || Array.isArray(value) || typeof value !== 'object'))
        throw new TypeError('the field `wall` must be an object');
      if (key === 'wall') wall = members.length;
      members.push(`${this.json.quote(key)}:${item}`);
    }
    // a line with `wall` (never a long one) is text, hashed without it
    if (json !== undefined && wall !== -1) members[at] += json.join('');
    if (json === undefined || wall !== -1) {
      const text = `{${members.join(',')}`;
      if (wall === -1) return { pieces: [text], length: text.length };
      members.splice(wall, 1);
      return { pieces: [text], length: text.length, hashed: `{${members.join(',')}}` };
    }
    const pieces: (string | Base64Text)[] = [];
    let text = `{${members.slice(0, at + 1).join(',')}`;
    let length = 0;
    for (const piece of json) {
      if (typeof piece === 'string') text += piece;
      else {
        pieces.push(text, piece);
        length += text.length + piece.length;
        text = '';
      }
    }
    if (at + 1 < members.length) text += `,${members.slice(at + 1).join(',')}`;
    pieces.push(text);
    return { pieces, length: length + text.length };
  }
}

/** The line of `body` chained to `prev` (the chain value before it; for a header, its format tag), as text. */
export function lineText(body: LineBody, prev: string): EncodedLine {
  const open = body.pieces.length === 1 ? (body.pieces[0] as string) : body.pieces.join('');
  const chain = chainHash(prev, body.hashed ?? `${open}}`);
  return { text: open + hashSuffix(chain), chain };
}

/** Bytes of the line of `body`, without its `\n`. */
export function lineSize(body: LineBody): number {
  let size = HASH_SUFFIX_LENGTH;
  for (const piece of body.pieces)
    size += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
  return size;
}

/** Base64 bytes of a column encoded per call when streamed: a multiple of 3, each text a young-generation string. */
const STREAM_BASE64_BYTES = 3 << 14;

/**
 * Writes the line of `body` (without `wall`) chained to `prev`, `\n` included, to `write` through
 * `buffer` (reused), hashing each full buffer as it goes: columns are encoded a slice at a time
 * into it, and no string or buffer of the line's size is made. Returns the chain value.
 */
export function streamLine(
  body: LineBody,
  prev: string,
  buffer: Buffer,
  write: (bytes: Buffer) => void,
): string {
  const hash = chainHasher(prev);
  // room kept at the end for the `,"h":...}\n` that ends the line
  const room = buffer.length - HASH_SUFFIX_LENGTH - 1;
  let at = 0;
  const out = (): void => {
    hash.update(buffer.subarray(0, at));
    write(buffer.subarray(0, at));
    at = 0;
  };
  const put = (text: string): void => {
    if (text.length * 3 <= room - at || Buffer.byteLength(text) <= room - at) {
      at += buffer.write(text, at, 'utf8');
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    for (let from = 0; from < bytes.length; ) {
      if (at === room) out();
      const n = bytes.copy(buffer, at, from, Math.min(from + room - at, bytes.length));
      at += n;
      from += n;
    }
  };
  // base64 bytes per slice of a column: a multiple of 3 whose text fits the buffer
  const per = Math.min(STREAM_BASE64_BYTES, Math.floor(room / 4) * 3);
  for (const piece of body.pieces) {
    if (typeof piece === 'string') put(piece);
    else {
      const bytes = Buffer.from(piece.bytes.buffer, piece.bytes.byteOffset, piece.bytes.byteLength);
      for (let from = 0; from < bytes.length; from += per) {
        const text = bytes.toString('base64', from, Math.min(from + per, bytes.length));
        if (text.length > room - at) out();
        at += buffer.write(text, at, 'latin1');
      }
    }
  }
  const chain = hash.update(buffer.subarray(0, at)).update('}').digest('hex');
  at += buffer.write(`${hashSuffix(chain)}\n`, at, 'latin1');
  write(buffer.subarray(0, at));
  return chain;
}

/** True for the member whose value may hold long base64 columns: a snapshot's state, a part's data. */
function isColumnar(type: unknown, key: string): boolean {
  return (key === 'state' && type === 'snapshot') || (key === 'data' && type === SNAPSHOT_PART);
}

function isEventKey(key: string): key is keyof EventKeys {
  return key === 'seq' || key === 't' || key === 'type';
}

/** The error `canonicalJson` gives for this record (it names the path of the bad value). */
function rejection(fields: Record<string, unknown>, event: EventKeys | null): unknown {
  try {
    canonicalJson(event === null ? fields : { ...fields, ...event });
  } catch (err) {
    return err;
  }
  return new TypeError('canonical JSON: value is not JSON-safe');
}
