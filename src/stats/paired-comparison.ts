import { type MeanCi, meanCi } from './mean-ci.ts';
import { type PairedTTestResult, pairedTTest } from './paired-t-test.ts';
import { type SignFlipInterval, signFlipInterval } from './sign-flip-interval.ts';
import { type WelchTTestResult, welchTTest } from './welch-t-test.ts';

/** Options of {@link pairedComparison}. */
export interface PairedComparisonOptions {
  /** Two-sided confidence level, default 0.95. */
  level?: number;
  /** Uniform [0, 1) stream for the sign flips (seeded; see {@link signFlipInterval}). */
  rng: () => number;
  /** Random sign vectors when the pairs are too many to enumerate (default 9999). */
  draws?: number;
}

/** Everything a paired experiment reports about one outcome (see {@link pairedComparison}). */
export interface PairedComparison {
  /** Number of pairs. */
  n: number;
  /** Each arm's mean with its own t interval. */
  a: MeanCi;
  b: MeanCi;
  /** The differences b[k] − a[k], in pair order. */
  differences: number[];
  /** Paired t-test and interval of the mean difference. */
  t: PairedTTestResult;
  /** Sign-flip permutation interval of the mean difference. */
  signFlip: SignFlipInterval;
  /** Pearson correlation of the paired outcomes (NaN when an arm does not vary). */
  correlation: number;
  /**
   * Variance of the mean difference under pairing relative to independent samples of the
   * same sizes: s_d² / (s_a² + s_b²) = 1 − 2·r·s_a·s_b / (s_a² + s_b²). Below 1 pairing
   * bought precision (1 − ratio is the variance reduction); 1 − r when both arms have one SD.
   */
  varianceRatio: number;
  /** The unpaired analysis of the same numbers (Welch), for comparison. */
  welch: WelchTTestResult;
}

/**
 * A paired experiment's analysis of one outcome: arm a (control) and arm b (treated)
 * measured on the same units (pairs k share their random numbers), compared through the
 * per-pair differences b[k] − a[k]: the paired t interval, the sign-flip permutation
 * interval, the correlation between the arms and the variance reduction that pairing gave
 * over an unpaired (Welch) analysis, which is returned too. The correlation comes from the
 * identity s_d² = s_a² + s_b² − 2 r s_a s_b.
 */
export function pairedComparison(
  a: readonly number[],
  b: readonly number[],
  opts: PairedComparisonOptions,
): PairedComparison {
  const level = opts.level ?? 0.95;
  const t = pairedTTest(a, b, level);
  const differences = a.map((x, k) => b[k] - x);
  const ma = meanCi(a, level);
  const mb = meanCi(b, level);
  const sum = ma.sd ** 2 + mb.sd ** 2;
  const flipOpts = { level, rng: opts.rng, ...(opts.draws === undefined ? {} : { draws: opts.draws }) };
  return {
    n: t.n,
    a: ma,
    b: mb,
    differences,
    t,
    signFlip: signFlipInterval(differences, flipOpts),
    correlation: ma.sd > 0 && mb.sd > 0 ? (sum - t.sd ** 2) / (2 * ma.sd * mb.sd) : Number.NaN,
    varianceRatio: sum > 0 ? t.sd ** 2 / sum : Number.NaN,
    welch: welchTTest(a, b, level),
  };
}
