import { describe, expect, it } from 'vitest';
import {
  logGamma,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTQuantile,
  studentTTwoSidedP as studentTTwoSided,
} from '../../src/stats/index.ts';

// The special functions the study's statistics rest on (formerly tested through
// src/study/stats.ts, which only re-exported them).
describe('logGamma', () => {
  it('matches ln((n-1)!) and Γ(1/2) = √π', () => {
    let fact = 1;
    for (let n = 1; n <= 20; n++) {
      expect(logGamma(n)).toBeCloseTo(Math.log(fact), 10);
      fact *= n;
    }
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(logGamma(0.25)).toBeCloseTo(1.2880225246980774, 12);
  });
});

describe('regularizedIncompleteBeta', () => {
  it('has the closed forms I_x(a,1) = x^a, I_x(1,b) = 1-(1-x)^b, I_½(a,a) = ½', () => {
    for (const x of [0.01, 0.2, 0.5, 0.77, 0.99]) {
      for (const a of [0.5, 1, 2.5, 7]) expect(regularizedIncompleteBeta(x, a, 1)).toBeCloseTo(x ** a, 12);
      for (const b of [0.5, 1, 3, 11])
        expect(regularizedIncompleteBeta(x, 1, b)).toBeCloseTo(1 - (1 - x) ** b, 12);
    }
    for (const a of [0.5, 2, 10, 60]) expect(regularizedIncompleteBeta(0.5, a, a)).toBeCloseTo(0.5, 12);
  });

  it('is 0 and 1 at the ends, symmetric, and NaN for bad shapes', () => {
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
    expect(regularizedIncompleteBeta(0.3, 2, 5) + regularizedIncompleteBeta(0.7, 5, 2)).toBeCloseTo(1, 13);
    expect(regularizedIncompleteBeta(0.3, 0, 5)).toBeNaN();
  });
});

describe('Student t distribution', () => {
  it('df = 1 is the Cauchy distribution: F(t) = ½ + atan(t)/π', () => {
    for (const t of [-30, -2, -1, -0.3, 0, 0.5, 1, 4, 100]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 12);
    }
    expect(studentTTwoSided(1, 1)).toBeCloseTo(0.5, 12);
  });

  it('df = 2 and df = 3 match their closed forms', () => {
    for (const t of [-5, -1.5, 0, 0.7, 2, 9]) {
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 12);
      const u = t / Math.sqrt(3);
      expect(studentTCdf(t, 3)).toBeCloseTo(0.5 + (u / (1 + u * u) + Math.atan(u)) / Math.PI, 12);
    }
  });

  it('matches reference values (scipy.stats.t)', () => {
    expect(studentTTwoSided(2.5, 10)).toBeCloseTo(0.03144684423660882, 12);
    expect(studentTTwoSided(1.3, 4)).toBeCloseTo(0.2634515964712241, 12);
    expect(studentTTwoSided(0.7, 25)).toBeCloseTo(0.4903905367861301, 12);
    expect(studentTTwoSided(4.2, 7)).toBeCloseTo(0.004035559925219959, 12);
    expect(studentTTwoSided(3.0, 1.5)).toBeCloseTo(0.13354775425491328, 12);
    expect(studentTCdf(-0.4, 3)).toBeCloseTo(0.35796757698718507, 12);
  });

  it('gives p = 0.05 at the tabulated 95% quantiles, and tends to the normal', () => {
    for (let df = 1; df <= 30; df++)
      expect(Math.abs(studentTTwoSided(studentTQuantile(0.975, df), df) - 0.05)).toBeLessThan(2e-4);
    expect(studentTCdf(1.959963984540054, 1e7)).toBeCloseTo(0.975, 6);
  });

  it('handles t = 0, infinite t and bad df', () => {
    expect(studentTTwoSided(0, 5)).toBe(1);
    expect(studentTCdf(0, 5)).toBe(0.5);
    expect(studentTTwoSided(Number.POSITIVE_INFINITY, 5)).toBe(0);
    expect(studentTCdf(Number.NEGATIVE_INFINITY, 5)).toBe(0);
    expect(studentTCdf(1, 0)).toBeNaN();
  });
});
