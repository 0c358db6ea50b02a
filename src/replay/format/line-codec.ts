import * as crypto from 'node:crypto';
import { type Base64Text, CanonicalEncoder, canonicalJson, sortKeys } from '../../core/index.ts';

/** One log line as the writer produces it. */
export interface EncodedLine {
  /** The line's exact text, without the terminating `\n`. */
  text: string;
  /** The full 64-hex chain value after this line; its first 16 digits are the line's `h`. */
  chain: string;
}

/** Length of the `,"h":"<16 hex>"}` suffix that ends every line. */
export const HASH_SUFFIX_LENGTH = 24;

/** SHA-256 hex: the one-shot `crypto.hash` (Node >= 20.12) when present, else `createHash`. */
const sha256Hex: (data: string) => string =
  typeof crypto.hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'hex')
    : (data) => crypto.createHash('sha256').update(data).digest('hex');

/** One log line as the writer produces it when the line is long: its bytes, `\n` included. */
export interface EncodedBytes {
  /** The line's exact UTF-8 bytes, with the terminating `\n`, in one buffer or several to write in order. */
  bytes: Buffer | Buffer[];
  /** The full 64-hex chain value after this line. */
  chain: string;
}

/**
 * Body length (UTF-16 code units) from which {@link LineEncoder.encodeEventForWrite} returns the
 * line as bytes: below it, strings batched into one write are cheaper than a buffer per line.
 */
export const BYTES_ABOVE = 1 << 20;

/**
 * Where a long snapshot line goes when it is written as it is encoded (see
 * {@link LineEncoder.encodeEventForWrite}): `begin` gets the line's size in bytes without its
 * `\n` before any byte (it may throw, and then nothing is written), `write` its bytes in order,
 * `\n` included. A `write` that throws stops the line part-way; the caller must then stop the file.
 */
export interface LineSink {
  begin(size: number): void;
  write(bytes: Buffer): void;
}

/** A line that was written through a {@link LineSink} as it was encoded. */
export interface StreamedLine {
  /** Bytes written, `\n` included. */
  written: number;
  /** The full 64-hex chain value after this line. */
  chain: string;
}

/**
 * Size of the one buffer a streamed line goes through, reused from line to line: a 3.7 MB
 * snapshot line in a buffer of its own costs ~900 first touches of fresh pages (~13 us each on
 * the 2-vCPU VM), this one is touched once.
 */
const STREAM_BUFFER = 1 << 18;
/**
 * Bytes of a base64 column encoded per `toString('base64')` call: a multiple of 3, so the
 * texts concatenate to the whole column's text; 64 Ki characters, so each string is a regular
 * young-generation object, not a large object on fresh pages.
 */
const STREAM_BASE64_BYTES = 3 << 14;

/** The `seq`, `t` and `type` of an event whose payload is given apart. */
interface EventKeys {
  seq: number;
  t: number;
  type: string;
}

/**
 * Encodes log records as canonical lines chained to the previous line: the single
 * definition of the line bytes and of the hash chain (see `log-format.ts`). The writer
 * uses it to write and the reader to verify. It serialises the top level itself, so
 * that the body with `wall` (written) and without it (hashed) come out of one pass, and
 * an event needs no merged copy of its payload.
 */
export class LineEncoder {
  private readonly json = new CanonicalEncoder();
  /**
   * The `state` object of the snapshot event encoded last and its JSON (as pieces, see
   * {@link CanonicalEncoder.tryEncodePieces}), kept only until the next event is encoded: a
   * run that stops at a periodic snapshot writes its final snapshot right after it with the
   * very same state object (see the engine's `finish`), whose encoding (tens of ms per 10^5
   * agents) is then reused: as text, or, when both lines are written as bytes, as the bytes
   * of the line before. A line streamed to a sink keeps no bytes: the next one streams the same
   * pieces again (its base64 columns encoded again, a slice at a time, into the reused buffer).
   * A snapshot given as parts ({@link LineEncoder.eventParts}, a delta child's patches) is kept
   * the same way, its JSON as those parts.
   */
  private lastSnapshot: { state: object; json: StatePieces; bytes?: StateBytes } | null = null;
  /** The buffer streamed lines go through (see {@link STREAM_BUFFER}), made at the first one. */
  private streamBuffer: Buffer | undefined;

  /**
   * Encodes a whole record (the header, or an event as parsed back), without `h`,
   * chained to `prevChain` (`null` for the header).
   *
   * @throws TypeError when the record holds a non-JSON value or a `wall` that is not an
   *   object.
   */
  encode(record: Record<string, unknown>, prevChain: string | null): EncodedLine {
    this.lastSnapshot = null;
    return asText(this.line(record, Object.keys(record), null, prevChain, Number.POSITIVE_INFINITY));
  }

  /**
   * Encodes the event `{...fields, seq, t, type}` chained to `prevChain`, without building
   * that object. `fields` must not hold `seq`, `t`, `type` or `h` (the caller checks).
   *
   * @throws TypeError as {@link LineEncoder.encode}.
   */
  encodeEvent(
    type: string,
    t: number,
    seq: number,
    fields: Record<string, unknown>,
    prevChain: string,
  ): EncodedLine {
    return asText(this.event(type, t, seq, fields, prevChain, Number.POSITIVE_INFINITY));
  }

  private event(
    type: string,
    t: number,
    seq: number,
    fields: Record<string, unknown>,
    prevChain: string,
    bytesAbove: number,
    sink?: LineSink,
  ): EncodedLine | EncodedBytes | StreamedLine {
    const keys = Object.keys(fields);
    keys.push('seq', 't', 'type');
    const last = this.lastSnapshot;
    this.lastSnapshot = null;
    if (type !== 'snapshot') return this.line(fields, keys, { seq, t, type }, prevChain, bytesAbove);
    const state = fields.state;
    this.stateJson = undefined;
    this.stateBytes = undefined;
    const reuse = last !== null && state === last.state ? last : undefined;
    const line = this.line(
      fields,
      keys,
      { seq, t, type },
      prevChain,
      bytesAbove,
      reuse?.json,
      reuse?.bytes,
      sink,
    );
    if (typeof state === 'object' && state !== null && this.stateJson !== undefined)
      this.lastSnapshot = { state, json: this.stateJson, bytes: this.stateBytes };
    this.stateJson = undefined;
    this.stateBytes = undefined;
    return line;
  }

  /**
   * As {@link LineEncoder.encodeEvent}, for the writer: a line whose body has at least
   * {@link BYTES_ABOVE} code units comes back as its UTF-8 bytes (with `\n`), hashed from
   * those very bytes, so that a snapshot part (megabytes of base64) is converted to UTF-8 once
   * instead of once for the hash and once more for the file. Same bytes, same chain.
   *
   * With a `sink`, such a line of a `snapshot` is not returned but written to it as it is
   * encoded, through one reused buffer of {@link STREAM_BUFFER} bytes (each long base64 column
   * encoded a slice at a time), and hashed as it goes: no buffer nor string of the line's size
   * is made. The same bytes and chain again.
   */
  encodeEventForWrite(
    type: string,
    t: number,
    seq: number,
    fields: Record<string, unknown>,
    prevChain: string,
  ): EncodedLine | EncodedBytes;
  encodeEventForWrite(
    type: string,
    t: number,
    seq: number,
    fields: Record<string, unknown>,
    prevChain: string,
    sink: LineSink,
  ): EncodedLine | EncodedBytes | StreamedLine;
  encodeEventForWrite(
    type: string,
    t: number,
    seq: number,
    fields: Record<string, unknown>,
    prevChain: string,
    sink?: LineSink,
  ): EncodedLine | EncodedBytes | StreamedLine {
    return this.event(type, t, seq, fields, prevChain, BYTES_ABOVE, sink);
  }

  /**
   * The body `{...}` that the chain hashes (the line is the body with `,"h":"..."` before its
   * last brace) of the event `{...fields, seq, t, type}` (a `snapshot` or `snapshot-part`),
   * as parts: the UTF-8 bytes of the JSON around its long base64 texts, and those texts as
   * the `Base64Text`s they are, not encoded (see `snapshotPatch`). The same bytes as
   * {@link LineEncoder.encodeEventForWrite}'s line. Undefined when `fields` hold `wall` or a
   * value that is not JSON-safe: the caller then encodes the line as usual.
   */
  eventParts(
    type: string,
    t: number,
    seq: number,
    fields: Record<string, unknown>,
  ): (Buffer | Base64Text)[] | undefined {
    const last = this.lastSnapshot;
    this.lastSnapshot = null;
    if (fields.wall !== undefined) return undefined;
    const event: EventKeys = { seq, t, type };
    const parts: (Buffer | Base64Text)[] = [];
    let text = '{';
    let first = true;
    for (const key of sortKeys([...Object.keys(fields), 'seq', 't', 'type'])) {
      const value = isEventKey(key) ? event[key] : fields[key];
      if (value === undefined) continue;
      text += `${first ? '' : ','}${this.json.quote(key)}:`;
      first = false;
      const reused = key === 'state' && last !== null && last.state === value;
      const pieces = reused ? last.json : this.json.tryEncodeParts(value);
      if (pieces === undefined) return undefined;
      if (key === 'state' && type === 'snapshot' && typeof value === 'object' && value !== null)
        this.lastSnapshot = { state: value, json: pieces };
      for (const piece of pieces) {
        if (typeof piece === 'string') text += piece;
        else {
          parts.push(Buffer.from(text, 'utf8'), piece);
          text = '';
        }
      }
    }
    parts.push(Buffer.from(`${text}}`, 'utf8'));
    return parts;
  }

  /** The JSON of the `state` member of the line encoded last, as pieces (set only while a snapshot is encoded). */
  private stateJson: StatePieces | undefined;
  /** Where that JSON lies in the line's bytes, when the line was encoded as bytes. */
  private stateBytes: StateBytes | undefined;

  private line(
    fields: Record<string, unknown>,
    keys: string[],
    event: EventKeys | null,
    prevChain: string | null,
    /** Body length (code units) from which the line is returned as bytes. */
    bytesAbove: number,
    /** The JSON of `fields.state`, known already (a snapshot's state encoded just before). */
    stateJson?: StatePieces,
    /** Its bytes, in the bytes of the line encoded just before. */
    stateBytes?: StateBytes,
    /** Where a long snapshot line is written as it is encoded (see {@link LineSink}). */
    sink?: LineSink,
  ): EncodedLine | EncodedBytes | StreamedLine {
    const members: string[] = [];
    let wall = -1;
    let stateAt = -1;
    let state: StatePieces | undefined;
    for (const key of sortKeys(keys)) {
      const value = event !== null && isEventKey(key) ? event[key] : fields[key];
      if (value === undefined) continue;
      if (event?.type === 'snapshot' && key === 'state') {
        // a line that may be written as bytes gets its state as pieces, never joined into one text
        // (streamed, its long base64 columns stay `Base64Text`s, encoded a slice at a time)
        state =
          stateJson ??
          (Number.isFinite(bytesAbove) && prevChain !== null
            ? sink
              ? this.json.tryEncodeParts(value)
              : this.json.tryEncodePieces(value)
            : pieceOf(this.json.tryEncode(value)));
        if (state === undefined) throw rejection(fields, event);
        this.stateJson = state;
        stateAt = members.length;
        members.push('"state":');
        continue;
      }
      const item = this.json.tryEncode(value);
      if (item === undefined) throw rejection(fields, event);
      if (key === 'wall') {
        if (value === null || typeof value !== 'object' || Array.isArray(value))
          throw new TypeError('the field `wall` must be an object');
        wall = members.length;
      }
      members.push(`${this.json.quote(key)}:${item}`);
    }
    if (state !== undefined) {
      if (wall === -1 && prevChain !== null && bodyLength(members, state) >= bytesAbove) {
        if (sink && !(stateJson !== undefined && stateBytes)) {
          this.streamBuffer ??= Buffer.allocUnsafeSlow(STREAM_BUFFER);
          return lineStream(members, stateAt, state, prevChain, sink, this.streamBuffer);
        }
        // the same state as the line before, as bytes: its bytes are copied, not encoded again
        const line =
          stateJson !== undefined && stateBytes
            ? lineAround(members, stateAt, stateBytes, prevChain)
            : linePieces(members, stateAt, state, prevChain);
        this.stateBytes = line.state;
        return line;
      }
      members[stateAt] += state.length === 1 ? String(state[0]) : state.join('');
    }
    const inner = members.join(',');
    if (wall === -1 && prevChain !== null && inner.length >= bytesAbove) return lineBytes(inner, prevChain);
    let hashed = `{${inner}}`;
    if (wall !== -1) {
      members.splice(wall, 1);
      hashed = `{${members.join(',')}}`;
    }
    // The chain starts with the header's own format tag (`grapevine-log/1` or `/2`).
    const chain = sha256Hex(prevChain === null ? `${fields.format}\n${hashed}` : `${prevChain}\n${hashed}`);
    const h = `"h":"${chain.slice(0, 16)}"}`;
    return { text: inner === '' ? `{${h}` : `{${inner},${h}`, chain };
  }
}

/** `[text]`, or undefined for undefined. */
function pieceOf(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : [text];
}

/**
 * The text of a line before and after its state's JSON: `{`, the members up to
 * `members[stateAt]` (`"state":`, the state not yet appended), and the members after it with `}`.
 */
function aroundState(members: string[], stateAt: number): { head: string; tail: string } {
  const after = members.slice(stateAt + 1);
  return {
    head: `{${members.slice(0, stateAt + 1).join(',')}`,
    tail: after.length === 0 ? '}' : `,${after.join(',')}}`,
  };
}

/** JSON as pieces to concatenate; a `Base64Text` stands for its text, which needs no escape and no quotes. */
type StatePieces = (string | Base64Text)[];

/** Code units of `members` joined by commas, the JSON pieces `state` appended to one of them. */
function bodyLength(members: string[], state: StatePieces): number {
  let n = members.length - 1;
  for (const m of members) n += m.length;
  for (const p of state) n += p.length;
  return n;
}

/**
 * The line `{inner,"h":...}\n` as bytes, its chain hashed over `prevChain\n{inner}` taken from
 * those bytes (the same input as the string path's, without a second UTF-8 copy of it).
 */
function lineBytes(inner: string, prevChain: string): EncodedBytes {
  const body = 1 + Buffer.byteLength(inner);
  const bytes = Buffer.allocUnsafe(body + HASH_SUFFIX_LENGTH + 1);
  bytes[0] = 0x7b; // {
  bytes.write(inner, 1, 'utf8');
  const chain = crypto
    .createHash('sha256')
    .update(`${prevChain}\n`)
    .update(bytes.subarray(0, body))
    .update('}')
    .digest('hex');
  bytes.write(`,"h":"${chain.slice(0, 16)}"}\n`, body, 'latin1');
  return { bytes, chain };
}

/** The bytes of a snapshot line (`bytes`, as {@link lineBytes} made it) and where its state's JSON lies in them. */
interface StateBytes {
  bytes: Buffer;
  start: number;
  end: number;
}

/**
 * The line `{members...,"h":...}\n` as bytes, where `members[stateAt]` is `"state":` and the
 * JSON pieces `state` follow it: each piece is written into the one buffer of the line, so a
 * long string of the state (a base64 column) is converted once, straight to its place, and
 * never copied into a JSON text first. Same bytes and chain as {@link lineBytes} of the
 * joined text; also says where the state's JSON lies in the bytes.
 */
function linePieces(
  members: string[],
  stateAt: number,
  pieces: StatePieces,
  prevChain: string,
): EncodedBytes & { state: StateBytes } {
  const state = pieces.map(String);
  const { head, tail } = aroundState(members, stateAt);
  const start = Buffer.byteLength(head);
  let end = start;
  for (const piece of state) end += Buffer.byteLength(piece);
  const body = end + Buffer.byteLength(tail);
  const bytes = Buffer.allocUnsafe(body + HASH_SUFFIX_LENGTH);
  let at = bytes.write(head, 0, 'utf8');
  for (const piece of state) at += bytes.write(piece, at, 'utf8');
  bytes.write(tail, at, 'utf8');
  const chain = crypto
    .createHash('sha256')
    .update(`${prevChain}\n`)
    .update(bytes.subarray(0, body))
    .digest('hex');
  // the closing brace gives way to `,"h":...}`
  bytes.write(`,"h":"${chain.slice(0, 16)}"}\n`, body - 1, 'latin1');
  return { bytes, chain, state: { bytes, start, end } };
}

/**
 * Writes the line `{members...,"h":...}\n` to `sink`, where `members[stateAt]` is `"state":`
 * and the JSON pieces `state` follow it, through `buffer`: each full buffer is hashed, then
 * written; a `Base64Text` is encoded {@link STREAM_BASE64_BYTES} bytes at a time, straight
 * into the buffer. Same bytes and chain as {@link linePieces}.
 */
function lineStream(
  members: string[],
  stateAt: number,
  state: StatePieces,
  prevChain: string,
  sink: LineSink,
  buffer: Buffer,
): StreamedLine {
  const { head, tail } = aroundState(members, stateAt);
  let body = Buffer.byteLength(head) + Buffer.byteLength(tail);
  for (const piece of state) body += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
  sink.begin(body + HASH_SUFFIX_LENGTH - 1);
  const hash = crypto.createHash('sha256').update(`${prevChain}\n`);
  // room kept at the end for the `,"h":...}\n` that ends the line
  const room = buffer.length - HASH_SUFFIX_LENGTH;
  let at = 0;
  const out = (): void => {
    const full = buffer.subarray(0, at);
    hash.update(full);
    sink.write(full);
    at = 0;
  };
  const put = (text: string): void => {
    if (text.length * 3 <= room - at || Buffer.byteLength(text) <= room - at) {
      at += buffer.write(text, at, 'utf8');
      return;
    }
    // longer than the room left: its bytes in slices
    const bytes = Buffer.from(text, 'utf8');
    for (let from = 0; from < bytes.length; ) {
      if (at === room) out();
      const n = Math.min(room - at, bytes.length - from);
      bytes.copy(buffer, at, from, from + n);
      at += n;
      from += n;
    }
  };
  put(head);
  for (const piece of state) {
    if (typeof piece === 'string') {
      put(piece);
      continue;
    }
    const bytes = Buffer.from(piece.bytes.buffer, piece.bytes.byteOffset, piece.bytes.byteLength);
    for (let from = 0; from < bytes.length; from += STREAM_BASE64_BYTES) {
      const text = bytes.toString('base64', from, Math.min(from + STREAM_BASE64_BYTES, bytes.length));
      if (text.length > room - at) out();
      // base64 is ASCII: one byte per character
      at += buffer.write(text, at, 'latin1');
    }
  }
  put(tail);
  hash.update(buffer.subarray(0, at));
  const chain = hash.digest('hex');
  // the closing brace gives way to `,"h":...}`
  at += buffer.write(`,"h":"${chain.slice(0, 16)}"}\n`, at - 1, 'latin1') - 1;
  sink.write(buffer.subarray(0, at));
  return { written: body + HASH_SUFFIX_LENGTH, chain };
}

/**
 * The line `{members...,"h":...}\n` as bytes, where `members[stateAt]` is `"state":` and the
 * JSON whose bytes `state` gives: the other members are encoded, the state's bytes are the
 * previous line's, neither converted nor copied (a final snapshot right after a periodic one
 * at the same tick, 4 MB at 10^5 agents, costs a hash instead of a UTF-8 conversion into
 * fresh memory). Same bytes and chain as {@link lineBytes}, in three buffers.
 */
function lineAround(
  members: string[],
  stateAt: number,
  state: StateBytes,
  prevChain: string,
): EncodedBytes & { state: StateBytes } {
  const around = aroundState(members, stateAt);
  const head = Buffer.from(around.head, 'utf8');
  const tail = Buffer.from(around.tail, 'utf8');
  const json = state.bytes.subarray(state.start, state.end);
  const chain = crypto
    .createHash('sha256')
    .update(`${prevChain}\n`)
    .update(head)
    .update(json)
    .update(tail)
    .digest('hex');
  const end = Buffer.concat([
    tail.subarray(0, tail.length - 1),
    Buffer.from(`,"h":"${chain.slice(0, 16)}"}\n`),
  ]);
  return { bytes: [head, json, end], chain, state };
}

/** A line encoded with no byte bound: always text. */
function asText(line: EncodedLine | EncodedBytes | StreamedLine): EncodedLine {
  if ('text' in line) return line;
  throw new Error('internal: a line was encoded as bytes without a byte bound');
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
