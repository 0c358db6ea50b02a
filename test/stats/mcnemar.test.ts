import { describe, expect, it } from 'vitest';
import { MCNEMAR_EXACT_BELOW, mcnemar } from '../../src/stats/index.ts';

describe('mcnemar', () => {
  it('uses the corrected chi-square from 25 discordant pairs on (Agresti presidential approval)', () => {
    // Agresti, An Introduction to Categorical Data Analysis (2nd ed., Table 8.1): b = 150, c = 86.
    // R mcnemar.test: McNemar's chi-squared = 16.818, df = 1, p-value = 4.115e-05.
    // scipy 1.17.1: (|150 − 86| − 1)² / 236 = 16.81779661016949, chi2.sf(·, 1) = 4.114562281345944e-05
    const r = mcnemar(150, 86);
    expect(r.exact).toBe(false);
    expect(r.statistic).toBeCloseTo(16.81779661016949, 12);
    expect(r.p).toBeCloseTo(4.114562281345944e-5, 15);
    // b + c = 25 exactly: chi-square; (25 − 1)² / 25 = 23.04, chi2.sf(23.04, 1) = 1.5866563039511885e-06
    const edge = mcnemar(25, 0);
    expect(MCNEMAR_EXACT_BELOW).toBe(25);
    expect(edge.exact).toBe(false);
    expect(edge.statistic).toBeCloseTo(23.04, 12);
    expect(edge.p).toBeCloseTo(1.5866563039511885e-6, 17);
  });

  it('uses the exact binomial test below 25 discordant pairs', () => {
    // scipy.stats.binomtest(3, 13, 0.5).pvalue = 0.09228515625 (= 2 · 378/8192, by hand)
    const r = mcnemar(3, 10);
    expect(r).toMatchObject({ b: 3, c: 10, statistic: 3, exact: true });
    expect(r.p).toBeCloseTo(0.09228515625, 14);
    expect(mcnemar(10, 3).p).toBeCloseTo(0.09228515625, 14);
    // 0 vs 5: 2 · (1/2)^5 = 0.0625
    expect(mcnemar(0, 5).p).toBeCloseTo(0.0625, 15);
    expect(mcnemar(12, 12)).toMatchObject({ p: 1, exact: true });
    expect(mcnemar(0, 0)).toMatchObject({ statistic: 0, p: 1, exact: true });
    expect(() => mcnemar(-1, 2)).toThrow(RangeError);
  });
});
