import * as stats from '../stats/index.ts';

/** Mean, standard error and n of a sample; `mean` is null when empty, `se` when n < 2. */
export interface MeanSe {
  n: number;
  mean: number | null;
  se: number | null;
}

/** Mean and standard error (sample SD / sqrt(n)) of a sample. */
export function meanSe(xs: readonly number[]): MeanSe {
  const n = xs.length;
  if (n === 0) return { n, mean: null, se: null };
  let sum = 0;
  for (const x of xs) sum += x;
  const mean = sum / n;
  if (n < 2) return { n, mean, se: null };
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  return { n, mean, se: Math.sqrt(ss / (n - 1) / n) };
}

/** ln Γ(x); see {@link stats.logGamma} (library-backed). */
export const logGamma = stats.logGamma;

/**
 * The regularized incomplete beta function I_x(a, b) = B(x; a, b) / B(a, b), for
 * 0 <= x <= 1 and a, b > 0; NaN for bad shapes (library-backed, see src/stats).
 */
export const regularizedIncompleteBeta = stats.regularizedIncompleteBeta;

/**
 * Student's t cumulative distribution P(T <= t) for `df` > 0 degrees of freedom (not
 * necessarily an integer); NaN for bad df or t (library-backed, see src/stats).
 */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return Number.NaN;
  return stats.studentTCdf(t, df);
}

/** Two-sided p-value of a t statistic: P(|T| >= |t|); NaN for bad df or t. */
export function studentTTwoSided(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return Number.NaN;
  return stats.studentTTwoSidedP(t, df);
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
 * Paired t-test of `b[k] − a[k]` (equal lengths, else RangeError), computed by
 * {@link stats.pairedTTest} with nulls where it gives NaN or no spread.
 */
export function pairedTTest(a: readonly number[], b: readonly number[]): PairedTTest {
  const r = stats.pairedTTest(a, b);
  const n = r.n;
  const none = { t: null, df: null, p: null, ci95: null };
  if (n === 0) return { n, meanDiff: null, sd: null, se: null, ...none };
  if (n < 2) return { n, meanDiff: r.meanDiff, sd: null, se: null, ...none };
  if (r.se === 0) return { n, meanDiff: r.meanDiff, sd: r.sd, se: r.se, ...none };
  return { n, meanDiff: r.meanDiff, sd: r.sd, se: r.se, t: r.t, df: r.df, p: r.p, ci95: [r.lo, r.hi] };
}
