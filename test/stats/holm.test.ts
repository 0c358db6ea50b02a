import { describe, expect, it } from 'vitest';
import { holm } from '../../src/stats/index.ts';

describe('holm', () => {
  it('adjusts by hand-worked Holm (1979) step-down', () => {
    // m = 4, sorted 0.005 0.01 0.03 0.04 → 4·0.005 = 0.02, 3·0.01 = 0.03, 2·0.03 = 0.06,
    // 1·0.04 = 0.04 raised to the running max 0.06; returned in input order.
    const got = holm([0.01, 0.04, 0.03, 0.005]);
    const want = [0.03, 0.06, 0.06, 0.02];
    for (const [k, v] of got.entries()) expect(v).toBeCloseTo(want[k], 15);
  });

  it('caps at 1 and stays monotone in the raw p-values', () => {
    // 2·0.6 = 1.2 → 1; 0.7 → max(1, 0.7) = 1
    expect(holm([0.7, 0.6])).toEqual([1, 1]);
    // sorted 0.01 0.3 0.8: 0.03, 0.6, 0.8
    const got = holm([0.3, 0.8, 0.01]);
    for (const [k, w] of [0.6, 0.8, 0.03].entries()) expect(got[k]).toBeCloseTo(w, 15);
  });

  it('keeps NaN out of m and out of the result, like R p.adjust with NA', () => {
    // R: p.adjust(c(0.02, NA, 0.01), "holm") = 0.02 NA 0.02
    const got = holm([0.02, Number.NaN, 0.01]);
    expect(got[0]).toBeCloseTo(0.02, 15);
    expect(got[1]).toBeNaN();
    expect(got[2]).toBeCloseTo(0.02, 15);
    expect(holm([])).toEqual([]);
  });
});
