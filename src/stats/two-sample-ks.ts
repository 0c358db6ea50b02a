/** The result of {@link twoSampleKs}. */
export interface TwoSampleKs {
  /** The largest distance between the two empirical distribution functions. */
  d: number;
  /** Asymptotic two-sided p-value (conservative when the samples have ties). */
  p: number;
}

/**
 * Q_KS(λ) = 2 Σ_{k≥1} (−1)^(k−1) e^(−2k²λ²), the tail of Kolmogorov's limiting distribution
 * (Smirnov 1948): P(√n·D > λ) for large samples.
 */
export function kolmogorovTail(lambda: number): number {
  if (lambda < 0.2) return 1; // the series converges slowly there and the tail is 1 to 1e-9
  let sum = 0;
  for (let k = 1; k <= 100; k++) {
    const term = Math.exp(-2 * k * k * lambda * lambda);
    sum += k % 2 === 1 ? term : -term;
    if (term < 1e-16) break;
  }
  return Math.min(1, Math.max(0, 2 * sum));
}

/**
 * Two-sample Kolmogorov–Smirnov test of the hypothesis that `a` and `b` come from one
 * distribution: D = sup |F_a − F_b|, and the p-value Q_KS((√n_e + 0.12 + 0.11/√n_e)·D) with
 * n_e = n_a·n_b/(n_a + n_b), Stephens' (1970, J. R. Stat. Soc. B 32:115) small-sample
 * correction of the limiting distribution (as in Press et al., Numerical Recipes, §14.3).
 * Hand-written: the statistics library this project uses has the one-sample test only.
 */
export function twoSampleKs(a: readonly number[], b: readonly number[]): TwoSampleKs {
  if (a.length === 0 || b.length === 0) throw new RangeError('both samples need at least one value');
  const x = Float64Array.from(a).sort();
  const y = Float64Array.from(b).sort();
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < x.length && j < y.length) {
    const v = Math.min(x[i], y[j]);
    while (i < x.length && x[i] === v) i++;
    while (j < y.length && y[j] === v) j++;
    d = Math.max(d, Math.abs(i / x.length - j / y.length));
  }
  const ne = (x.length * y.length) / (x.length + y.length);
  const root = Math.sqrt(ne);
  return { d, p: kolmogorovTail((root + 0.12 + 0.11 / root) * d) };
}
