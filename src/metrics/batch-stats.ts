/** Mean, standard error and a 95% confidence interval of a sample. */
export interface SampleStats {
  n: number;
  mean: number;
  se: number;
  ci95: [number, number];
}

// Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom; 1.96 beyond.
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** Student's t 95% two-sided quantile for `df` degrees of freedom. */
export function t95(df: number): number {
  if (df < 1) return Number.NaN;
  return df <= 30 ? T95[Math.floor(df) - 1] : 1.96;
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

/** Difference of means (b − a) with a Welch 95% confidence interval. */
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
  const h = t95(Math.max(1, Math.floor(df))) * se;
  return { n: Math.min(a.length, b.length), mean, se, ci95: [mean - h, mean + h] };
}
