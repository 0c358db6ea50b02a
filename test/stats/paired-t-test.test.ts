import { describe, expect, it } from 'vitest';
import { pairedTTest } from '../../src/stats/index.ts';

// Student's (1908) sleep data, R's `sleep` data set: extra hours of sleep of 10 patients
// under two drugs.
const group1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const group2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

describe('pairedTTest', () => {
  it("matches R's t.test(paired = TRUE) and scipy.stats.ttest_rel on the sleep data", () => {
    // R documentation example: t = -4.0621, df = 9, p-value = 0.002833,
    // 95% CI -2.4598858 -0.7001142 (group1 − group2). scipy 1.17.1 ttest_rel(group2, group1):
    // t = 4.062127683382037, p = 0.002832890197384273, CI (0.7001142367230175, 2.459885763276983).
    const r = pairedTTest(group1, group2);
    expect(r.n).toBe(10);
    expect(r.df).toBe(9);
    expect(r.meanDiff).toBeCloseTo(1.58, 12);
    expect(r.sd).toBeCloseTo(1.2299954832798732, 12);
    expect(r.t).toBeCloseTo(4.062127683382037, 10);
    expect(r.p).toBeCloseTo(0.002832890197384273, 12);
    expect(r.lo).toBeCloseTo(0.7001142367230175, 10);
    expect(r.hi).toBeCloseTo(2.459885763276983, 10);
    const swapped = pairedTTest(group2, group1);
    expect(swapped.t).toBeCloseTo(-4.0621, 4);
    expect(swapped.lo).toBeCloseTo(-2.4598858, 7);
    expect(swapped.hi).toBeCloseTo(-0.7001142, 7);
  });

  it('gives d_z = mean / sd with the Hedges & Olkin normal-approximation interval', () => {
    // Computed in Python (numpy, scipy.stats.norm.ppf(0.975)): dz = 1.58 / 1.2299954832798732
    // = 1.2845575625910546; SE = sqrt(1/10 + dz²/20); dz ∓ 1.959963984540054 · SE
    // = (0.44725047288370956, 2.1218646522983997).
    const r = pairedTTest(group1, group2);
    expect(r.dz).toBeCloseTo(1.2845575625910546, 12);
    expect(r.dzLo).toBeCloseTo(0.44725047288370956, 10);
    expect(r.dzHi).toBeCloseTo(2.1218646522983997, 10);
  });

  it('uses the requested level for the mean-difference interval', () => {
    const r95 = pairedTTest(group1, group2);
    const r99 = pairedTTest(group1, group2, 0.99);
    expect(r99.lo).toBeLessThan(r95.lo);
    expect(r99.hi).toBeGreaterThan(r95.hi);
    expect(r99.p).toBe(r95.p);
  });

  it('handles too few pairs, no spread and unequal lengths', () => {
    const one = pairedTTest([1], [3]);
    expect(one.meanDiff).toBe(2);
    expect(one.t).toBeNaN();
    expect(one.p).toBeNaN();
    const flat = pairedTTest([1, 2, 3], [2, 3, 4]);
    expect(flat.se).toBe(0);
    expect(flat.t).toBe(Number.POSITIVE_INFINITY);
    expect(flat.p).toBe(0);
    expect([flat.lo, flat.hi]).toEqual([1, 1]);
    expect(() => pairedTTest([1], [1, 2])).toThrow(RangeError);
  });
});
