import { canonicalJson } from '../core/index.ts';
import { derivedOf, isMadeEntry } from '../memory/entry-derived.ts';
import { entryJson } from './entry-json.ts';

interface Written {
  text: string;
  /** True when the value can never change: a primitive, or a frozen object of such values. */
  fixed: boolean;
}

const PRIMITIVE_FIXED = true;
const OPEN_ARRAY = Buffer.from('[');
const CLOSE_ARRAY = Buffer.from(']');
const OPEN_OBJECT = Buffer.from('{');
const CLOSE_OBJECT = Buffer.from('}');
const COMMA = Buffer.from(',');
const NULL = Buffer.from('null');

function checkPlain(value: object): void {
  const proto = Object.getPrototypeOf(value);
  if (ArrayBuffer.isView(value) || (proto !== Object.prototype && proto !== null))
    throw new TypeError('not a plain object');
}

/**
 * Canonical JSON (exactly the bytes of `canonicalJson`) that remembers the text of every
 * deeply immutable object it writes: an object or array that is frozen and holds only
 * primitives or such objects (memory-stream entries are frozen when they are made). A
 * state that shares most of its objects with the previous tick's state is then written in
 * time proportional to what is new, plus one string join per container.
 *
 * Only deep immutability makes a cached text safe: a frozen object with a mutable child is
 * written again every time. Values canonical JSON refuses are left to `canonicalJson`, so
 * the error is the same.
 */
export class CanonicalJsonCache {
  /** UTF-8 bytes of the canonical JSON of each deeply immutable object written so far. */
  private readonly bytes = new WeakMap<object, Buffer>();

  /** The canonical JSON of `value`. */
  write(value: unknown): string {
    return this.encode(value).toString('utf8');
  }

  /**
   * The canonical JSON of `value` as UTF-8 bytes, assembled from the cached bytes of its
   * deeply immutable parts: no string of the whole is built, so hashing a large state
   * costs a copy of its bytes, not a re-serialisation or re-encoding.
   */
  encode(value: unknown): Buffer {
    const out: Buffer[] = [];
    try {
      this.feed(value, out);
    } catch (err) {
      canonicalJson(value); // throws the same, located error as canonicalJson
      throw err;
    }
    return out.length === 1 ? out[0] : Buffer.concat(out);
  }

  private feed(value: unknown, out: Buffer[]): void {
    if (value === null || typeof value !== 'object') {
      out.push(Buffer.from(this.walk(value).text));
      return;
    }
    if (derivedOf(value) !== undefined) {
      out.push(Buffer.from(this.walkObject(value).text));
      return;
    }
    const hit = this.bytes.get(value);
    if (hit) {
      out.push(hit);
      return;
    }
    if (Object.isFrozen(value)) {
      const w = this.walk(value);
      out.push(w.fixed ? this.bytes.get(value)! : Buffer.from(w.text));
      return;
    }
    if (Array.isArray(value)) {
      out.push(OPEN_ARRAY);
      value.forEach((v, i) => {
        if (i > 0) out.push(COMMA);
        if (v === undefined) out.push(NULL);
        else this.feed(v, out);
      });
      out.push(CLOSE_ARRAY);
      return;
    }
    checkPlain(value);
    const record = value as Record<string, unknown>;
    let first = true;
    out.push(OPEN_OBJECT);
    for (const key of Object.keys(record).sort()) {
      const v = record[key];
      if (v === undefined) continue;
      out.push(Buffer.from(`${first ? '' : ','}${JSON.stringify(key)}:`));
      first = false;
      this.feed(v, out);
    }
    out.push(CLOSE_OBJECT);
  }

  private walk(value: unknown): Written {
    if (value === null) return { text: 'null', fixed: PRIMITIVE_FIXED };
    switch (typeof value) {
      case 'string':
        return { text: JSON.stringify(value), fixed: PRIMITIVE_FIXED };
      case 'boolean':
        return { text: value ? 'true' : 'false', fixed: PRIMITIVE_FIXED };
      case 'number':
        if (!Number.isFinite(value)) throw new TypeError('non-finite');
        return { text: Object.is(value, -0) ? '0' : String(value), fixed: PRIMITIVE_FIXED };
      case 'object':
        return this.walkObject(value as object);
      default:
        throw new TypeError('not JSON');
    }
  }

  private walkObject(value: object): Written {
    // A memory entry made by remember() is written by entryJson's template (the same bytes)
    // every time rather than cached: a string or Buffer kept per entry outlives the young
    // generation, and a whole-population digest then spent most of its time in GC.
    if (derivedOf(value) !== undefined) return { text: entryJson(value), fixed: isMadeEntry(value) };
    const hit = this.bytes.get(value);
    if (hit !== undefined) return { text: hit.toString('utf8'), fixed: true };
    let fixed = Object.isFrozen(value);
    const parts: string[] = [];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const w = value[i] === undefined ? { text: 'null', fixed: true } : this.walk(value[i]);
        fixed &&= w.fixed;
        parts.push(w.text);
      }
    } else {
      checkPlain(value);
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record).sort()) {
        const v = record[key];
        if (v === undefined) continue;
        const w = this.walk(v);
        fixed &&= w.fixed;
        parts.push(`${JSON.stringify(key)}:${w.text}`);
      }
    }
    const text = Array.isArray(value) ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
    if (fixed) this.bytes.set(value, Buffer.from(text));
    return { text, fixed };
  }
}
