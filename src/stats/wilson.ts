import { zCritical } from './normal.ts';

/** A proportion with its confidence interval. */
export interface ProportionCi {
  /** The observed proportion successes / n. */
  p: number;
  lo: number;
  hi: number;
}

/**
 * Wilson (1927) score interval for a binomial proportion, without continuity correction:
 * (p̂ + z²/2n ± z √(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n), z the two-sided normal critical value
 * at `level` (default 0.95). Newcombe (1998, Stat Med 17:857, method 3). With n = 0 all
 * three fields are NaN. Successes must lie in 0..n, else RangeError.
 */
export function wilson(successes: number, n: number, level = 0.95): ProportionCi {
  if (!(successes >= 0 && successes <= n)) throw new RangeError(`successes ${successes} outside 0..${n}`);
  if (n === 0) return { p: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  const p = successes / n;
  const z = zCritical(level);
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // the bounds are exactly 0 at no successes and 1 at all successes; avoid rounding residue
  const lo = successes === 0 ? 0 : Math.max(0, centre - half);
  const hi = successes === n ? 1 : Math.min(1, centre + half);
  return { p, lo, hi };
}
