import { describe, expect, it } from 'vitest';
import { pairwiseChainMoments } from '../../../worlds/rumor/pairwise-chain.ts';
import {
  borelMoments,
  borelPmf,
  cappedMoments,
  giantComponentVariance,
  giantFraction,
  neverHeardLimit,
  wattsCascadeProbability,
  wattsCascadeRatio,
  wattsCascadeSize,
} from '../../../worlds/rumor/theory.ts';

// Reference values below were computed outside the project: exact fractions by first-step
// analysis in Python (fractions.Fraction), fixed points by Newton/iteration in Python floats,
// or quoted from the publications named beside them.

describe('neverHeardLimit (Sudbury 1985)', () => {
  it('is the root of θ = e^(−2(1−θ)) in (0, 1): 0.2031878699799800', () => {
    // Newton's method in Python from 0.2; Sudbury (1985) gives 0.203
    expect(neverHeardLimit()).toBeCloseTo(0.20318786997997998, 14);
  });
});

describe('pairwiseChainMoments: exact never-hearing count of the jump chains', () => {
  it('Maki–Thompson, 1 spreader and 2 ignorants: 0, 1 or 2 left ignorant with probability 3/4, 1/4, 0 (Gani 2000)', () => {
    // J. Gani, The Maki–Thompson rumour model: a detailed analysis, ANU research report SRR00-007
    const m = pairwiseChainMoments(3, 'maki-thompson');
    expect(m.mean).toBeCloseTo(1 / 4, 15);
    expect(m.variance).toBeCloseTo(3 / 16, 15);
  });

  it('Daley–Kendall at n = 3: 0 or 1 left with probability 2/3, 1/3 (by hand)', () => {
    // (2,1,0) → (1,2,0); then rates i·s = 2 against s(s−1)/2 = 1: all hear with probability 2/3
    const m = pairwiseChainMoments(3, 'daley-kendall');
    expect(m.mean).toBeCloseTo(1 / 3, 15);
    expect(m.variance).toBeCloseTo(2 / 9, 15);
  });

  it('n = 4 and 5 match exact fractions from Python', () => {
    const cases: [number, 'maki-thompson' | 'daley-kendall', number, number][] = [
      [4, 'maki-thompson', 14 / 27, 344 / 729],
      [4, 'daley-kendall', 2 / 3, 28 / 45],
      [5, 'maki-thompson', 201 / 256, 54063 / 65536],
      [5, 'daley-kendall', 243 / 245, 69086 / 60025],
    ];
    for (const [n, model, mean, variance] of cases) {
      const m = pairwiseChainMoments(n, model);
      expect(m.mean).toBeCloseTo(mean, 13);
      expect(m.variance).toBeCloseTo(variance, 13);
    }
  });

  it('approaches the published limit 0.2032 and Maki–Thompson’s variance θ(1−θ)/(1−2θ) ≈ 0.2727 per agent', () => {
    // the variance is linear in n (Pittel 1990, J. Appl. Prob. 27:14); θ(1−θ)/(1−2θ) =
    // 0.272736 is the Richardson extrapolation of Python's exact chain at n = 500, 1000, 2000
    // (0.274564, 0.273639, 0.273184 per agent)
    const n = 2000;
    const mt = pairwiseChainMoments(n, 'maki-thompson');
    expect(mt.mean / n).toBeCloseTo(0.203145210905849, 10);
    expect(mt.variance / n).toBeCloseTo(0.2731844392394851, 9);
    const dk = pairwiseChainMoments(n, 'daley-kendall');
    expect(dk.mean / n).toBeCloseTo(0.20342361079032326, 10);
    expect(Math.abs(dk.mean / n - neverHeardLimit())).toBeLessThan(3e-4);
    // over every run, including Daley–Kendall's die-out at the start (probability ≈ 1/(2n))
    expect(dk.variance / n).toBeCloseTo(0.6288882098995818, 9);
  });

  it('skewness from the third moment: 0.961718 and 0.664050 at n = 4, 1.139842 and 1.057909 at n = 10 (Python fractions)', () => {
    expect(pairwiseChainMoments(4, 'maki-thompson').skewness).toBeCloseTo(0.9617178726399683, 12);
    expect(pairwiseChainMoments(4, 'daley-kendall').skewness).toBeCloseTo(0.664049771572406, 12);
    expect(pairwiseChainMoments(10, 'maki-thompson').skewness).toBeCloseTo(1.1398419676752218, 11);
    expect(pairwiseChainMoments(10, 'daley-kendall').skewness).toBeCloseTo(1.0579086057315752, 11);
  });

  it('conditions on at most `most` never hearing: Daley–Kendall’s spread is mostly its early die-out (n = 500, Python)', () => {
    // the first two spreaders meet before anyone else hears with probability ≈ 1/(2n)
    const all = pairwiseChainMoments(500, 'daley-kendall');
    expect(all.p).toBeCloseTo(1, 12);
    expect(all.variance / 500).toBeCloseTo(0.631262663125337, 9);
    expect(all.skewness).toBeCloseTo(11.283110029845947, 6);
    const took = pairwiseChainMoments(500, 'daley-kendall', 450);
    expect(took.p).toBeCloseTo(0.9989835315586437, 12);
    expect(took.mean / 500).toBeCloseTo(0.2033365611189011, 11);
    expect(took.variance / 500).toBeCloseTo(0.3126040691446651, 9);
    expect(took.skewness).toBeCloseTo(0.19473168982308772, 6);
    const mt = pairwiseChainMoments(500, 'maki-thompson', 450);
    expect(mt.p).toBeCloseTo(0.9999958839256196, 12);
    expect(mt.variance / 500).toBeCloseTo(0.2732709973012752, 9);
  });

  it('refuses a population below 2', () => {
    expect(() => pairwiseChainMoments(1, 'maki-thompson')).toThrow(RangeError);
  });
});

describe('percolation on G(n, m/n)', () => {
  it('giantFraction solves S = 1 − e^(−mS): 0.796812130020020 at m = 2, 0 at or below 1', () => {
    expect(giantFraction(2)).toBeCloseTo(0.7968121300200202, 14);
    expect(giantFraction(1.5)).toBeCloseTo(0.5828116438658115, 14);
    expect(giantFraction(1)).toBe(0);
    expect(giantFraction(0.5)).toBe(0);
  });

  it('giantComponentVariance: S(1−S)/(1 − m(1−S))² = 0.459442 at m = 2', () => {
    expect(giantComponentVariance(2)).toBeCloseTo(0.459441723007037, 12);
    expect(giantComponentVariance(0.8)).toBe(0);
  });

  it('borelMoments: the Borel law has mean 1/(1−m) and variance m/(1−m)³ (5 and 100 at m = 0.8)', () => {
    const b = borelMoments(0.8);
    expect(b.mean).toBeCloseTo(5, 12);
    expect(b.variance).toBeCloseTo(100, 9);
    expect(() => borelMoments(1)).toThrow(RangeError);
  });
});

describe('small cascades, counted up to a cap', () => {
  it('borelPmf: P(1) = e^(−m), P(2) = m·e^(−2m), P(3) = 1.5m²·e^(−3m) (by hand from e^(−mk)(mk)^(k−1)/k!)', () => {
    const p = borelPmf(0.8, 4);
    expect(p[0]).toBe(0);
    expect(p[1]).toBeCloseTo(Math.exp(-0.8), 15);
    expect(p[2]).toBeCloseTo(0.8 * Math.exp(-1.6), 15);
    expect(p[3]).toBeCloseTo(1.5 * 0.64 * Math.exp(-2.4), 15);
    // the full law sums to 1 below threshold, to the extinction probability 1 − S above it
    expect(borelPmf(0.8, 3000).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(borelPmf(2, 3000).reduce((a, b) => a + b, 0)).toBeCloseTo(1 - giantFraction(2), 9);
  });

  it('cappedMoments: X = 1, 2 with probability ½, ¼ and the rest at the cap 3: mean 1.75, variance 0.6875, skewness 0.493383 (by hand)', () => {
    const law = cappedMoments([0, 0.5, 0.25], 3);
    expect(law.mean).toBeCloseTo(1.75, 15);
    expect(law.variance).toBeCloseTo(0.6875, 15);
    // E[(X − 1.75)³] = 0.28125, over 0.6875^1.5
    expect(law.skewness).toBeCloseTo(0.28125 / 0.6875 ** 1.5, 12);
  });
});

describe('Watts (2002) cascades on Poisson graphs, φ = 0.18', () => {
  it('wattsCascadeRatio: Σ_{k≤5} k(k−1)p_k / z is 1.71425 at z = 2 and 1.73388 at z = 4 (Python)', () => {
    expect(wattsCascadeRatio(2, 0.18)).toBeCloseTo(1.7142469209970943, 12);
    expect(wattsCascadeRatio(4, 0.18)).toBeCloseTo(1.7338804814668354, 12);
    expect(wattsCascadeRatio(0.5, 0.18)).toBeLessThan(1);
    expect(wattsCascadeRatio(10, 0.18)).toBeLessThan(1);
  });

  it('wattsCascadeProbability: 0.754222 at z = 2 and 0.865296 at z = 4 (Python fixed point), 0 outside the window', () => {
    // an independent simulation (bench/validate-references.ts, n = 5000, 20000 runs) gave 0.7542 and 0.8636
    expect(wattsCascadeProbability(2, 0.18)).toBeCloseTo(0.7542222347550598, 10);
    expect(wattsCascadeProbability(4, 0.18)).toBeCloseTo(0.8652959412998462, 10);
    expect(wattsCascadeProbability(0.5, 0.18)).toBe(0);
    expect(wattsCascadeProbability(10, 0.18)).toBe(0);
  });

  it('wattsCascadeSize: the Gleeson–Cahalane fixed point, 0.796606 at z = 2 and 0.980173 at z = 4', () => {
    // Python iteration of Gleeson & Cahalane (2007) eqs. 3–4 with ρ0 = 1e-9: 0.7966064630616496
    // and 0.9801725864752918; the independent simulation at n = 5000 gave 0.79666 ± 0.00008 and 0.98022 ± 0.00002
    expect(wattsCascadeSize(2, 0.18)).toBeCloseTo(0.7966064630616496, 8);
    expect(wattsCascadeSize(4, 0.18)).toBeCloseTo(0.9801725864752918, 8);
    expect(wattsCascadeSize(10, 0.18)).toBe(0);
    // with every node vulnerable (φ → 0) the cascade is the giant component of G(n, z/n)
    expect(wattsCascadeSize(2, 1e-9)).toBeCloseTo(giantFraction(2), 6);
  });
});
