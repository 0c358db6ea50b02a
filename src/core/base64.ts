import { Base64Text } from './base64-text.ts';

/** Base64 of a typed array's bytes (its window only). */
export function typedToBase64(view: ArrayBufferView): string {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64');
}

/**
 * Longest base64 string {@link typedToBase64Chunks} writes as one string (4 Mi characters,
 * i.e. 3 Mi bytes). Far below V8's string limit (0x1fffffe8 characters), so a column of any
 * size can be exported.
 */
export const BASE64_CHUNK_CHARS = 4 * 1024 * 1024;

/**
 * Base64 of a typed array's bytes: one string when it has at most `chunkChars` characters
 * (then it equals {@link typedToBase64}), otherwise an array of strings of `chunkChars`
 * characters each (the last may be shorter), each decodable on its own. `chunkChars` must be
 * a positive multiple of 4.
 */
export function typedToBase64Chunks(
  view: ArrayBufferView,
  chunkChars = BASE64_CHUNK_CHARS,
): string | string[] {
  if (!Number.isInteger(chunkChars) || chunkChars <= 0 || chunkChars % 4 !== 0) {
    throw new RangeError(`chunkChars must be a positive multiple of 4, got ${chunkChars}`);
  }
  const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  const chunkBytes = (chunkChars / 4) * 3;
  if (bytes.byteLength <= chunkBytes) return bytes.toString('base64');
  const chunks: string[] = [];
  for (let at = 0; at < bytes.byteLength; at += chunkBytes) {
    chunks.push(bytes.subarray(at, Math.min(at + chunkBytes, bytes.byteLength)).toString('base64'));
  }
  return chunks;
}

/** Base64 as a string, or as the not yet encoded text of some bytes. */
export type Base64Like = string | Base64Text;

/**
 * Decodes base64 into a fresh typed array of the given constructor: one string, or the
 * chunks of {@link typedToBase64Chunks} (decoded one after the other into the same array);
 * a {@link Base64Text} gives its bytes back without encoding them.
 */
export function base64ToTyped<T extends Uint8Array | Int32Array | Float64Array>(
  text: Base64Like | readonly Base64Like[],
  ctor: { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number },
): T {
  const chunks = typeof text === 'string' || text instanceof Base64Text ? [text] : text;
  const decode = (c: Base64Like): Uint8Array => (typeof c === 'string' ? Buffer.from(c, 'base64') : c.bytes);
  let bound = 0;
  for (const chunk of chunks)
    bound += typeof chunk === 'string' ? Buffer.byteLength(chunk, 'base64') : chunk.bytes.byteLength;
  const target = new Uint8Array(new ArrayBuffer(bound));
  let at = 0;
  for (const chunk of chunks) {
    const part = decode(chunk);
    target.set(part, at);
    at += part.byteLength;
  }
  // byteLength is an upper bound for malformed text; keep only the bytes actually decoded.
  return new ctor(at === bound ? target.buffer : target.buffer.slice(0, at));
}

/**
 * Decodes base64 (as {@link base64ToTyped} takes it) into `target`'s own bytes, when it
 * decodes to exactly `target.byteLength` bytes; returns false otherwise (`target` then holds
 * anything: decode with base64ToTyped instead). A restore writes a column into the array its executor already has instead of
 * a fresh one: no second array of the population's size (and, on a VM where fresh memory
 * is expensive, no page faults for it); strings are decoded in place (`Buffer.write`).
 */
export function base64Into(
  text: Base64Like | readonly Base64Like[],
  target: Uint8Array | Int32Array | Float64Array,
): boolean {
  const chunks = typeof text === 'string' || text instanceof Base64Text ? [text] : text;
  let bound = 0;
  for (const chunk of chunks)
    bound += typeof chunk === 'string' ? Buffer.byteLength(chunk, 'base64') : chunk.bytes.byteLength;
  if (bound !== target.byteLength) return false;
  const bytes = Buffer.from(target.buffer, target.byteOffset, target.byteLength);
  let at = 0;
  for (const chunk of chunks) {
    if (typeof chunk === 'string') {
      const n = bytes.write(chunk, at, 'base64');
      if (n !== Buffer.byteLength(chunk, 'base64')) return false; // not well-formed base64
      at += n;
    } else {
      bytes.set(chunk.bytes, at);
      at += chunk.bytes.byteLength;
    }
  }
  return true;
}
