import { createHash } from 'node:crypto';

/** Dimensions of the local server's embeddings unless the request asks for fewer or more. */
export const LOCAL_EMBEDDING_DIMENSIONS = 256;

const WORD = /[\p{L}\p{N}]+/gu;
const slots = new Map<string, { index: number; sign: number }>();

/** Where a word lands among dimensions 1..dims-1, and with which sign (from sha256 of the word). */
function slotOf(word: string, dims: number): { index: number; sign: number } {
  const key = `${dims}|${word}`;
  let slot = slots.get(key);
  if (!slot) {
    const h = createHash('sha256').update(word).digest();
    slot = { index: 1 + (h.readUInt32BE(0) % (dims - 1)), sign: h[4] & 1 ? -1 : 1 };
    if (slots.size < 100_000) slots.set(key, slot);
  }
  return slot;
}

/**
 * The local server's embedding of `text`: a hashed bag of words (the "hashing trick"), a
 * test stand-in, not a semantic model. Each lower-cased word (a run of letters and digits)
 * adds ±1 at a dimension in 1..dims-1 chosen, with the sign, by sha256 of the word; a text
 * with no words (or whose words cancel out) is the unit vector of dimension 0. The vector is
 * scaled to length 1. Texts with the same words in any order embed alike; texts that share no
 * word are nearly orthogonal, so the cosine distance of two texts tracks how many words they share.
 */
export function hashedEmbedding(text: string, dims = LOCAL_EMBEDDING_DIMENSIONS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    const { index, sign } = slotOf(word, dims);
    v[index] += sign;
  }
  const norm = Math.hypot(...v);
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  return v.map((x) => x / norm);
}
