import { stdBinomialCdf } from './stdlib.ts';

/** P(X ≤ k) for X ~ Binomial(n, p) (wraps `@stdlib/stats-base-dists-binomial-cdf`); 0 for k < 0. */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  return stdBinomialCdf()(k, n, p);
}

/**
 * The q-quantile of Binomial(n, p): the smallest k in 0..n with P(X ≤ k) ≥ q, found by
 * bisection on {@link binomialCdf} (O(log n) CDF evaluations).
 */
export function binomialQuantile(q: number, n: number, p: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (binomialCdf(mid, n, p) >= q) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
