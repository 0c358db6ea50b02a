import { describe, expect, it } from 'vitest';
import { wilson } from '../../src/stats/index.ts';

describe('wilson', () => {
  it("matches Newcombe (1998) Table II, method 3, and scipy's binomtest(...).proportion_ci('wilson')", () => {
    // Newcombe 1998, Stat Med 17:857–872: 81/263 → 0.2553 to 0.3662; 15/148 → 0.0624 to 0.1605.
    // scipy 1.17.1: (0.2552885198782742, 0.36620957698280004), (0.06238639953073629, 0.16048724172330803)
    const a = wilson(81, 263);
    expect(a.p).toBeCloseTo(81 / 263, 15);
    expect(a.lo).toBeCloseTo(0.2552885198782742, 10);
    expect(a.hi).toBeCloseTo(0.36620957698280004, 10);
    const b = wilson(15, 148);
    expect(b.lo).toBeCloseTo(0.06238639953073629, 10);
    expect(b.hi).toBeCloseTo(0.16048724172330803, 10);
  });

  it('handles the edges and other levels (scipy 1.17.1 values)', () => {
    // 0/20 → (0, 0.16112515805281935); 29/29 → (0.8830302015002592, 1)
    expect(wilson(0, 20).lo).toBe(0);
    expect(wilson(0, 20).hi).toBeCloseTo(0.16112515805281935, 10);
    expect(wilson(29, 29).lo).toBeCloseTo(0.8830302015002592, 10);
    expect(wilson(29, 29).hi).toBe(1);
    // 1/29 at 90%: (0.0077308079727380075, 0.14068309513251206)
    const c = wilson(1, 29, 0.9);
    expect(c.lo).toBeCloseTo(0.0077308079727380075, 10);
    expect(c.hi).toBeCloseTo(0.14068309513251206, 10);
    expect(wilson(0, 0).p).toBeNaN();
    expect(() => wilson(5, 3)).toThrow(RangeError);
  });
});
