import * as crypto from 'node:crypto';
import { canonicalJson } from '../core/index.ts';
import { CanonicalEncoder, sortKeys } from './canonical-encoder.ts';

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
   * The `state` object of the snapshot event encoded last and its JSON, kept only until the
   * next event is encoded: a run that stops at a periodic snapshot writes its final snapshot
   * right after it with the very same state object (see the engine's `finish`), whose
   * encoding (tens of ms per 10^5 agents) is then reused.
   */
  private lastSnapshot: { state: object; json: string } | null = null;

  /**
   * Encodes a whole record (the header, or an event as parsed back), without `h`,
   * chained to `prevChain` (`null` for the header).
   *
   * @throws TypeError when the record holds a non-JSON value or a `wall` that is not an
   *   object.
   */
  encode(record: Record<string, unknown>, prevChain: string | null): EncodedLine {
    return this.line(record, Object.keys(record), null, prevChain);
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
    const keys = Object.keys(fields);
    keys.push('seq', 't', 'type');
    const last = this.lastSnapshot;
    this.lastSnapshot = null;
    if (type !== 'snapshot') return this.line(fields, keys, { seq, t, type }, prevChain);
    const state = fields.state;
    this.stateJson = undefined;
    const reuse = last !== null && state === last.state ? last.json : undefined;
    const line = this.line(fields, keys, { seq, t, type }, prevChain, reuse);
    if (typeof state === 'object' && state !== null && this.stateJson !== undefined)
      this.lastSnapshot = { state, json: this.stateJson };
    this.stateJson = undefined;
    return line;
  }

  /** The JSON of the `state` member of the line encoded last (set only while a snapshot is encoded). */
  private stateJson: string | undefined;

  private line(
    fields: Record<string, unknown>,
    keys: string[],
    event: EventKeys | null,
    prevChain: string | null,
    /** The JSON of `fields.state`, known already (a snapshot's state encoded just before). */
    stateJson?: string,
  ): EncodedLine {
    const members: string[] = [];
    let wall = -1;
    for (const key of sortKeys(keys)) {
      const value = event !== null && isEventKey(key) ? event[key] : fields[key];
      if (value === undefined) continue;
      const snapshotState = event?.type === 'snapshot' && key === 'state';
      const item = snapshotState && stateJson !== undefined ? stateJson : this.json.tryEncode(value);
      if (item === undefined) throw rejection(fields, event);
      if (snapshotState) this.stateJson = item;
      if (key === 'wall') {
        if (value === null || typeof value !== 'object' || Array.isArray(value))
          throw new TypeError('the field `wall` must be an object');
        wall = members.length;
      }
      members.push(`${this.json.quote(key)}:${item}`);
    }
    const inner = members.join(',');
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
