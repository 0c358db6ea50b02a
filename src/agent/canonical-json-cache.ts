import { canonicalJson } from '../core/index.ts';
import { derivedOf, isMadeEntry } from '../memory/entry-derived.ts';
import { entryJson } from './entry-json.ts';

interface Written {
  text: string;
  /** True when the value can never change: a primitive, or a frozen object of such values. */
  fixed: boolean;
}

const PRIMITIVE_FIXED = true;
/** Size of the pieces {@link CanonicalJsonCache.writeChunks} hands on (UTF-16 units). */
const CHUNK = 1 << 16;

function checkPlain(value: object): void {
  const proto = Object.getPrototypeOf(value);
  if (ArrayBuffer.isView(value) || (proto !== Object.prototype && proto !== null))
    throw new TypeError('not a plain object');
}

/**
 * Canonical JSON (exactly the text of `canonicalJson`) that remembers the text of every
 * deeply immutable object it writes: an object or array that is frozen and holds only
 * primitives or such objects (memory-stream entries are frozen when they are made). A
 * state that shares most of its objects with the previous tick's state is then written in
 * time proportional to what is new, plus one string join per container.
 *
 * Texts are kept as strings, not Buffers: a Buffer per container is memory outside the
 * JS heap, and at 500 agents the end-of-run digest's tens of MB of them set off full
 * collections of a large heap (most of that digest's time). Hashes take the strings as they
 * are.
 *
 * Only deep immutability makes a cached text safe: a frozen object with a mutable child is
 * written again every time. Values canonical JSON refuses are left to `canonicalJson`, so
 * the error is the same.
 */
export class CanonicalJsonCache {
  /** The canonical JSON of each deeply immutable object written so far (memory entries aside). */
  private readonly texts = new WeakMap<object, string>();

  /** The canonical JSON of `value`. */
  write(value: unknown): string {
    try {
      return this.walk(value).text;
    } catch (err) {
      canonicalJson(value); // throws the same, located error as canonicalJson
      throw err;
    }
  }

  /**
   * Writes the canonical JSON of `value` to `sink` in pieces of about {@link CHUNK} UTF-16
   * units, caching nothing (texts cached earlier are used): for a one-off digest of a whole
   * population, whose memory streams are then never held as one string each.
   */
  writeChunks(value: unknown, sink: (text: string) => void): void {
    const buf: string[] = [];
    let size = 0;
    const put = (text: string): void => {
      buf.push(text);
      size += text.length;
      if (size >= CHUNK) {
        sink(buf.join(''));
        buf.length = 0;
        size = 0;
      }
    };
    try {
      this.pieces(value, put);
    } catch (err) {
      canonicalJson(value); // throws the same, located error as canonicalJson
      throw err;
    }
    if (buf.length > 0) sink(buf.join(''));
  }

  private pieces(value: unknown, put: (text: string) => void): void {
    if (value === null || typeof value !== 'object') {
      put(this.walk(value).text);
      return;
    }
    if (derivedOf(value) !== undefined) {
      put(entryJson(value));
      return;
    }
    const hit = this.texts.get(value);
    if (hit !== undefined) {
      put(hit);
      return;
    }
    if (Array.isArray(value)) {
      put('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) put(',');
        if (value[i] === undefined) put('null');
        else this.pieces(value[i], put);
      }
      put(']');
      return;
    }
    checkPlain(value);
    const record = value as Record<string, unknown>;
    let first = true;
    put('{');
    for (const key of Object.keys(record).sort()) {
      const v = record[key];
      if (v === undefined) continue;
      put(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      this.pieces(v, put);
    }
    put('}');
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
    const hit = this.texts.get(value);
    if (hit !== undefined) return { text: hit, fixed: true };
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
    if (fixed) this.texts.set(value, text);
    return { text, fixed };
  }
}
