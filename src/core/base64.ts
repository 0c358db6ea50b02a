/** Base64 of a typed array's bytes (its window only). */
export function typedToBase64(view: ArrayBufferView): string {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64');
}

/** Decodes base64 into a fresh typed array of the given constructor. */
export function base64ToTyped<T extends Uint8Array | Int32Array | Float64Array>(
  text: string,
  ctor: { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number },
): T {
  const bytes = Buffer.from(text, 'base64');
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return new ctor(copy);
}
