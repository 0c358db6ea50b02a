import { stdTCdf, stdTQuantile } from './stdlib.ts';

/**
 * Quantile (inverse CDF) of Student's t distribution with `df` > 0 degrees of freedom (not
 * necessarily an integer): the t with P(T <= t) = p. A thin wrapper of
 * `@stdlib/stats-base-dists-t-quantile`; NaN for p outside [0, 1] or df <= 0.
 */
export function studentTQuantile(p: number, df: number): number {
  return stdTQuantile()(p, df);
}

/**
 * Cumulative distribution P(T <= x) of Student's t with `df` > 0 degrees of freedom (not
 * necessarily an integer). A thin wrapper of `@stdlib/stats-base-dists-t-cdf`; NaN for df <= 0.
 */
export function studentTCdf(x: number, df: number): number {
  return stdTCdf()(x, df);
}

/** Two-sided p-value P(|T| >= |t|) of a t statistic with `df` degrees of freedom. */
export function studentTTwoSidedP(t: number, df: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  return Math.min(1, 2 * stdTCdf()(-Math.abs(t), df));
}
