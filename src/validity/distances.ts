/** A discrete distribution: probability per option id. Missing options have probability 0. */
export type Shares = Readonly<Record<string, number>>;

function support(p: Shares, q: Shares): string[] {
  return [...new Set([...Object.keys(p), ...Object.keys(q)])];
}

/** Total variation distance ½ Σ |p(x) − q(x)|, in [0, 1]. */
export function totalVariation(p: Shares, q: Shares): number {
  let s = 0;
  for (const k of support(p, q)) s += Math.abs((p[k] ?? 0) - (q[k] ?? 0));
  return s / 2;
}

/**
 * Jensen–Shannon divergence in bits (log base 2), in [0, 1]: ½ KL(p‖m) + ½ KL(q‖m) with
 * m = ½(p + q) (Lin 1991, IEEE Trans. Inf. Theory 37:145). This is the divergence, not its
 * square root (the JS distance).
 */
export function jensenShannon(p: Shares, q: Shares): number {
  let s = 0;
  for (const k of support(p, q)) {
    const a = p[k] ?? 0;
    const b = q[k] ?? 0;
    const m = (a + b) / 2;
    if (a > 0) s += 0.5 * a * Math.log2(a / m);
    if (b > 0) s += 0.5 * b * Math.log2(b / m);
  }
  return Math.max(0, s);
}

/** True when every option id of both distributions is a finite number (an ordinal or numeric scale). */
export function isNumericSupport(p: Shares, q: Shares): boolean {
  return support(p, q).every((k) => k.trim() !== '' && Number.isFinite(Number(k)));
}

/**
 * Wasserstein-1 (earth mover's) distance between two distributions on the real line whose
 * option ids are numbers: ∫ |F_p(x) − F_q(x)| dx, the area between the two CDFs, in the
 * units of the scale (Vallender 1974). NaN when an option id is not a number.
 */
export function wasserstein1(p: Shares, q: Shares): number {
  if (!isNumericSupport(p, q)) return Number.NaN;
  const xs = support(p, q).sort((a, b) => Number(a) - Number(b));
  let fp = 0;
  let fq = 0;
  let s = 0;
  for (let i = 0; i < xs.length - 1; i++) {
    fp += p[xs[i]] ?? 0;
    fq += q[xs[i]] ?? 0;
    s += Math.abs(fp - fq) * (Number(xs[i + 1]) - Number(xs[i]));
  }
  return s;
}
