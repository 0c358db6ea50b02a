import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import { kolmogorovTail, twoSampleKs } from '../../src/stats/index.ts';

describe('kolmogorovTail', () => {
  it('gives the tabulated critical values of the Kolmogorov distribution', () => {
    // P(K > λ) = α at λ = 1.2239 (0.10), 1.3581 (0.05), 1.6276 (0.01), 1.9495 (0.001)
    expect(kolmogorovTail(1.2239)).toBeCloseTo(0.1, 3);
    expect(kolmogorovTail(1.3581)).toBeCloseTo(0.05, 3);
    expect(kolmogorovTail(1.6276)).toBeCloseTo(0.01, 4);
    expect(kolmogorovTail(1.9495)).toBeCloseTo(0.001, 5);
    expect(kolmogorovTail(0)).toBe(1);
  });
});

describe('twoSampleKs', () => {
  it('computes D by hand on small samples, ties included', () => {
    // F_a jumps at 1, 2, 3; F_b at 2, 2, 4: the largest gap is at 1 (1/3 vs 0) and 3 (1 vs 2/3)
    expect(twoSampleKs([1, 2, 3], [2, 2, 4]).d).toBeCloseTo(1 / 3, 12);
    expect(twoSampleKs([1, 1, 1], [2, 2]).d).toBe(1);
    expect(twoSampleKs([5, 6, 7], [7, 6, 5]).d).toBe(0);
  });

  it('rejects at the nominal rate under the null and detects a shift of half a standard deviation', () => {
    const rng = new SeededStream('ks');
    const normal = (shift: number) => {
      const u = 1 - rng.next();
      return shift + Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
    };
    const sample = (n: number, shift: number) => Array.from({ length: n }, () => normal(shift));
    let nullRejects = 0;
    let shiftRejects = 0;
    const trials = 400;
    for (let k = 0; k < trials; k++) {
      if (twoSampleKs(sample(200, 0), sample(200, 0)).p < 0.05) nullRejects++;
      if (twoSampleKs(sample(200, 0), sample(200, 0.5)).p < 0.05) shiftRejects++;
    }
    // size: 5% nominal (±3 binomial standard errors); power against 0.5 sd: about 0.9
    expect(nullRejects / trials).toBeLessThan(0.05 + 3 * Math.sqrt((0.05 * 0.95) / trials));
    expect(shiftRejects / trials).toBeGreaterThan(0.8);
  });
});
