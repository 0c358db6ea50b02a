/**
 * The base64 text of some bytes, encoded only when a piece of it is asked for. It stands
 * for a JSON string wherever a snapshot's state holds one (canonical JSON, `JSON.stringify`
 * through `toJSON`, the snapshot splitter), so that a column of deliveries can be written
 * slice by slice without the whole text ever being built. It keeps a view of the bytes,
 * not a copy: it is valid while they are not changed.
 */
export class Base64Text {
  constructor(readonly bytes: Uint8Array) {}

  /** Characters of the text (padding included): 4 per started group of 3 bytes. */
  get length(): number {
    return 4 * Math.ceil(this.bytes.byteLength / 3);
  }

  /** Characters `from` (inclusive) to `to` (exclusive) of the text, like `String.prototype.slice` with in-range indices. */
  slice(from: number, to: number = this.length): string {
    const end = Math.min(to, this.length);
    if (end <= from) return '';
    const group = Math.floor(from / 4);
    const bytes = this.bytes.subarray(group * 3, Math.min(Math.ceil(end / 4) * 3, this.bytes.byteLength));
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    return text.slice(from - group * 4, end - group * 4);
  }

  /** The whole text. */
  toString(): string {
    return this.slice(0);
  }

  /** The whole text (so that `JSON.stringify` writes it as a string). */
  toJSON(): string {
    return this.toString();
  }
}

/**
 * {@link Base64Text}s of a typed array's bytes, cut as `typedToBase64Chunks` cuts them: one
 * text when it has at most `chunkChars` characters, otherwise one per `chunkChars`
 * characters (the last may be shorter). `chunkChars` must be a positive multiple of 4.
 */
export function typedToBase64Texts(view: ArrayBufferView, chunkChars: number): Base64Text | Base64Text[] {
  if (!Number.isInteger(chunkChars) || chunkChars <= 0 || chunkChars % 4 !== 0) {
    throw new RangeError(`chunkChars must be a positive multiple of 4, got ${chunkChars}`);
  }
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const chunkBytes = (chunkChars / 4) * 3;
  if (bytes.byteLength <= chunkBytes) return new Base64Text(bytes);
  const texts: Base64Text[] = [];
  for (let at = 0; at < bytes.byteLength; at += chunkBytes)
    texts.push(new Base64Text(bytes.subarray(at, Math.min(at + chunkBytes, bytes.byteLength))));
  return texts;
}
