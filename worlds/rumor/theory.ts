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

/**
 * Probability that one random seed triggers a global cascade in the Watts model on a
 * Poisson(z) graph with one threshold φ: the seed has a neighbour through which the
 * vulnerable cluster percolates (u: an edge does not lead into it). 0 outside the window.
 */
export function wattsCascadeProbability(z: number, phi: number): number {
  if (wattsCascadeRatio(z, phi) <= 1) return 0;
  const kmax = Math.floor(1 / phi);
  let u = 0;
  for (let it = 0; it < 10_000; it++) {
    let next = 0;
    let q = Math.exp(-z);
    for (let k = 0; k < 200; k++) {
      if (k > 0) q *= z / k;
      next += q * (k + 1 <= kmax ? u ** k : 1);
    }
    if (Math.abs(next - u) < 1e-13) break;
    u = next;
  }
  return 1 - Math.exp(-z * (1 - u));
}

/** Poisson(z) probabilities p_0..p_K, K where they fall below 1e-18 past the mean. */
function poissonTable(z: number): number[] {
  const p = [Math.exp(-z)];
  for (let k = 1; k < 1000 && (k <= z || p[k - 1] > 1e-18); k++) p.push((p[k - 1] * z) / k);
  return p;
}

/**
 * Σ_m C(t, m) q^m (1−q)^(t−m) over the m (active neighbours among t) whose share m/k of an
 * agent's k neighbours reaches φ, compared as the world compares them.
 */
function reachProbability(t: number, k: number, q: number, phi: number): number {
  if (q >= 1) return t / k >= phi ? 1 : 0;
  let sum = 0;
  let term = (1 - q) ** t; // m = 0
  for (let m = 0; m <= t; m++) {
    if (m > 0) term *= ((t - m + 1) / m) * (q / (1 - q));
    if (m / k >= phi) sum += term;
  }
  return sum;
}

/**
 * Mean final size (fraction of agents adopting) of a global cascade in the Watts model on a
 * Poisson(z) graph with threshold φ, started by a vanishing seed fraction: the analytic
 * result of Gleeson & Cahalane (2007, Phys. Rev. E 75:056103, eqs. 3–4 with ρ0 → 0+), exact
 * on locally tree-like graphs as n → ∞. q is the fixed point reached from 0+ of
 * q = Σ_k (k/z) p_k Σ_m C(k−1, m) q^m (1−q)^(k−1−m) F(m/k), F(x) = 1 when x ≥ φ; the size is
 * ρ = Σ_k p_k Σ_m C(k, m) q^m (1−q)^(k−m) F(m/k). 0 when no cascade grows (q stays at 0).
 */
export function wattsCascadeSize(z: number, phi: number): number {
  const p = poissonTable(z);
  const qStep = (q: number) => {
    let next = 0;
    for (let k = 1; k < p.length; k++) next += ((k * p[k]) / z) * reachProbability(k - 1, k, q, phi);
    return next;
  };
  let q = 1e-9;
  for (let it = 0; it < 100_000; it++) {
    const next = qStep(q);
    if (Math.abs(next - q) < 1e-15) break;
    q = next;
  }
  if (q < 1e-6) return 0;
  let rho = 0;
  for (let k = 1; k < p.length; k++) rho += p[k] * reachProbability(k, k, q, phi);
  return rho;
}

/**
 * Mean and variance of the total progeny of a Galton–Watson process with Poisson(m) offspring,
 * m < 1 (the Borel distribution: Borel 1942; Tanner 1961): 1/(1−m) and m/(1−m)³. It is the
 * limit law of the size of the cluster holding a given agent in G(n, m/n) below threshold.
 */
export function borelMoments(m: number): { mean: number; variance: number } {
  if (!(m >= 0 && m < 1)) throw new RangeError(`the Borel law needs 0 ≤ m < 1, got ${m}`);
  return { mean: 1 / (1 - m), variance: m / (1 - m) ** 3 };
}

/** Mean, variance and skewness (third standardized moment) of a count. */
export interface CountLaw {
  mean: number;
  variance: number;
  skewness: number;
}

/**
 * Law of min(X, cap) for a count X with P(X = k) = pmf[k] (k < pmf.length; the mass not listed
 * lies at or above cap): small-outbreak sizes are heavy-tailed, and a capped size keeps the
 * mean of a few hundred runs close to normal.
 */
export function cappedMoments(pmf: ArrayLike<number>, cap: number): CountLaw {
  let below = 0;
  let m1 = 0;
  let m2 = 0;
  let m3 = 0;
  for (let k = 0; k < Math.min(cap, pmf.length); k++) {
    below += pmf[k];
    m1 += k * pmf[k];
    m2 += k * k * pmf[k];
    m3 += k * k * k * pmf[k];
  }
  const top = Math.max(0, 1 - below);
  m1 += cap * top;
  m2 += cap * cap * top;
  m3 += cap * cap * cap * top;
  const variance = Math.max(0, m2 - m1 * m1);
  const third = m3 - 3 * m1 * m2 + 2 * m1 ** 3;
  return { mean: m1, variance, skewness: variance > 0 ? third / variance ** 1.5 : 0 };
}

/** The Borel law P(X = k) = e^(−mk)(mk)^(k−1)/k! for k = 0..K−1 (P(X = 0) = 0), from logarithms. */
export function borelPmf(m: number, K: number): Float64Array {
  const out = new Float64Array(K);
  let logFactorial = 0;
  for (let k = 1; k < K; k++) {
    logFactorial += Math.log(k);
    out[k] = m === 0 ? (k === 1 ? 1 : 0) : Math.exp(-m * k + (k - 1) * Math.log(m * k) - logFactorial);
  }
  return out;
}

/**
 * Asymptotic variance per agent of the giant component's fraction in G(n, m/n), m > 1:
 * √n(|C₁|/n − S) → N(0, S(1−S)/(1 − m(1−S))²), S = {@link giantFraction}(m) (Pittel 1990,
 * Random Struct. Algorithms 1:311; the Reed–Frost case κ = 0 of the final-size CLT in
 * Andersson & Britton 2000, Thm 4.2). 0 when m ≤ 1.
 */
export function giantComponentVariance(m: number): number {
  const s = giantFraction(m);
  if (s === 0) return 0;
  return (s * (1 - s)) / (1 - m * (1 - s)) ** 2;
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
