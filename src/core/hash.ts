import * as crypto from 'node:crypto';

const { createHash } = crypto;

/**
 * SHA-256 of a string (UTF-8) or bytes, as lowercase hex. The one-shot `crypto.hash` (Node
 * >= 20.12) when present: no Hash object, and no deprecation-option lookup per call (a
 * prompt hash per LLM decision spent more there than in hashing).
 */
export const sha256Hex: (data: string | Uint8Array) => string =
  typeof crypto.hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'hex')
    : (data) => createHash('sha256').update(data).digest('hex');

/**
 * An incremental SHA-256 over several typed arrays and strings, used for per-tick state
 * digests of columnar state without copying it.
 */
export class Digest {
  private readonly h = createHash('sha256');

  /** Adds a string (UTF-8). */
  text(s: string): this {
    this.h.update(s);
    return this;
  }

  /** Adds the bytes of a typed array view (exactly its window, not the whole buffer). */
  bytes(view: ArrayBufferView): this {
    this.h.update(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    return this;
  }

  /** Finishes and returns the first `hexChars` hex digits (default all 64). */
  hex(hexChars = 64): string {
    return this.h.digest('hex').slice(0, hexChars);
  }
}

/** 32-bit FNV-1a of a string: a fast, stable key derivation for non-cryptographic use. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
