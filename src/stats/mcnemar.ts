import { stdBinomialCdf, stdGammainc } from './stdlib.ts';

/** Result of {@link mcnemar}. */
export interface McNemarResult {
  b: number;
  c: number;
  /** min(b, c) for the exact test; the corrected chi-square statistic otherwise. */
  statistic: number;
  /** Two-sided p-value. */
  p: number;
  /** Whether the exact binomial test was used. */
  exact: boolean;
}

/** Below this number of discordant pairs (b + c) {@link mcnemar} uses the exact binomial test. */
export const MCNEMAR_EXACT_BELOW = 25;

/**
 * McNemar's (1947) test of paired binary outcomes from the discordant counts b (yes/no) and
 * c (no/yes). Rule: when b + c < 25 the exact test, two-sided p = min(1, 2 · P(X <= min(b, c)))
 * with X ~ Binomial(b + c, ½), statistic = min(b, c) (as statsmodels' `mcnemar(exact=True)`);
 * otherwise the chi-square statistic with Edwards' (1948) continuity correction,
 * (|b − c| − 1)² / (b + c), on 1 degree of freedom (as R's `mcnemar.test`). b = c = 0 gives p = 1.
 */
export function mcnemar(b: number, c: number): McNemarResult {
  if (!(Number.isInteger(b) && Number.isInteger(c) && b >= 0 && c >= 0))
    throw new RangeError(`discordant counts must be non-negative integers: ${b}, ${c}`);
  const n = b + c;
  if (n < MCNEMAR_EXACT_BELOW) {
    const k = Math.min(b, c);
    const p = n === 0 ? 1 : Math.min(1, 2 * stdBinomialCdf()(k, n, 0.5));
    return { b, c, statistic: k, p, exact: true };
  }
  const statistic = (Math.abs(b - c) - 1) ** 2 / n;
  // chi-square(1) survival function P(X >= s) = Q(1/2, s/2), the upper regularized incomplete
  // gamma, which keeps its precision for small p (1 − CDF would not)
  return { b, c, statistic, p: stdGammainc()(statistic / 2, 0.5, true, true), exact: false };
}
