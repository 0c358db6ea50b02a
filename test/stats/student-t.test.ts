import { describe, expect, it } from 'vitest';
import {
  logGamma,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTQuantile,
  studentTTwoSidedP,
} from '../../src/stats/index.ts';

describe('Student t wrappers', () => {
  it('match scipy 1.17.1 (scipy.stats.t.ppf / t.cdf)', () => {
    expect(studentTQuantile(0.975, 5)).toBeCloseTo(2.5705818356363146, 12);
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.706204736174694, 10);
    expect(studentTQuantile(0.995, 2.5)).toBeCloseTo(7.163728138948783, 10);
    expect(studentTQuantile(0.025, 30)).toBeCloseTo(-2.042272456301238, 12);
    expect(studentTCdf(2.5, 10)).toBeCloseTo(0.9842765778816955, 12);
    expect(studentTCdf(-1.3, 4.5)).toBeCloseTo(0.128098043972017, 12);
  });

  it('quantile inverts the cdf, and the two-sided p is twice the tail', () => {
    for (const df of [1, 3, 7.5, 40]) {
      for (const p of [0.01, 0.3, 0.5, 0.9])
        expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 10);
    }
    // 2 · (1 − scipy.stats.t.cdf(2.5, 10)) = 0.03144684423660882
    expect(studentTTwoSidedP(2.5, 10)).toBeCloseTo(0.03144684423660882, 12);
    expect(studentTTwoSidedP(-2.5, 10)).toBeCloseTo(0.03144684423660882, 12);
    expect(studentTTwoSidedP(0, 4)).toBe(1);
    expect(studentTTwoSidedP(Number.NaN, 4)).toBeNaN();
  });

  it('gives NaN for a bad probability or df', () => {
    expect(studentTQuantile(1.2, 5)).toBeNaN();
    expect(studentTCdf(1, -1)).toBeNaN();
  });
});

describe('special functions', () => {
  it('logGamma(n) = ln((n−1)!) and regularizedIncompleteBeta has its closed forms', () => {
    expect(logGamma(6)).toBeCloseTo(Math.log(120), 12);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    // I_x(a, 1) = x^a; I_x(1, b) = 1 − (1 − x)^b
    expect(regularizedIncompleteBeta(0.3, 2.5, 1)).toBeCloseTo(0.3 ** 2.5, 12);
    expect(regularizedIncompleteBeta(0.3, 1, 4)).toBeCloseTo(1 - 0.7 ** 4, 12);
    expect(regularizedIncompleteBeta(0.3, 0, 1)).toBeNaN();
    expect(regularizedIncompleteBeta(-1, 2, 2)).toBe(0);
  });
});
