import { stdNormalQuantile } from './stdlib.ts';

/** The two-sided standard normal critical value z with P(|Z| <= z) = level (1.959963… at 0.95). */
export function zCritical(level: number): number {
  return stdNormalQuantile()((1 + level) / 2, 0, 1);
}
