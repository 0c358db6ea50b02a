import { describe, expect, it } from 'vitest';
import { meanPairwiseCosineDistance } from '../../src/validity/index.ts';

describe('meanPairwiseCosineDistance', () => {
  it('averages 1 − cosine over the unordered pairs (hand-computed cases)', () => {
    expect(
      meanPairwiseCosineDistance([
        [1, 0],
        [2, 0],
      ]),
    ).toBeCloseTo(0, 12);
    expect(
      meanPairwiseCosineDistance([
        [1, 0],
        [0, 3],
      ]),
    ).toBeCloseTo(1, 12);
    expect(
      meanPairwiseCosineDistance([
        [1, 0],
        [-1, 0],
      ]),
    ).toBeCloseTo(2, 12);
    // pairs: (a,b) cos 0 → 1; (a,c) cos 1/√2 → 1 − 0.7071; (b,c) cos 1/√2 → same
    const d = meanPairwiseCosineDistance([
      [1, 0],
      [0, 1],
      [1, 1],
    ]);
    expect(d).toBeCloseTo((1 + 2 * (1 - Math.SQRT1_2)) / 3, 12);
  });

  it('refuses too few vectors, mixed dimensions and zero vectors', () => {
    expect(() => meanPairwiseCosineDistance([[1, 2]])).toThrow(RangeError);
    expect(() =>
      meanPairwiseCosineDistance([
        [1, 2],
        [1, 2, 3],
      ]),
    ).toThrow(/dimensions/);
    expect(() =>
      meanPairwiseCosineDistance([
        [1, 2],
        [0, 0],
      ]),
    ).toThrow(/zero/);
  });
});
