/**
 * Mean pairwise cosine distance of text embeddings, 1 − cos(u, v) averaged over all
 * unordered pairs: a diversity measure for free text (0 when every text embeds alike; near 1
 * for unrelated texts; up to 2 for opposite vectors). Embeddings come from whatever model the caller configured.
 * @throws RangeError for fewer than two vectors, vectors of different lengths, or a zero vector.
 */
export function meanPairwiseCosineDistance(vectors: readonly (readonly number[])[]): number {
  if (vectors.length < 2) throw new RangeError('mean pairwise distance needs at least two vectors');
  const dim = vectors[0].length;
  const unit = vectors.map((v, i) => {
    if (v.length !== dim) throw new RangeError(`vector ${i} has ${v.length} dimensions, not ${dim}`);
    const norm = Math.hypot(...v);
    if (!(norm > 0)) throw new RangeError(`vector ${i} is zero: its direction is undefined`);
    return v.map((x) => x / norm);
  });
  let total = 0;
  for (let i = 0; i < unit.length; i++)
    for (let j = i + 1; j < unit.length; j++) {
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += unit[i][k] * unit[j][k];
      total += 1 - dot;
    }
  return total / ((unit.length * (unit.length - 1)) / 2);
}
