import type { Json } from '../../src/index.ts';
import { giantFraction } from '../rumor/theory.ts';
import type { EpidemicParams } from './params.ts';

/** R0 of per-contact transmission on a well-mixed population: contacts per unit time × transmission / recovery rate. */
export function basicReproduction(p: EpidemicParams): number {
  return (p.contactRate * p.beta) / p.gamma;
}

/**
 * Transmissibility of per-edge SIR: the probability that an infected agent transmits along
 * one edge before it recovers, T = τ/(τ + γ) for exponential infectious periods.
 */
export function transmissibility(p: Pick<EpidemicParams, 'tau' | 'gamma'>): number {
  return p.tau / (p.tau + p.gamma);
}

/**
 * Final size of a large per-edge SIR outbreak on an Erdős–Rényi graph of mean degree c:
 * the giant component of bond percolation with occupation probability T, i.e. of
 * G(n, c·T/n), the root of z = 1 − e^(−c·T·z) (Newman 2002, Phys. Rev. E 66:016128; Kiss,
 * Miller & Simon 2017, ch. 6: exact for the attack rate of large outbreaks with exponential
 * infectious periods, whose transmissions from one node are correlated but whose
 * transmissions into a node are not).
 */
export function perEdgeFinalSize(c: number, p: Pick<EpidemicParams, 'tau' | 'gamma'>): number {
  return giantFraction(c * transmissibility(p));
}

/** SIS endemic prevalence of the homogeneous mean-field model on mean degree c: 1 − γ/(τ·c), or 0. */
export function meanFieldPrevalence(c: number, tau: number, gamma: number): number {
  return tau * c > gamma ? 1 - gamma / (tau * c) : 0;
}

/**
 * SIS endemic prevalence of the homogeneous pairwise (pair-approximation) model with degree n
 * (Keeling 1999, Proc. R. Soc. B 266:859; Kiss, Miller & Simon 2017, ch. 4; EoN's
 * `SIS_homogeneous_pairwise`), closed with [ABC] = ((n−1)/n)[AB][BC]/[B]. Setting its
 * derivatives to zero gives [SS] = γ[S]n/(τ(n−1)), [SI] = γ[I]/τ, and then
 * i = n(τ(n−1) − γ) / (τ·n(n−1) − γ) above the threshold τ(n−1) > γ, 0 below.
 */
export function pairApproximationPrevalence(n: number, tau: number, gamma: number): number {
  if (!(tau * (n - 1) > gamma)) return 0;
  return (n * (tau * (n - 1) - gamma)) / (tau * n * (n - 1) - gamma);
}

/** What theory says about a run with these parameters, for the summary (null where it says nothing). */
export function epidemicTheory(p: EpidemicParams, size: number): Json {
  const sir = p.model === 'sir';
  if (p.transmission === 'per-contact') {
    if (p.network !== 'complete') return null;
    const r0 = basicReproduction(p);
    return sir
      ? { finalSize: giantFraction(r0), source: 'Kermack & McKendrick 1927: z = 1 − e^(−R0·z)' }
      : { endemic: r0 > 1 ? 1 - 1 / r0 : 0, source: 'SIS endemic level 1 − 1/R0' };
  }
  const c = p.network === 'complete' ? size - 1 : p.network === 'erdos-renyi' ? p.k : null;
  if (c === null) return null;
  if (sir)
    return {
      transmissibility: transmissibility(p),
      finalSize: perEdgeFinalSize(c, p),
      source: 'bond percolation with T = τ/(τ+γ): giant component of G(n, c·T/n), z = 1 − e^(−c·T·z)',
    };
  return {
    endemicMeanField: meanFieldPrevalence(c, p.tau, p.gamma),
    endemicPairApproximation: pairApproximationPrevalence(c, p.tau, p.gamma),
    source:
      'homogeneous mean field 1 − γ/(τc); homogeneous pair approximation n(τ(n−1)−γ)/(τn(n−1)−γ) with n = c (Keeling 1999)',
  };
}

/**
 * Theory of the epidemic world's SIR on a well-mixed population of n: each infected agent
 * infects a uniformly random other agent at rate a = c·β (contact rate × transmission
 * probability; the contact is wasted unless the other is susceptible) and recovers at rate γ.
 */
export interface SirRates {
  n: number;
  /** Infection rate per infected agent, c·β. */
  a: number;
  /** Recovery rate γ. */
  gamma: number;
  /** Infected at time 0. */
  initial: number;
}

/**
 * Exact distribution of the final size Z (agents ever infected, the initial ones included)
 * of the Markovian SIR, from its jump chain on (susceptible s, infected i): the next event is
 * an infection with probability a·s/(n−1) / (a·s/(n−1) + γ), else a recovery (Bailey 1975,
 * The Mathematical Theory of Infectious Diseases, §6.5: the final size depends on the jump
 * chain only). Forward propagation over s from n − initial down, recoveries within a row:
 * O(n²) time, two rows of memory. Entry k is P(Z = k).
 */
export function sirFinalSizeDistribution(r: SirRates): Float64Array {
  const { n, a, gamma, initial } = r;
  if (!(Number.isInteger(n) && n >= 2 && Number.isInteger(initial) && initial >= 1 && initial <= n))
    throw new RangeError(`SIR chain needs integers n ≥ 2 and 1 ≤ initial ≤ n, got ${n}, ${initial}`);
  const out = new Float64Array(n + 1);
  let row = new Float64Array(n + 2);
  let next = new Float64Array(n + 2);
  row[initial] = 1;
  for (let s = n - initial; s >= 0; s--) {
    const rate = (a * s) / (n - 1);
    const pInfect = rate / (rate + gamma);
    next.fill(0);
    for (let i = n - s; i >= 1; i--) {
      const p = row[i];
      if (p === 0) continue;
      if (s > 0) next[i + 1] += p * pInfect;
      row[i - 1] += p * (1 - pInfect);
    }
    out[n - s] += row[0];
    [row, next] = [next, row];
  }
  return out;
}

/** Probability, mean, variance and skewness of a distribution restricted to k ≥ from. */
export function tailMoments(
  dist: ArrayLike<number>,
  from: number,
): { p: number; mean: number; variance: number; skewness: number } {
  let p = 0;
  let m1 = 0;
  for (let k = Math.max(0, Math.ceil(from)); k < dist.length; k++) {
    p += dist[k];
    m1 += k * dist[k];
  }
  const mean = m1 / p;
  let c2 = 0;
  let c3 = 0;
  for (let k = Math.max(0, Math.ceil(from)); k < dist.length; k++) {
    const d = k - mean;
    c2 += d * d * dist[k];
    c3 += d * d * d * dist[k];
  }
  const variance = c2 / p;
  return { p, mean, variance, skewness: variance > 0 ? c3 / p / variance ** 1.5 : 0 };
}

/**
 * Asymptotic variance per agent of the final size of a major SIR outbreak,
 * √n(Z/n − τ) → N(0, τ(1−τ)(1 + κ²R0²(1−τ)) / (1 − R0(1−τ))²), τ the Kermack–McKendrick
 * fraction and κ² the squared coefficient of variation of the infectious period (1 for the
 * exponential period here) (Andersson & Britton 2000, Stochastic Epidemic Models and Their
 * Statistical Analysis, Thm 4.2).
 */
export function finalSizeCltVariance(r0: number, tau: number, kappa2: number): number {
  return (tau * (1 - tau) * (1 + kappa2 * r0 * r0 * (1 - tau))) / (1 - r0 * (1 - tau)) ** 2;
}

/**
 * The SIR ODE in counts, dS/dt = −a·S·I/(n−1), dI/dt = a·S·I/(n−1) − γ·I (Kermack &
 * McKendrick 1927), integrated by classical Runge–Kutta with `steps` steps per unit time;
 * returns I at t = 0, 1, …, tEnd. Hand-written: eight lines of arithmetic, and the integer
 * sampling times must be hit exactly.
 */
export function sirOde(r: SirRates, tEnd: number, steps = 200): Float64Array {
  const { n, a, gamma } = r;
  const out = new Float64Array(tEnd + 1);
  let s = n - r.initial;
  let i = r.initial;
  out[0] = i;
  const h = 1 / steps;
  const ds = (s: number, i: number) => (-a * s * i) / (n - 1);
  const di = (s: number, i: number) => (a * s * i) / (n - 1) - gamma * i;
  for (let t = 1; t <= tEnd; t++) {
    for (let k = 0; k < steps; k++) {
      const s1 = ds(s, i);
      const i1 = di(s, i);
      const s2 = ds(s + (h / 2) * s1, i + (h / 2) * i1);
      const i2 = di(s + (h / 2) * s1, i + (h / 2) * i1);
      const s3 = ds(s + (h / 2) * s2, i + (h / 2) * i2);
      const i3 = di(s + (h / 2) * s2, i + (h / 2) * i2);
      const s4 = ds(s + h * s3, i + h * i3);
      const i4 = di(s + h * s3, i + h * i3);
      s += (h / 6) * (s1 + 2 * s2 + 2 * s3 + s4);
      i += (h / 6) * (i1 + 2 * i2 + 2 * i3 + i4);
    }
    out[t] = i;
  }
  return out;
}

/** Time of the largest entry of a curve sampled at t = 0, 1, 2, … refined by a parabola through its neighbours. */
export function peakTime(curve: ArrayLike<number>): number {
  let best = 0;
  for (let t = 1; t < curve.length; t++) if (curve[t] > curve[best]) best = t;
  if (best === 0 || best === curve.length - 1) return best;
  const [l, c, r] = [curve[best - 1], curve[best], curve[best + 1]];
  return best + (l - r) / (2 * (l - 2 * c + r));
}

/** Centre of a prevalence curve sampled at t = 1, 2, …: Σ t·I(t) / Σ I(t). */
export function curveCentre(curve: ArrayLike<number>): number {
  let num = 0;
  let den = 0;
  for (let t = 1; t < curve.length; t++) {
    num += t * curve[t];
    den += curve[t];
  }
  return num / den;
}

/**
 * Moments of the linear birth–death process started at i0 (birth rate λ, death rate μ):
 * E[I(t)] = i0·e^{(λ−μ)t}, Var[I(t)] = i0·(λ+μ)/(λ−μ)·e^{(λ−μ)t}(e^{(λ−μ)t} − 1) (Kendall
 * 1948, Ann. Math. Stat. 19:1; Bailey 1964, The Elements of Stochastic Processes, §8.6), and
 * Var(W) = (λ+μ)/((λ−μ)·i0) of the martingale limit W = lim I(t)e^{−(λ−μ)t}/i0. The early
 * phase of the SIR, before susceptibles run short, is this process with λ = a, μ = γ.
 */
export function birthDeathMoments(
  i0: number,
  lambda: number,
  mu: number,
  t: number,
): { mean: number; variance: number; martingaleVariance: number } {
  const g = Math.exp((lambda - mu) * t);
  const ratio = (lambda + mu) / (lambda - mu);
  return { mean: i0 * g, variance: i0 * ratio * g * (g - 1), martingaleVariance: ratio / i0 };
}

/**
 * Bond-percolation transmissibility of an edge when it transmits at rate τ while its infected
 * end is infectious for an exponential(γ) time: T = τ/(τ + γ) (Newman 2002, Phys. Rev. E
 * 66:016128, eq. 3). The final size of a major outbreak on G(n, z/n) is then S = 1 − e^{−zTS}
 * (Kenah & Robins 2007, Phys. Rev. E 76:036113: the attack rate is the giant in-component,
 * exactly Newman's; only the outbreak probability differs for random infectious periods).
 */
export function perEdgeTransmissibility(tau: number, gamma: number): number {
  return transmissibility({ tau, gamma });
}

/**
 * Probability that per-edge SIR on G(n, c/n) from one infected agent becomes a major
 * outbreak (n → ∞): the survival probability of the forward branching process, whose
 * individuals have an Exp(γ) infectious period I and, given I, Poisson(c(1 − e^(−τI)))
 * offspring (each of its Poisson(c) further edges transmits with probability 1 − e^(−τI)).
 * Its extinction probability q is the smallest root of q = E[exp(−c(1 − e^(−τI))(1 − q))]
 * (Kenah & Robins 2007, Phys. Rev. E 76:036113: the out-component of the epidemic percolation
 * network; Kiss, Miller & Simon 2017, Mathematics of Epidemics on Networks, ch. 6). Unlike the
 * final size, it is not the giant fraction of G(n, c·T/n): one agent's transmissions share
 * its infectious period. Hand-written: Simpson's rule on [0, 40/γ] (the tail beyond weighs
 * e^(−40)) inside a monotone fixed-point iteration from q = 0.
 */
export function perEdgeMajorProbability(c: number, tau: number, gamma: number): number {
  if (!(c * transmissibility({ tau, gamma }) > 1)) return 0;
  const top = 40 / gamma;
  const steps = 2 * Math.min(100_000, Math.ceil(2000 * (1 + tau / gamma)));
  const h = top / steps;
  // quadrature weights and the per-node transmission probability, computed once
  const w = new Float64Array(steps + 1);
  const pass = new Float64Array(steps + 1);
  for (let k = 0; k <= steps; k++) {
    const x = k * h;
    const simpson = k === 0 || k === steps ? 1 : k % 2 === 1 ? 4 : 2;
    w[k] = ((simpson * h) / 3) * gamma * Math.exp(-gamma * x);
    pass[k] = c * (1 - Math.exp(-tau * x));
  }
  let q = 0;
  for (let it = 0; it < 100_000; it++) {
    let next = 0;
    for (let k = 0; k <= steps; k++) next += w[k] * Math.exp(-pass[k] * (1 - q));
    if (Math.abs(next - q) < 1e-14) return 1 - next;
    q = next;
  }
  return 1 - q;
}
