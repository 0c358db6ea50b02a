import { bootstrapCi, type EstimateCi } from '../stats/index.ts';
import { seededIndexUniform } from './seeded-rng.ts';

/** Unit vectors of `vectors`, checked: same length, none zero. */
function unitVectors(vectors: readonly (readonly number[])[]): number[][] {
  const dim = vectors[0].length;
  return vectors.map((v, i) => {
    if (v.length !== dim) throw new RangeError(`vector ${i} has ${v.length} dimensions, not ${dim}`);
    const norm = Math.hypot(...v);
    if (!(norm > 0)) throw new RangeError(`vector ${i} is zero: its direction is undefined`);
    return v.map((x) => x / norm);
  });
}

function cosineDistance(u: readonly number[], v: readonly number[]): number {
  let dot = 0;
  for (let k = 0; k < u.length; k++) dot += u[k] * v[k];
  return 1 - dot;
}

/**
 * Mean pairwise cosine distance of text embeddings, 1 − cos(u, v) averaged over all
 * unordered pairs: a diversity measure for free text (0 when every text embeds alike; near 1
 * for unrelated texts; up to 2 for opposite vectors). Embeddings come from whatever model the caller configured.
 * @throws RangeError for fewer than two vectors, vectors of different lengths, or a zero vector.
 */
export function meanPairwiseCosineDistance(vectors: readonly (readonly number[])[]): number {
  if (vectors.length < 2) throw new RangeError('mean pairwise distance needs at least two vectors');
  const unit = unitVectors(vectors);
  let total = 0;
  for (let i = 0; i < unit.length; i++)
    for (let j = i + 1; j < unit.length; j++) total += cosineDistance(unit[i], unit[j]);
  return total / ((unit.length * (unit.length - 1)) / 2);
}

/** Options of {@link meanPairwiseCosineDistanceCi}. */
export interface EmbeddingDistanceCiOptions {
  /** Cluster of each vector (its agent or episode); the bootstrap resamples clusters. Default: each vector its own. */
  clusters?: readonly string[];
  /** Bootstrap resamples (default 1000). */
  replicates?: number;
  /** Seed of the resampling (a string or number; default 1). */
  seed?: string | number;
  /** Confidence level (default 0.95). */
  level?: number;
}

/** The mean pairwise cosine distance with its bootstrap CI, and the sizes behind it. */
export interface EmbeddingDistanceCi extends EstimateCi {
  texts: number;
  clusters: number;
  replicates: number;
}

/** Sums of pairwise distances between and within clusters, and the cluster sizes. */
function clusterSums(unit: number[][], clusterOf: number[], k: number) {
  const between = Array.from({ length: k }, () => new Float64Array(k));
  const size = new Float64Array(k);
  for (const c of clusterOf) size[c]++;
  for (let i = 0; i < unit.length; i++)
    for (let j = i + 1; j < unit.length; j++) {
      const [a, b] = [clusterOf[i], clusterOf[j]];
      const d = cosineDistance(unit[i], unit[j]);
      // within a cluster: between[a][a] holds the sum over its unordered pairs
      if (a === b) between[a][a] += d;
      else {
        between[a][b] += d;
        between[b][a] += d;
      }
    }
  return { between, size };
}

/**
 * The resample statistic over cluster draws: Σ_{i<j} w_i w_j d_ij / Σ_{i<j} w_i w_j with w
 * the draw count of a text's cluster, from the cluster sums (a cluster drawn m times adds
 * m² times its within sum: its own pairs in each copy and cross-copy pairs of distinct texts).
 */
function weightedPairMean(between: Float64Array[], size: Float64Array, fallback: () => number) {
  const k = size.length;
  const m = new Float64Array(k);
  return (sample: number[]): number => {
    m.fill(0);
    for (const a of sample) m[a]++;
    let num = 0;
    let den = 0;
    for (let a = 0; a < k; a++) {
      if (m[a] === 0) continue;
      num += m[a] * m[a] * between[a][a];
      den += (m[a] * m[a] * size[a] * (size[a] - 1)) / 2;
      for (let b = a + 1; b < k; b++) {
        if (m[b] === 0) continue;
        num += m[a] * m[b] * between[a][b];
        den += m[a] * m[b] * size[a] * size[b];
      }
    }
    return den > 0 ? num / den : fallback();
  };
}

/**
 * {@link meanPairwiseCosineDistance} with a percentile bootstrap CI (src/stats bootstrapCi)
 * that resamples clusters (agents or episodes) with replacement. A resample where cluster a
 * is drawn m_a times weighs every text of a by m_a; its statistic is the weighted mean
 * distance over pairs of distinct texts, Σ_{i<j} w_i w_j d_ij / Σ_{i<j} w_i w_j, so a text is
 * never paired with its own copy (that zero distance was never observed). With every weight 1
 * it is the estimate. A resample without a pair of distinct texts (every draw the same
 * one-text cluster: probability K^(1−K) for K clusters) counts as the estimate. With one
 * cluster the interval is NaN (nothing to resample). Seeded: the same vectors, clusters and
 * seed give the same interval.
 * @throws RangeError as {@link meanPairwiseCosineDistance}, or when `clusters` has another length.
 */
export function meanPairwiseCosineDistanceCi(
  vectors: readonly (readonly number[])[],
  opts: EmbeddingDistanceCiOptions = {},
): EmbeddingDistanceCi {
  if (vectors.length < 2) throw new RangeError('mean pairwise distance needs at least two vectors');
  const labels = opts.clusters ?? vectors.map((_, i) => String(i));
  if (labels.length !== vectors.length)
    throw new RangeError(`${labels.length} cluster labels for ${vectors.length} vectors`);
  const ids = [...new Set(labels)];
  const clusterOf = labels.map((l) => ids.indexOf(l));
  const { between, size } = clusterSums(unitVectors(vectors), clusterOf, ids.length);
  let estimate = Number.NaN;
  const stat = weightedPairMean(between, size, () => estimate);
  estimate = stat(ids.map((_, a) => a));
  const replicates = opts.replicates ?? 1000;
  if (ids.length < 2)
    return { estimate, lo: Number.NaN, hi: Number.NaN, texts: vectors.length, clusters: 1, replicates };
  const rng = seededIndexUniform(`embedding-distance/${opts.seed ?? 1}`);
  const ci = bootstrapCi(
    ids.map((_, a) => a),
    stat,
    { replicates, rng, ...(opts.level === undefined ? {} : { level: opts.level }) },
  );
  return { ...ci, texts: vectors.length, clusters: ids.length, replicates };
}
