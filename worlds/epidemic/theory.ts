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
