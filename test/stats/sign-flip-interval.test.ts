import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import { signFlipInterval } from '../../src/stats/index.ts';

const rng = (seed: string) => {
  const s = new SeededStream(seed);
  return () => s.next();
};

// Student's (1908) sleep data: differences group2 − group1.
const group1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const group2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
const sleep = group1.map((x, k) => group2[k] - x);

describe('signFlipInterval', () => {
  it('enumerates the sign flips: the sleep data against a brute-force test inversion', () => {
    // Expected values from a Python script (exact fractions, no library) that tests each
    // candidate δ by the definition: over all 1024 sign vectors s, δ is inside when both
    // #{Σ s(d − δ) ≥ Σ(d − δ)} / 1024 and #{Σ s(d − δ) ≤ Σ(d − δ)} / 1024 exceed 0.025.
    // It finds [5/6, 37/15], and the two-sided p-value of δ = 0 is 2 · 2/1024 = 0.00390625.
    const r = signFlipInterval(sleep, { rng: rng('unused') });
    expect(r.exact).toBe(true);
    expect(r.flips).toBe(1023);
    expect(r.estimate).toBeCloseTo(1.58, 12);
    expect(r.lo).toBeCloseTo(5 / 6, 12);
    expect(r.hi).toBeCloseTo(37 / 15, 12);
    expect(r.p).toBe(0.00390625);
  });

  it('a hand-computed case: six positive differences give [min, max] and p = 2/64', () => {
    // n = 6: 64 sign vectors, j = ⌊0.025 · 64 − 1⌋ + 1 = 1, so the bounds are the smallest and
    // largest subset means, min(d) and max(d). Only the identity flips to a sum ≥ the observed
    // one at δ = 0 (every difference is positive): one-sided p = 1/64, two-sided 2/64.
    const r = signFlipInterval([2, 1, 3, 1, 2, 2], { rng: rng('unused') });
    expect([r.lo, r.hi]).toEqual([1, 3]);
    expect(r.p).toBe(2 / 64);
  });

  it('is unbounded with five pairs or fewer at 95% (no sign flip is rare enough)', () => {
    const r = signFlipInterval([1, 2, 3, 4, 5], { rng: rng('unused') });
    expect(r.lo).toBe(Number.NEGATIVE_INFINITY);
    expect(r.hi).toBe(Number.POSITIVE_INFINITY);
  });

  it('draws seeded sign vectors beyond exactUpTo, close to the enumeration and reproducible', () => {
    const exact = signFlipInterval(sleep, { rng: rng('unused') });
    const mc = signFlipInterval(sleep, { rng: rng('a'), exactUpTo: 4, draws: 19999 });
    const again = signFlipInterval(sleep, { rng: rng('a'), exactUpTo: 4, draws: 19999 });
    expect(mc.exact).toBe(false);
    expect(mc.flips).toBe(19999);
    expect(again).toEqual(mc);
    // the Monte Carlo bounds are subset means near the exact order statistics
    expect(Math.abs(mc.lo - exact.lo)).toBeLessThan(0.15);
    expect(Math.abs(mc.hi - exact.hi)).toBeLessThan(0.15);
    expect(mc.p).toBeLessThan(0.01);
  });

  it('collapses to the value when the differences do not vary; NaN when empty', () => {
    const flat = signFlipInterval([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], { rng: rng('x') });
    expect([flat.lo, flat.hi]).toEqual([0.5, 0.5]);
    expect(signFlipInterval([], { rng: rng('x') }).lo).toBeNaN();
  });
});
