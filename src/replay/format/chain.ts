import * as crypto from 'node:crypto';
import { sha256Hex } from '../../core/index.ts';

/** The chain value after a line of body `body` (docs/LOG-FORMAT.md, "Hash chain"): every writer, reader and patch computes it here. */
export function chainHash(prev: string, body: string | readonly (string | Uint8Array)[]): string {
  if (typeof body === 'string') return sha256Hex(`${prev}\n${body}`);
  const hash = chainHasher(prev);
  for (const piece of body) hash.update(piece);
  return hash.digest('hex');
}

/** {@link chainHash} fed piece by piece: `prev + "\n"` is in; update it with the body, then `digest('hex')`. */
export function chainHasher(prev: string): crypto.Hash {
  return crypto.createHash('sha256').update(`${prev}\n`);
}

/** Length of the `,"h":"<16 hex>"}` that ends every line in place of its body's closing brace. */
export const HASH_SUFFIX_LENGTH = 24;

/** The end of a line whose chain value is `chain`: `,"h":"<its first 16 hex digits>"}`. */
export function hashSuffix(chain: string): string {
  return `,"h":"${chain.slice(0, 16)}"}`;
}
