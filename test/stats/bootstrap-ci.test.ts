import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/rng.ts';
import { bootstrapCi, meanCi, quantileType7 } from '../../src/stats/index.ts';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A stream replaying fixed uniforms, so the resamples can be worked out by hand. */
function replay(us: number[]): () => number {
  let i = 0;
  return () => us[i++ % us.length];
}

describe('bootstrapCi', () => {
  it('takes percentile bounds of the resampled statistic (hand-worked)', () => {
    // xs = [2, 4, 9]; indices ⌊u·3⌋ give resamples [2,4,9] [2,2,9] [4,4,4] [9,2,4] with means
    // 5, 13/3, 4, 5. numpy.quantile([5, 13/3, 4, 5], [0.25, 0.75]) = [4.25, 5.0].
    const us = [0.1, 0.5, 0.9, 0, 0, 0.7, 0.4, 0.4, 0.4, 0.95, 0.2, 0.6];
    const r = bootstrapCi([2, 4, 9], mean, { replicates: 4, rng: replay(us), level: 0.5 });
    expect(r.estimate).toBe(5);
    expect(r.lo).toBeCloseTo(4.25, 14);
    expect(r.hi).toBeCloseTo(5, 14);
  });

  it('is reproducible from a seeded stream and close to the t interval for the mean', () => {
    const src = new SeededStream('bootstrap-test');
    const xs = Array.from({ length: 60 }, () => src.next() * 10);
    const run = () => {
      const s = new SeededStream('resample');
      return bootstrapCi(xs, mean, { replicates: 2000, rng: () => s.next() });
    };
    const a = run();
    expect(run()).toEqual(a);
    const t = meanCi(xs);
    expect(a.estimate).toBeCloseTo(t.mean, 12);
    expect(Math.abs(a.hi - a.lo - (t.hi - t.lo)) / (t.hi - t.lo)).toBeLessThan(0.15);
    expect(a.lo).toBeLessThan(a.estimate);
    expect(a.hi).toBeGreaterThan(a.estimate);
  });

  it('returns NaN bounds for an empty sample and refuses no replicates', () => {
    const r = bootstrapCi([], () => 0, { replicates: 10, rng: () => 0.5 });
    expect(r.lo).toBeNaN();
    expect(() => bootstrapCi([1], mean, { replicates: 0, rng: () => 0.5 })).toThrow(RangeError);
  });
});

describe('quantileType7', () => {
  it('matches numpy.quantile (linear)', () => {
    // numpy.quantile([1, 2, 3, 4, 10], [0.025, 0.975]) = [1.1, 9.4]
    expect(quantileType7([1, 2, 3, 4, 10], 0.025)).toBeCloseTo(1.1, 14);
    expect(quantileType7([1, 2, 3, 4, 10], 0.975)).toBeCloseTo(9.4, 14);
    expect(quantileType7([], 0.5)).toBeNaN();
  });
});
