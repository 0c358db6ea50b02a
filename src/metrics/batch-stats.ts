import { studentTQuantile } from '../stats/index.ts';

/** Mean, standard error and a 95% confidence interval of a sample. */
export interface SampleStats {
  n: number;
  mean: number;
  se: number;
  ci95: [number, number];
}

/**
 * Student's t 95% two-sided quantile t_{0.975, df} for `df` > 0 degrees of freedom (exact,
 * from src/stats; non-integer df allowed); NaN below 1 df.
 */
export function t95(df: number): number {
  if (df < 1) return Number.NaN;
  return studentTQuantile(0.975, df);
}

/** Summary statistics of a sample (the CI uses Student's t). */
export function sampleStats(xs: readonly number[]): SampleStats {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1) : 0;
  const se = Math.sqrt(variance / n);
  const h = n > 1 ? t95(n - 1) * se : 0;
  return { n, mean, se, ci95: [mean - h, mean + h] };
}

/**
 * Difference of means (b − a) with a Welch (1947) 95% confidence interval: Student t with the
 * Welch–Satterthwaite degrees of freedom (not rounded, as R's `t.test` and scipy do).
 */
export function meanDifference(a: readonly number[], b: readonly number[]): SampleStats {
  const sa = sampleStats(a);
  const sb = sampleStats(b);
  const se = Math.sqrt(sa.se ** 2 + sb.se ** 2);
  const va = sa.se ** 2;
  const vb = sb.se ** 2;
  const df =
    va + vb === 0
      ? 1
      : (va + vb) ** 2 /
        ((a.length > 1 ? va ** 2 / (a.length - 1) : 0) + (b.length > 1 ? vb ** 2 / (b.length - 1) : 0) || 1);
  const mean = sb.mean - sa.mean;
  const h = t95(Math.max(1, df)) * se;
  return { n: Math.min(a.length, b.length), mean, se, ci95: [mean - h, mean + h] };
}
