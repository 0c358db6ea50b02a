import { describe, expect, it } from 'vitest';
import { welchTTest } from '../../src/stats/index.ts';

// Student's (1908) sleep data, R's `sleep` data set.
const group1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const group2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

describe('welchTTest', () => {
  it("matches R's t.test(extra ~ group, data = sleep) (Welch)", () => {
    // R prints: t = -1.8608, df = 17.776, p-value = 0.07939, 95 percent confidence interval
    // -3.3654832 0.2054832 (group 1 − group 2). The same call at full precision, as quoted
    // by easystats' parameters tests: t = -1.86081346748685, df = 17.7764735161785,
    // CI -3.36548323071171 .. 0.20548323071171.
    const r = welchTTest(group2, group1);
    expect(r.meanDiff).toBeCloseTo(-1.58, 12);
    expect(r.t).toBeCloseTo(-1.86081346748685, 10);
    expect(r.df).toBeCloseTo(17.7764735161785, 9);
    expect(r.p).toBeCloseTo(0.07939, 5);
    expect(r.lo).toBeCloseTo(-3.36548323071171, 9);
    expect(r.hi).toBeCloseTo(0.20548323071171, 9);
    expect([r.na, r.nb]).toEqual([10, 10]);
  });

  it('gives the difference itself when nothing varies, and NaN with one value', () => {
    const flat = welchTTest([1, 1, 1], [3, 3]);
    expect([flat.meanDiff, flat.lo, flat.hi]).toEqual([2, 2, 2]);
    expect(flat.p).toBe(0);
    const one = welchTTest([1], [2, 3]);
    expect(one.meanDiff).toBe(1.5);
    expect(one.lo).toBeNaN();
  });
});
