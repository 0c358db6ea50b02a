import { Base64Text } from './base64-text.ts';

/** Objects with at most this many keys are sorted by insertion sort (faster than `sort`). */
const SMALL_OBJECT = 16;
/** Quoted keys kept per encoder; keys of log events come from a small, fixed vocabulary. */
const KEY_CACHE_LIMIT = 4096;
/** Strings from this length on are handed over as pieces of their own by {@link CanonicalEncoder.tryEncodePieces}. */
const LONG_STRING = 1 << 14;
/** A character that `JSON.stringify` writes escaped (or, a surrogate, may): such a string is stringified. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A faster serialiser that gives byte for byte the output of `canonicalJson` (core):
 * sorted keys, no whitespace, `-0` as `0`, `undefined` properties dropped and `undefined`
 * array items as `null`. The log writes and verifies one line per event, so this is on
 * the hot path of every run; it saves the per-key path strings and the intermediate
 * arrays of the general version, sorts small key sets by insertion, and remembers the
 * quoted form of keys it has seen (per encoder instance; `canonicalJson` keeps one).
 *
 * On a value that is not JSON-safe, {@link CanonicalEncoder.encode} walks the value a second
 * time to name the path of the first bad value in its TypeError; the text is never built
 * with path strings on the way.
 */
export class CanonicalEncoder {
  private readonly quoted = new Map<string, string>();

  /** Canonical JSON of `value`. @throws TypeError on a value that is not JSON-safe. */
  encode(value: unknown): string {
    const out = this.tryEncode(value);
    if (out === undefined)
      throw badValue(value, '$') ?? new TypeError('canonical JSON: cannot serialise the value');
    return out;
  }

  /** Canonical JSON of `value`, or undefined when `value` holds something that is not JSON-safe. */
  tryEncode(value: unknown): string | undefined {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'string':
        return JSON.stringify(value);
      case 'number':
        if (!Number.isFinite(value)) return undefined;
        return value === 0 ? '0' : String(value);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'object':
        return Array.isArray(value)
          ? this.writeArray(value)
          : this.writeObject(value as Record<string, unknown>);
      default:
        return undefined;
    }
  }

  /**
   * Canonical JSON of `value` as pieces whose concatenation is {@link tryEncode}'s text, or
   * undefined when `value` holds something that is not JSON-safe. Every long string (a
   * snapshot's base64 columns) is a piece of its own, the very string given, and the JSON
   * around them is joined into a few pieces: a writer puts the pieces into one buffer, and no
   * copy of a long string (quoted) nor of the whole text (joined) is made. A piece boundary
   * never falls inside a string's JSON except around a long string free of surrogates.
   */
  tryEncodePieces(value: unknown): string[] | undefined {
    const out: Pieces = { done: [], text: '', keep: false };
    if (!this.putPieces(value, out)) return undefined;
    if (out.text !== '') out.done.push(out.text);
    return out.done as string[];
  }

  /**
   * As {@link tryEncodePieces}, except that a long {@link Base64Text} stays a piece of its
   * own as the object it is, not encoded (a snapshot patch encodes only the parts of it that
   * it compares).
   */
  tryEncodeParts(value: unknown): (string | Base64Text)[] | undefined {
    const out: Pieces = { done: [], text: '', keep: true };
    if (!this.putPieces(value, out)) return undefined;
    if (out.text !== '') out.done.push(out.text);
    return out.done;
  }

  private putPieces(value: unknown, out: Pieces): boolean {
    if (typeof value === 'string') {
      if (value.length >= LONG_STRING && !NEEDS_ESCAPE.test(value)) putLong(value, out);
      else out.text += JSON.stringify(value);
      return true;
    }
    if (typeof value !== 'object' || value === null) {
      const item = this.tryEncode(value);
      if (item === undefined) return false;
      out.text += item;
      return true;
    }
    if (Array.isArray(value)) {
      out.text += '[';
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out.text += ',';
        if (value[i] === undefined) out.text += 'null';
        else if (!this.putPieces(value[i], out)) return false;
      }
      out.text += ']';
      return true;
    }
    // base64 never needs an escape
    if (value instanceof Base64Text) {
      if (out.keep && value.length >= LONG_STRING) {
        putLong(value, out);
        return true;
      }
      const text = value.toString();
      if (text.length >= LONG_STRING) putLong(text, out);
      else out.text += `"${text}"`;
      return true;
    }
    if (ArrayBuffer.isView(value)) return false;
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return false;
    const obj = value as Record<string, unknown>;
    out.text += '{';
    let first = true;
    for (const key of sortKeys(Object.keys(obj))) {
      const v = obj[key];
      if (v === undefined) continue;
      out.text += `${first ? '' : ','}${this.quote(key)}:`;
      first = false;
      if (!this.putPieces(v, out)) return false;
    }
    out.text += '}';
    return true;
  }

  private writeArray(value: readonly unknown[]): string | undefined {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const item = value[i] === undefined ? 'null' : this.tryEncode(value[i]);
      if (item === undefined) return undefined;
      out += i === 0 ? item : `,${item}`;
    }
    return `${out}]`;
  }

  private writeObject(value: Record<string, unknown>): string | undefined {
    if (value instanceof Base64Text) return JSON.stringify(value.toString());
    if (ArrayBuffer.isView(value)) return undefined;
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return undefined;
    const keys = sortKeys(Object.keys(value));
    let out = '{';
    for (const key of keys) {
      const v = value[key];
      if (v === undefined) continue;
      const item = this.tryEncode(v);
      if (item === undefined) return undefined;
      out += `${out.length === 1 ? '' : ','}${this.quote(key)}:${item}`;
    }
    return `${out}}`;
  }

  /** `JSON.stringify(key)`, remembered. */
  quote(key: string): string {
    let q = this.quoted.get(key);
    if (q === undefined) {
      q = JSON.stringify(key);
      if (this.quoted.size < KEY_CACHE_LIMIT && key.length <= 64) this.quoted.set(key, q);
    }
    return q;
  }
}

/** Pieces of JSON made so far (`done`) and the text after them, not yet a piece (`text`); `keep`: long base64 texts stay objects. */
interface Pieces {
  done: (string | Base64Text)[];
  text: string;
  keep: boolean;
}

/** Appends the JSON string of `text` (which needs no escape) with `text` itself as a piece. */
function putLong(text: string | Base64Text, out: Pieces): void {
  out.done.push(`${out.text}"`, text);
  out.text = '"';
}

/** Sorts `keys` in place by UTF-16 code units, like `Array.prototype.sort` without a comparator. */
export function sortKeys(keys: string[]): string[] {
  if (keys.length > SMALL_OBJECT) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > key) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * The TypeError for the first value under `value` (keys in sorted order, as the encoder walks
 * them) that canonical JSON cannot hold, naming its path (`$`, `$.key`, `$[i]`); undefined when
 * there is none.
 */
function badValue(value: unknown, path: string): TypeError | undefined {
  if (value === null) return undefined;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value)
        ? undefined
        : new TypeError(`canonical JSON: non-finite number at ${path}`);
    case 'object':
      break;
    default:
      return new TypeError(`canonical JSON: cannot serialise ${typeof value} at ${path}`);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = value[i] === undefined ? undefined : badValue(value[i], `${path}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (value instanceof Base64Text) return undefined;
  if (ArrayBuffer.isView(value))
    return new TypeError(`canonical JSON: typed array at ${path}; convert it first`);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    return new TypeError(
      `canonical JSON: cannot serialise a ${value.constructor?.name ?? 'non-plain object'} at ${path}`,
    );
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj).sort()) {
    const v = obj[key];
    const bad = v === undefined ? undefined : badValue(v, `${path}.${key}`);
    if (bad) return bad;
  }
  return undefined;
}
