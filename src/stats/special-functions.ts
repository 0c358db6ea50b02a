import { stdBetainc, stdGammaln } from './stdlib.ts';

/** ln Γ(x), the natural logarithm of the gamma function (wraps `@stdlib/math-base-special-gammaln`). */
export function logGamma(x: number): number {
  return stdGammaln()(x);
}

/**
 * The regularized incomplete beta function I_x(a, b) = B(x; a, b) / B(a, b) for 0 <= x <= 1
 * and a, b > 0 (wraps `@stdlib/math-base-special-betainc`); NaN for other shapes.
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0) || Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return stdBetainc()(x, a, b);
}
