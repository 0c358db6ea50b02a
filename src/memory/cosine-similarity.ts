import { RunError } from '../core/index.ts';

/**
 * Cosine similarity of two vectors of the same length, in [-1, 1]; 0 when either is the zero
 * vector. Sums run in index order, so the result is the same on every run.
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length)
    throw new RunError(`cannot compare embeddings of ${a.length} and ${b.length} dimensions`, {
      hint: 'embed the query and the memories with the same model',
    });
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  if (na === 0 || nb === 0) return 0;
  return dot / (Math.sqrt(na) * Math.sqrt(nb));
}
