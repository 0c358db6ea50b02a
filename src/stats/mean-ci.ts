import { studentTQuantile } from './student-t.ts';

/** A sample's size, mean, standard deviation, standard error and confidence interval. */
export interface MeanCi {
  n: number;
  mean: number;
  /** Sample standard deviation (denominator n − 1). */
  sd: number;
  /** Standard error sd / √n. */
  se: number;
  lo: number;
  hi: number;
}

/**
 * Mean with a two-sided Student t confidence interval at `level` (default 0.95):
 * mean ± t_{(1+level)/2, n−1} · sd / √n. With n = 0 every field but n is NaN; with n = 1 the
 * mean is the single value and sd, se, lo and hi are NaN (no spread can be estimated).
 */
export function meanCi(xs: readonly number[], level = 0.95): MeanCi {
  const n = xs.length;
  let sum = 0;
  for (const x of xs) sum += x;
  const mean = n === 0 ? Number.NaN : sum / n;
  if (n < 2) return { n, mean, sd: Number.NaN, se: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  const sd = Math.sqrt(ss / (n - 1));
  const se = sd / Math.sqrt(n);
  const h = studentTQuantile((1 + level) / 2, n - 1) * se;
  return { n, mean, sd, se, lo: mean - h, hi: mean + h };
}
