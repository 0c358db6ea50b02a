import { meanCi } from './mean-ci.ts';
import { studentTQuantile, studentTTwoSidedP } from './student-t.ts';

/** Result of {@link welchTTest}. */
export interface WelchTTestResult {
  /** Sizes of the two samples. */
  na: number;
  nb: number;
  /** Difference of means b̄ − ā. */
  meanDiff: number;
  /** Its standard error √(s_a²/n_a + s_b²/n_b). */
  se: number;
  /** Welch–Satterthwaite degrees of freedom (not rounded). */
  df: number;
  t: number;
  /** Two-sided p-value. */
  p: number;
  /** Student t confidence interval of the difference at the requested level. */
  lo: number;
  hi: number;
}

/**
 * Welch's (1947) two-sample t-test of b − a for samples that need not share a variance:
 * df = (v_a + v_b)² / (v_a²/(n_a − 1) + v_b²/(n_b − 1)) with v = s²/n, not rounded, as R's
 * `t.test(b, a)` and scipy's `ttest_ind(equal_var=False)` compute it. With fewer than two
 * values in either sample, everything but the sizes and the difference is NaN. When neither
 * sample varies (se = 0) the interval is the difference itself and t follows IEEE division.
 */
export function welchTTest(a: readonly number[], b: readonly number[], level = 0.95): WelchTTestResult {
  const ma = meanCi(a, level);
  const mb = meanCi(b, level);
  const meanDiff = mb.mean - ma.mean;
  const va = ma.se ** 2;
  const vb = mb.se ** 2;
  const se = Math.sqrt(va + vb);
  const df = (va + vb) ** 2 / (va ** 2 / (ma.n - 1) + vb ** 2 / (mb.n - 1));
  const t = meanDiff / se;
  const base = { na: ma.n, nb: mb.n, meanDiff, se, t };
  if (se === 0) return { ...base, df: Number.NaN, p: studentTTwoSidedP(t, 1), lo: meanDiff, hi: meanDiff };
  const h = studentTQuantile((1 + level) / 2, df) * se;
  return { ...base, df, p: studentTTwoSidedP(t, df), lo: meanDiff - h, hi: meanDiff + h };
}
