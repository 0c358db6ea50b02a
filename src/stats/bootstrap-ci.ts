import { quantileType7 } from './quantile.ts';

/** Options of {@link bootstrapCi}. */
export interface BootstrapOptions {
  /** Number of bootstrap resamples (>= 1). */
  replicates: number;
  /** Uniform [0, 1) stream; pass a seeded stream from the run (never Math.random). */
  rng: () => number;
  /** Two-sided confidence level, default 0.95. */
  level?: number;
}

/** A point estimate with its confidence interval. */
export interface EstimateCi {
  estimate: number;
  lo: number;
  hi: number;
}

/**
 * Percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13): `estimate` is stat(xs);
 * each of `replicates` resamples draws n values with replacement (index ⌊rng() · n⌋) and
 * the bounds are the (1 − level)/2 and (1 + level)/2 quantiles of the replicate statistics
 * (linear interpolation, R's type 7). Deterministic for a given rng stream. An empty sample
 * gives NaN bounds.
 */
export function bootstrapCi(
  xs: readonly number[],
  stat: (sample: number[]) => number,
  opts: BootstrapOptions,
): EstimateCi {
  const level = opts.level ?? 0.95;
  if (!(opts.replicates >= 1)) throw new RangeError(`replicates must be >= 1, got ${opts.replicates}`);
  const estimate = stat([...xs]);
  const n = xs.length;
  if (n === 0) return { estimate, lo: Number.NaN, hi: Number.NaN };
  const reps: number[] = [];
  const sample = new Array<number>(n);
  for (let r = 0; r < opts.replicates; r++) {
    for (let i = 0; i < n; i++) sample[i] = xs[Math.floor(opts.rng() * n)];
    reps.push(stat(sample.slice()));
  }
  reps.sort((x, y) => x - y);
  return { estimate, lo: quantileType7(reps, (1 - level) / 2), hi: quantileType7(reps, (1 + level) / 2) };
}
