import { describe, expect, it } from 'vitest';
import { meanSe, pairedTTest } from '../../../../worlds/sotopia/study/stats.ts';

describe('pairedTTest', () => {
  it('tests the mean of b − a against 0 with df = n − 1', () => {
    const a = [5, 6, 7, 4, 5, 6];
    const b = [6, 8, 7, 6, 7, 9];
    // differences 1 2 0 2 2 3: mean 5/3, sd sqrt(1.0667)
    const r = pairedTTest(a, b);
    const sd = Math.sqrt(((1 - 5 / 3) ** 2 + (2 - 5 / 3) ** 2 * 3 + (0 - 5 / 3) ** 2 + (3 - 5 / 3) ** 2) / 5);
    expect(r.n).toBe(6);
    expect(r.df).toBe(5);
    expect(r.meanDiff).toBeCloseTo(5 / 3, 12);
    expect(r.sd).toBeCloseTo(sd, 12);
    expect(r.se).toBeCloseTo(sd / Math.sqrt(6), 12);
    expect(r.t).toBeCloseTo(5 / 3 / (sd / Math.sqrt(6)), 12);
    // scipy.stats.ttest_rel(b, a): t = 3.9528470752104745, p = 0.01081989741190373
    expect(r.t).toBeCloseTo(3.9528470752104741, 10);
    expect(r.p).toBeCloseTo(0.01081989741190373, 12);
    // exact t quantile, scipy.stats.t.ppf(0.975, 5) = 2.5705818356363146 (was the rounded table value 2.571)
    expect(r.ci95![0]).toBeCloseTo(5 / 3 - 2.5705818356363146 * r.se!, 12);
    expect(pairedTTest(b, a).t).toBeCloseTo(-r.t!, 12);
    expect(pairedTTest(b, a).p).toBeCloseTo(r.p!, 12);
  });

  it('gives no t or p without variation or with fewer than two pairs', () => {
    expect(pairedTTest([1, 2, 3], [2, 3, 4])).toMatchObject({ n: 3, meanDiff: 1, se: 0, t: null, p: null });
    expect(pairedTTest([1], [3])).toMatchObject({ n: 1, meanDiff: 2, se: null, t: null, df: null });
    expect(pairedTTest([], [])).toMatchObject({ n: 0, meanDiff: null, t: null });
    expect(() => pairedTTest([1], [1, 2])).toThrow(RangeError);
  });
});

describe('meanSe', () => {
  it('is the mean and SD/√n, with nulls for too little data', () => {
    expect(meanSe([2, 4, 6, 8])).toEqual({ n: 4, mean: 5, se: Math.sqrt(20 / 3 / 4) });
    expect(meanSe([3])).toEqual({ n: 1, mean: 3, se: null });
    expect(meanSe([])).toEqual({ n: 0, mean: null, se: null });
  });
});
