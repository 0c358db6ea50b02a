import type { Json } from '../../src/index.ts';
import type { RumorParams } from './params.ts';

/**
 * The fraction of a large well-mixed population that never hears a rumour started by one
 * spreader, under Maki–Thompson (and Daley–Kendall): the root θ in (0, 1) of
 * θ = exp(−2(1 − θ)) (Sudbury 1985; Daley and Kendall 1965), about 0.2032.
 */
export function neverHeardLimit(): number {
  let t = 0;
  for (let k = 0; k < 200; k++) t = Math.exp(-2 * (1 - t));
  return t;
}

/**
 * The giant-component fraction S = 1 − exp(−m·S) of a Poisson branching process with mean
 * offspring m (Erdős–Rényi percolation, independent cascade with m = p·c, SIR final size
 * with m = R0); 0 when m ≤ 1.
 */
export function giantFraction(m: number): number {
  if (m <= 1) return 0;
  let s = 1;
  for (let k = 0; k < 10_000; k++) {
    const next = 1 - Math.exp(-m * s);
    if (Math.abs(next - s) < 1e-15) return next;
    s = next;
  }
  return s;
}

/**
 * Watts (2002) cascade condition on a Poisson(z) random graph with one threshold φ for
 * everyone: global cascades are possible when Σ_k k(k−1)·ρ_k·p_k > z, where ρ_k = 1 if a
 * node of degree k is vulnerable (φ ≤ 1/k, k ≥ 1) and p_k is the Poisson degree law.
 * Returns the ratio of the two sides (> 1: inside the cascade window).
 */
export function wattsCascadeRatio(z: number, phi: number): number {
  let sum = 0;
  let pk = Math.exp(-z); // p_0
  for (let k = 1; k < 1000; k++) {
    pk *= z / k;
    if (phi <= 1 / k) sum += k * (k - 1) * pk;
    else break;
  }
  return sum / z;
}

/** What the published theory predicts for this setting, or null where none applies (the summary's `theory`). */
export function rumorTheory(p: RumorParams): Record<string, Json> | null {
  const well = p.network === 'complete';
  const er = p.network === 'erdos-renyi';
  if ((p.model === 'maki-thompson' || p.model === 'daley-kendall') && p.contact === 'instant' && well)
    return {
      neverHeard: neverHeardLimit(),
      source: 'Sudbury 1985; Daley & Kendall 1965 (n → ∞, one spreader)',
    };
  if (p.model === 'independent-cascade' && er)
    return {
      giantCascade: giantFraction(p.p * p.k),
      source: 'S = 1 − exp(−p·c·S) (bond percolation of G(n, c/n))',
    };
  if (p.model === 'watts-threshold' && er && p.phiDistribution === 'fixed') {
    const ratio = wattsCascadeRatio(p.k, p.phi);
    return {
      cascadeRatio: ratio,
      insideWindow: ratio > 1,
      source: 'Watts 2002, PNAS 99:5766 (cascade condition)',
    };
  }
  return null;
}
