import { stdGammainc, stdNormalQuantile } from './stdlib.ts';

/** The two-sided standard normal critical value z with P(|Z| <= z) = level (1.959963… at 0.95). */
export function zCritical(level: number): number {
  return stdNormalQuantile()((1 + level) / 2, 0, 1);
}

/** The standard normal quantile Φ⁻¹(p) (wraps `@stdlib/stats-base-dists-normal-quantile`). */
export function normalQuantile(p: number): number {
  return stdNormalQuantile()(p, 0, 1);
}

/**
 * The standard normal CDF Φ(x) = ½·erfc(−x/√2). erfc(y) for y ≥ 0 is Q(½, y²), the upper
 * regularized incomplete gamma (`@stdlib/math-base-special-gammainc`), which keeps its
 * relative precision deep in the tails, where 1 − Φ would lose it.
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const tail = 0.5 * stdGammainc()((x * x) / 2, 0.5, true, true);
  return x >= 0 ? 1 - tail : tail;
}
