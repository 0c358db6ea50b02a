import { meanCi, pairedTTest as pairedT } from '../../../src/public/analysis.ts';

/** Mean, standard error and n of a sample; `mean` is null when empty, `se` when n < 2. */
export interface MeanSe {
  n: number;
  mean: number | null;
  se: number | null;
}

/** Mean and standard error (sample SD / sqrt(n)) of a sample: `meanCi` with nulls for the report. */
export function meanSe(xs: readonly number[]): MeanSe {
  const n = xs.length;
  if (n === 0) return { n, mean: null, se: null };
  const r = meanCi(xs);
  return { n, mean: r.mean, se: n < 2 ? null : r.se };
}

/**
 * A paired t-test of `b − a` over matched observations: the mean difference, its SD and
 * SE, t = mean / SE, df = n − 1, the two-sided p-value and a 95% confidence interval.
 * `t`, `df`, `p` and `ci95` are null when n < 2 or the differences do not vary (SE = 0).
 */
export interface PairedTTest {
  n: number;
  meanDiff: number | null;
  sd: number | null;
  se: number | null;
  t: number | null;
  df: number | null;
  p: number | null;
  ci95: [number, number] | null;
}

/**
 * Paired t-test of `b[k] − a[k]` (equal lengths, else RangeError): the engine's
 * `pairedTTest` with nulls where it gives NaN or no spread (the report's shape).
 */
export function pairedTTest(a: readonly number[], b: readonly number[]): PairedTTest {
  const r = pairedT(a, b);
  const n = r.n;
  const none = { t: null, df: null, p: null, ci95: null };
  if (n === 0) return { n, meanDiff: null, sd: null, se: null, ...none };
  if (n < 2) return { n, meanDiff: r.meanDiff, sd: null, se: null, ...none };
  if (r.se === 0) return { n, meanDiff: r.meanDiff, sd: r.sd, se: r.se, ...none };
  return { n, meanDiff: r.meanDiff, sd: r.sd, se: r.se, t: r.t, df: r.df, p: r.p, ci95: [r.lo, r.hi] };
}
