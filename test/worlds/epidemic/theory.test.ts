import { describe, expect, it } from 'vitest';
import {
  birthDeathMoments,
  curveCentre,
  finalSizeCltVariance,
  peakTime,
  perEdgeMajorProbability,
  perEdgeTransmissibility,
  sirFinalSizeDistribution,
  sirOde,
  tailMoments,
} from '../../../worlds/epidemic/theory.ts';
import { giantFraction } from '../../../worlds/rumor/theory.ts';

// Reference values were computed outside the project: exact fractions by first-step analysis
// in Python (fractions.Fraction), the chain's law for large n by a separate Python forward
// recursion, the ODE by a separate Python Runge–Kutta, or by hand where the comment says so.

describe('sirFinalSizeDistribution: the Markovian SIR jump chain', () => {
  it('n = 3, a = γ = 1, one infected: P(Z = 1, 2, 3) = 1/2, 2/9, 5/18 (by hand)', () => {
    // recovery first: 1/2; else s = 1, i = 2 and each later event is an infection with probability 1/3
    const d = sirFinalSizeDistribution({ n: 3, a: 1, gamma: 1, initial: 1 });
    expect([...d]).toHaveLength(4);
    expect(d[0]).toBe(0);
    expect(d[1]).toBeCloseTo(1 / 2, 15);
    expect(d[2]).toBeCloseTo(2 / 9, 15);
    expect(d[3]).toBeCloseTo(5 / 18, 15);
  });

  it('n = 4, a = 2, γ = 1: 1/3, 6/49, 864/6125, 7408/18375 (Python fractions)', () => {
    const d = sirFinalSizeDistribution({ n: 4, a: 2, gamma: 1, initial: 1 });
    const want = [0, 1 / 3, 6 / 49, 864 / 6125, 7408 / 18375];
    for (const [k, p] of want.entries()) expect(d[k]).toBeCloseTo(p, 14);
  });

  it('n = 1000, R0 = 1.5: outbreaks of ≥ 32 have probability 0.334788, mean 0.567599·n, variance 10.18903·n (Python recursion)', () => {
    const t = tailMoments(sirFinalSizeDistribution({ n: 1000, a: 1.5, gamma: 1, initial: 1 }), 32);
    expect(t.p).toBeCloseTo(0.3347878620421574, 11);
    expect(t.mean / 1000).toBeCloseTo(0.5675987308500705, 11);
    expect(t.variance / 1000).toBeCloseTo(10.189031232428562, 8);
    // n = 2000, Z ≥ 200: skewness −0.570756 (R0 = 1.5), −0.249343 (R0 = 2.5) (Python)
    const s15 = tailMoments(sirFinalSizeDistribution({ n: 2000, a: 1.5, gamma: 1, initial: 1 }), 200);
    expect(s15.skewness).toBeCloseTo(-0.5707561095460031, 8);
    const s25 = tailMoments(sirFinalSizeDistribution({ n: 2000, a: 2.5, gamma: 1, initial: 1 }), 200);
    expect(s25.skewness).toBeCloseTo(-0.24934335856805565, 8);
  });

  it('major outbreaks approach Kermack–McKendrick’s τ and the Andersson–Britton variance', () => {
    // n = 3000, Z ≥ 300 (Python: P 0.331455, mean 0.582007, variance 3.48067 per agent); limits:
    // P → 1 − 1/R0 (Whittle 1955), τ = 0.582812, variance 3.36602 per agent (Andersson & Britton 2000, Thm 4.2, κ² = 1)
    const t = tailMoments(sirFinalSizeDistribution({ n: 3000, a: 1.5, gamma: 1, initial: 1 }), 300);
    expect(t.p).toBeCloseTo(0.33145544747152017, 10);
    expect(t.mean / 3000).toBeCloseTo(0.5820067437916591, 10);
    expect(t.variance / 3000).toBeCloseTo(3.4806665982361884, 7);
    expect(Math.abs(t.p - (1 - 1 / 1.5))).toBeLessThan(0.003);
    expect(Math.abs(t.mean / 3000 - giantFraction(1.5))).toBeLessThan(0.001);
    expect(finalSizeCltVariance(1.5, giantFraction(1.5), 1)).toBeCloseTo(3.366022642732955, 10);
    expect(t.variance / 3000 / finalSizeCltVariance(1.5, giantFraction(1.5), 1)).toBeLessThan(1.05);
  });

  it('sums to 1 and refuses impossible settings', () => {
    const d = sirFinalSizeDistribution({ n: 500, a: 0.5, gamma: 1, initial: 3 });
    expect(d.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(() => sirFinalSizeDistribution({ n: 10, a: 1, gamma: 1, initial: 0 })).toThrow(RangeError);
  });
});

describe('sirOde: the SIR ODE in counts', () => {
  it('I(10)/I(0) = 6.054197 at n = 10^4, I(0) = 100, a = 0.4, γ = 0.2 (Python RK4, 200 steps per unit)', () => {
    const i = sirOde({ n: 10_000, a: 0.4, gamma: 0.2, initial: 100 }, 10);
    expect(i[10] / 100).toBeCloseTo(6.05419728371418, 8);
  });

  it('reaches the Kermack–McKendrick peak I_max = I0 + S0 − (n−1)/R0·(1 + ln(S0·R0/(n−1))) (closed form)', () => {
    // the first integral I + S − ((n−1)/R0)·ln S is constant along the ODE; I peaks at S = (n−1)/R0
    const curve = sirOde({ n: 2000, a: 0.4, gamma: 0.2, initial: 40 }, 400);
    const closed = 40 + 1960 - (1999 / 2) * (1 + Math.log((1960 * 2) / 1999));
    expect(closed).toBeCloseTo(327.3921240150339, 9);
    const sampled = Math.max(...curve);
    expect(sampled).toBeLessThanOrEqual(closed);
    expect(closed - sampled).toBeLessThan(0.1);
  });

  it('peak time 18.1278 and centre 21.5691 of the prevalence curve (Python RK4)', () => {
    const curve = sirOde({ n: 2000, a: 0.4, gamma: 0.2, initial: 40 }, 400);
    expect(peakTime(curve)).toBeCloseTo(18.12782836355263, 6);
    expect(curveCentre(curve)).toBeCloseTo(21.569108276203163, 6);
  });
});

describe('curve helpers', () => {
  it('peakTime refines the largest sample by a parabola; curveCentre is Σt·I/ΣI from t = 1 (by hand)', () => {
    // samples of −(t − 2.25)²: the parabola through t = 1, 2, 3 peaks at 2.25 exactly
    expect(peakTime([-5.0625, -1.5625, -0.0625, -0.5625, -3.0625])).toBeCloseTo(2.25, 12);
    expect(curveCentre([99, 1, 2, 1])).toBeCloseTo((1 + 4 + 3) / 4, 12);
  });
});

describe('birthDeathMoments (Kendall 1948)', () => {
  it('i0 = 1, λ = 2, μ = 1 at t = ln 2: mean 2, variance 3·2·1 = 6, Var(W) = 3 (by hand)', () => {
    const m = birthDeathMoments(1, 2, 1, Math.log(2));
    expect(m.mean).toBeCloseTo(2, 12);
    expect(m.variance).toBeCloseTo(6, 12);
    expect(m.martingaleVariance).toBeCloseTo(3, 12);
  });
});

describe('perEdgeTransmissibility (Newman 2002)', () => {
  it('τ/(τ + γ): 0.5 at τ = γ, 0.75 at τ = 3γ', () => {
    expect(perEdgeTransmissibility(0.2, 0.2)).toBe(0.5);
    expect(perEdgeTransmissibility(0.6, 0.2)).toBeCloseTo(0.75, 15);
  });
});

describe('perEdgeMajorProbability (Kenah & Robins 2007)', () => {
  it('the survival of the forward branching process: scipy quad + brentq on q = E[e^(−c(1−e^(−τI))(1−q))]', () => {
    // scipy 1.17: quad(γe^(−γx)·exp(−c(1−e^(−τx))(1−q)), 0, ∞) − q, root by brentq, 1 − q
    expect(perEdgeMajorProbability(4, 1, 1)).toBeCloseTo(0.6392322713805367, 8);
    expect(perEdgeMajorProbability(4, 0.5, 1)).toBeCloseTo(0.3154766203904633, 8);
    expect(perEdgeMajorProbability(6, 0.2, 0.5)).toBeCloseTo(0.49050552542263615, 8);
    expect(perEdgeMajorProbability(10, 3, 0.5)).toBeCloseTo(0.981123888788967, 7);
  });

  it('is 0 at or below cT = 1 and below the giant fraction above it (the shared infectious period)', () => {
    expect(perEdgeMajorProbability(2, 1, 1)).toBe(0);
    expect(perEdgeMajorProbability(4, 0.2, 1)).toBe(0);
    for (const [c, tau, gamma] of [
      [4, 1, 1],
      [6, 0.2, 0.5],
    ])
      expect(perEdgeMajorProbability(c, tau, gamma)).toBeLessThan(
        giantFraction(c * perEdgeTransmissibility(tau, gamma)),
      );
  });
});
