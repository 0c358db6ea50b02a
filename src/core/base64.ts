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

/**
 * Decodes base64 into a fresh typed array of the given constructor: one string, or the
 * chunks of {@link typedToBase64Chunks} (decoded one after the other into the same array).
 */
export function base64ToTyped<T extends Uint8Array | Int32Array | Float64Array>(
  text: string | readonly string[],
  ctor: { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number },
): T {
  const chunks = typeof text === 'string' ? [text] : text;
  let bound = 0;
  for (const chunk of chunks) bound += Buffer.byteLength(chunk, 'base64');
  const target = new Uint8Array(new ArrayBuffer(bound));
  let at = 0;
  for (const chunk of chunks) {
    const part = Buffer.from(chunk, 'base64');
    target.set(part, at);
    at += part.byteLength;
  }
  // byteLength is an upper bound for malformed text; keep only the bytes actually decoded.
  return new ctor(at === bound ? target.buffer : target.buffer.slice(0, at));
}
