import { type Base64Text, CanonicalEncoder, canonicalJson, sortKeys } from '../../core/index.ts';
import { chainHash, chainHasher, HASH_SUFFIX_LENGTH, hashSuffix } from './chain.ts';
import { SNAPSHOT_PART } from './snapshot-split.ts';

/**
 * A line's canonical body `{...}` (the line without its `h`, see `log-format.ts`), built once by
 * {@link LineCodec} and then given to one sink: {@link lineText} (a string, for a batch of
 * lines), {@link streamLine} (bytes through a reused buffer, for a long line) or a delta
 * child's patch sink (compared with its base).
 */
export interface LineBody {
  /** The body in order: JSON text, and long base64 columns not encoded yet (they need no escape). */
  pieces: (string | Base64Text)[];
  /** Code units of the body (a column counts its text). */
  length: number;
  /** The body the chain hashes, when it is not the whole body (the line holds `wall`). */
  hashed?: string;
}

/** One log line as text, and the chain value after it. */
export interface EncodedLine {
  /** The line's exact text, without the terminating `\n`. */
  text: string;
  /** The full 64-hex chain value after this line; its first 16 digits are the line's `h`. */
  chain: string;
}

/** The `seq`, `t` and `type` of an event whose payload is given apart. */
interface EventKeys {
  seq: number;
  t: number;
  type: string;
}

/**
 * Builds the canonical bodies of log lines: the one definition of a line's bytes. It walks the
 * top level itself, so that an event needs no merged copy of its payload, and gives the state
 * of a snapshot (and the data of a snapshot part) as pieces whose base64 columns stay
 * {@link Base64Text}s, so that a sink encodes them a slice at a time or not at all.
 */
export class LineCodec {
  private readonly json = new CanonicalEncoder();
  /**
   * The state of the snapshot encoded last and its JSON, kept until the next line: a run that
   * stops at a periodic snapshot writes its final snapshot right after it with the very same
   * state object, whose JSON is then not walked again.
   */
  private last: { state: object; json: (string | Base64Text)[] } | null = null;

  /** The body of a whole record (the header, or an event as parsed back), without `h`. */
  record(record: Record<string, unknown>): LineBody {
    return this.body(record, null);
  }

  /** The body of the event `{...fields, seq, t, type}`; `fields` must not hold those keys or `h`. */
  event(type: string, t: number, seq: number, fields: Record<string, unknown>): LineBody {
    return this.body(fields, { seq, t, type });
  }

  /** A record as a line chained to `prevChain` (`null` for the header). @throws TypeError on a value that is not JSON. */
  encode(record: Record<string, unknown>, prevChain: string | null): EncodedLine {
    return lineText(this.record(record), prevChain ?? String(record.format));
  }

  /** An event as a line chained to `prevChain`. @throws TypeError on a value that is not JSON. */
  encodeEvent(
    type: string,
    t: number,
    seq: number,
    fields: Record<string, unknown>,
    prevChain: string,
  ): EncodedLine {
    return lineText(this.event(type, t, seq, fields), prevChain);
  }

  private body(fields: Record<string, unknown>, event: EventKeys | null): LineBody {
    const last = this.last;
    this.last = null;
    const type = event?.type ?? fields.type;
    const keys = Object.keys(fields);
    if (event !== null) keys.push('seq', 't', 'type');
    const pieces: (string | Base64Text)[] = [];
    let text = '{';
    let length = 0;
    let wall: [number, number] | undefined;
    for (const key of sortKeys(keys)) {
      const value = event !== null && isEventKey(key) ? event[key] : fields[key];
      if (value === undefined) continue;
      const member = `${text.length > 1 || pieces.length > 0 ? ',' : ''}${this.json.quote(key)}:`;
      if (typeof value === 'object' && value !== null && isColumnar(type, key)) {
        const json = last?.state === value ? last.json : this.json.tryEncodeParts(value);
        if (json === undefined) throw rejection(fields, event);
        if (key === 'state') this.last = { state: value, json };
        text += member;
        for (const piece of json) {
          if (typeof piece === 'string') text += piece;
          else {
            pieces.push(text, piece);
            length += text.length + piece.length;
            text = '';
          }
        }
        continue;
      }
      const item = this.json.tryEncode(value);
      if (item === undefined) throw rejection(fields, event);
      if (key === 'wall') {
        if (value === null || Array.isArray(value) || typeof value !== 'object')
          throw new TypeError('the field `wall` must be an object');
        wall = [length + text.length, length + text.length + member.length + item.length];
      }
      text += member + item;
    }
    pieces.push(`${text}}`);
    length += text.length + 1;
    if (wall === undefined) return { pieces, length };
    const full = pieces.join('');
    const rest = full.slice(wall[1]);
    // the body without its `wall` member (and the comma that joined it to the others)
    const hashed =
      wall[0] === 1 ? `{${rest.startsWith(',') ? rest.slice(1) : rest}` : full.slice(0, wall[0]) + rest;
    return { pieces: [full], length, hashed };
  }
}

/** The line of `body` chained to `prev` (the chain value before it; for a header, its format tag), as text. */
export function lineText(body: LineBody, prev: string): EncodedLine {
  const text = body.pieces.length === 1 ? (body.pieces[0] as string) : body.pieces.join('');
  const chain = chainHash(prev, body.hashed ?? text);
  return { text: text.slice(0, -1) + hashSuffix(chain), chain };
}

/** Bytes of the line of `body`, without its `\n`. */
export function lineSize(body: LineBody): number {
  let size = HASH_SUFFIX_LENGTH - 1;
  for (const piece of body.pieces)
    size += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
  return size;
}

/**
 * Base64 bytes of a column encoded per `toString('base64')` call when it is streamed: a
 * multiple of 3, so that the texts concatenate to the column's text, and small enough that
 * each string is a young-generation object.
 */
const STREAM_BASE64_BYTES = 3 << 14;

/**
 * Writes the line of `body` (which holds no `wall`) chained to `prev`, `\n` included, to
 * `write` through `buffer` (reused from line to line, larger than the `h` suffix), hashing each full
 * buffer before it is written: a column is encoded a slice at a time straight into the
 * buffer, and no string or buffer of the line's size is made. Returns the chain value.
 */
export function streamLine(
  body: LineBody,
  prev: string,
  buffer: Buffer,
  write: (bytes: Buffer) => void,
): string {
  const hash = chainHasher(prev);
  // room kept at the end for the `,"h":...}\n` that ends the line
  const room = buffer.length - HASH_SUFFIX_LENGTH;
  let at = 0;
  const out = (): void => {
    const full = buffer.subarray(0, at);
    hash.update(full);
    write(full);
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
    if (typeof piece === 'string') {
      put(piece);
      continue;
    }
    const bytes = Buffer.from(piece.bytes.buffer, piece.bytes.byteOffset, piece.bytes.byteLength);
    for (let from = 0; from < bytes.length; from += per) {
      const text = bytes.toString('base64', from, Math.min(from + per, bytes.length));
      if (text.length > room - at) out();
      at += buffer.write(text, at, 'latin1');
    }
  }
  hash.update(buffer.subarray(0, at));
  const chain = hash.digest('hex');
  // the closing brace gives way to `,"h":...}`
  at += buffer.write(`${hashSuffix(chain)}\n`, at - 1, 'latin1') - 1;
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
