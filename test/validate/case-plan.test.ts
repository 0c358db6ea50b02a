import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/index.ts';
import { binomialCdf, binomialQuantile, normalCdf } from '../../src/stats/index.ts';
import {
  attemptsFor,
  type CaseDesign,
  judgeCase,
  meanPower,
  parsePerturbation,
  planCase,
  proportionBand,
  proportionPower,
  replicateSeed,
} from '../../src/validate/index.ts';

// Reference values: Python (math.erfc for Φ, exact integer binomials via math.comb) or by hand.

function design(over: Partial<CaseDesign> = {}): CaseDesign {
  return {
    test: 'mean',
    predicted: 0,
    sd: 1,
    bias: 0,
    rule: 'test',
    deviation: { label: 'a shift of 1 sd', mean: 1, sd: 1 },
    qualify: 1,
    ...over,
  };
}

describe('normal and binomial helpers', () => {
  it('normalCdf matches ½·erfc(−x/√2) deep in the tails', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(-3)).toBeCloseTo(0.0013498980316300957, 15);
    expect(normalCdf(1.2)).toBeCloseTo(0.8849303297782917, 14);
    expect(normalCdf(-8) / 6.220960574271819e-16).toBeCloseTo(1, 10);
  });

  it('binomialQuantile is the smallest k with P(X ≤ k) ≥ q: 39 and 21 for Binomial(100, 0.3) at 0.975 and 0.025', () => {
    expect(binomialQuantile(0.975, 100, 0.3)).toBe(39);
    expect(binomialQuantile(0.025, 100, 0.3)).toBe(21);
    expect(binomialCdf(20, 100, 0.3)).toBeCloseTo(0.016462853241869378, 13);
    expect(binomialCdf(-1, 10, 0.5)).toBe(0);
    expect(binomialQuantile(0.5, 10, 0)).toBe(0);
  });
});

describe('planCase', () => {
  it('a mean test needs the textbook r = ((z_{α/2} + z_β)·σ/δ)² = 12.99 → 13 at α = 5%, power 95%, δ = σ', () => {
    const p = planCase(design(), 0.05, 1000);
    expect(p.z).toBeCloseTo(1.959963984540054, 12);
    expect(p.replicates).toBe(13);
    // Φ(√13 − z) + Φ(−√13 − z) = 0.9500756 (Python)
    expect(p.power).toBeCloseTo(0.9500756343278748, 10);
    expect(p.hi).toBeCloseTo(1.959963984540054 / Math.sqrt(13), 12);
    expect(p.attempts).toBe(13);
  });

  it('the bias budget widens the band and counts against the power twice (worst case)', () => {
    const d = design({ bias: 0.1 });
    const p = planCase(d, 0.05, 1000);
    expect(p.hi - p.lo).toBeCloseTo(2 * (0.1 + p.z / Math.sqrt(p.replicates)), 12);
    // needs ((z + 1.645)/(1 − 2·0.1))² = 20.3 → 21
    expect(p.replicates).toBe(21);
    expect(meanPower(d, p.z, 21)).toBeGreaterThanOrEqual(0.95);
    expect(meanPower(d, p.z, 20)).toBeLessThan(0.95);
  });

  it('caps the replicates at the case budget and reports the lower power, and the need', () => {
    const p = planCase(design(), 0.05, 5);
    expect(p.replicates).toBe(5);
    expect(p.needed).toBe(13);
    expect(p.power).toBeLessThan(0.95);
  });

  it('a proportion test uses exact binomial bounds: [21, 39] of 100 at P = 0.3, α = 5%; power 0.537941 at P = 0.4', () => {
    const d = design({ test: 'proportion', predicted: 0.3, deviation: { label: '+0.1', mean: 0.4, sd: 0 } });
    expect(proportionBand(d, 0.05, 100)).toEqual({ lo: 21, hi: 39 });
    // 1 − P(X ≤ 39) + P(X ≤ 20) under Binomial(100, 0.4), Python
    expect(proportionPower(d, 0.05, 100)).toBeCloseTo(0.5379410709919394, 10);
  });

  it('a prediction of 0 with a finite-size budget allows a few ones; with none, none', () => {
    const zero = design({ test: 'proportion', predicted: 0, deviation: { label: '5%', mean: 0.05, sd: 0 } });
    expect(proportionBand(zero, 0.01, 100)).toEqual({ lo: 0, hi: 0 });
    expect(proportionBand({ ...zero, bias: 0.01 }, 0.01, 100).hi).toBe(binomialQuantile(0.995, 100, 0.01));
  });

  it('runs that may not qualify get attempts enough, α·5% of the case spent on a shortfall', () => {
    // P(Binomial(A, ½) = 0) = 2^−A ≤ 0.01 from A = 7; P(Binomial(A, ½) ≤ 9) ≤ 0.01 from A = 33 (Python)
    expect(attemptsFor(1, 0.5, 0.01)).toBe(7);
    expect(attemptsFor(10, 0.5, 0.01)).toBe(33);
    expect(attemptsFor(10, 1, 0.01)).toBe(10);
    const p = planCase(design({ qualify: 0.5 }), 0.2, 10, 10);
    expect(p.alphaBand).toBeCloseTo(0.19, 15);
    expect(p.attempts).toBe(attemptsFor(10, 0.5, 0.01));
  });

  it('a skewed per-run law moves both ends of the band by the Cornish–Fisher term se·(g/√r)(z² − 1)/6', () => {
    const skewed = design({ skewness: 2 });
    const p = planCase(skewed, 0.05, 1000, 100);
    const se = 1 / Math.sqrt(p.replicates);
    const c = ((2 / Math.sqrt(p.replicates)) * (p.z * p.z - 1)) / 6;
    expect(p.hi).toBeCloseTo(se * (p.z + c), 12);
    expect(p.lo).toBeCloseTo(-se * (p.z - c), 12);
    // and needs at least (skewness / 0.25)² = 64 runs before it trusts the approximation
    expect(planCase(skewed, 0.05, 10).replicates).toBe(64);
  });

  it('refuses a design whose band could not be finite', () => {
    expect(() => planCase(design({ sd: Number.POSITIVE_INFINITY }), 0.05, 10)).toThrow(RangeError);
    expect(() => planCase(design({ bias: Number.NaN }), 0.05, 10)).toThrow(RangeError);
  });
});

describe('judgeCase', () => {
  const d = design();
  const plan = planCase(d, 0.05, 1000);

  it('passes a mean inside the band and fails one outside', () => {
    const inside = Array.from({ length: 13 }, () => ({ value: 0.5 }));
    const outside = Array.from({ length: 13 }, () => ({ value: 0.6 }));
    expect(plan.hi).toBeCloseTo(0.5436, 4);
    expect(judgeCase(d, plan, inside).pass).toBe(true);
    expect(judgeCase(d, plan, outside).pass).toBe(false);
  });

  it('fails when fewer runs qualified than needed, or a value is not a finite number', () => {
    const few = judgeCase(d, plan, [{ value: 0 }]);
    expect(few.pass).toBe(false);
    expect(few.reason).toMatch(/only 1 of the 13/);
    const nan = judgeCase(
      d,
      plan,
      Array.from({ length: 13 }, (_, k) => ({ value: k === 3 ? Number.NaN : 0 })),
    );
    expect(nan.pass).toBe(false);
  });

  it('uses each replicate’s own prediction and variance when it gives them, never the runs’ spread', () => {
    const reps = Array.from({ length: 13 }, (_, k) => ({ value: k % 2, predicted: 0.5, variance: 0.25 }));
    const v = judgeCase(d, plan, reps);
    expect(v.predicted).toBeCloseTo(0.5, 15);
    expect(v.hi - v.predicted).toBeCloseTo(plan.z * Math.sqrt(0.25 / 13), 12);
    expect(v.pass).toBe(true);
  });

  it('an exact case fails as soon as one replicate leaves its own bound', () => {
    const exact = design({ test: 'exact', bias: 1e-9 });
    const p = planCase(exact, 0.05, 3);
    expect(
      judgeCase(exact, p, [
        { value: 1e-12, bound: 1e-10 },
        { value: 0, bound: 1e-10 },
        { value: 0, bound: 1e-10 },
      ]).pass,
    ).toBe(true);
    const bad = judgeCase(exact, p, [
      { value: 1e-12, bound: 1e-10 },
      { value: 2e-10, bound: 1e-10 },
      { value: 0, bound: 1e-10 },
    ]);
    expect(bad.pass).toBe(false);
    expect(bad.reason).toMatch(/replicate 1/);
    expect(
      judgeCase(
        exact,
        p,
        [0, 0, 0].map(() => ({ value: 0, bound: Number.POSITIVE_INFINITY })),
      ).pass,
    ).toBe(false);
  });
});

describe('the seed rule and --perturb', () => {
  it('run k of base seed s uses s·10^6 + k; base seeds never share a run', () => {
    expect(replicateSeed(1, 0)).toBe(1_000_000);
    expect(replicateSeed(2, 999_999)).toBe(2_999_999);
    expect(() => replicateSeed(1, 1_000_000)).toThrow(RangeError);
    expect(() => replicateSeed(-1, 0)).toThrow();
  });

  it('parses KEY=FACTOR and refuses anything else', () => {
    expect(parsePerturbation('beta=1.05')).toEqual({ key: 'beta', factor: 1.05 });
    for (const bad of ['beta', 'beta=', 'beta=0', 'beta=-1', 'beta=x', '=2', 'a b=2'])
      expect(() => parsePerturbation(bad)).toThrow(UsageError);
  });
});
