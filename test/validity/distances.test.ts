import { describe, expect, it } from 'vitest';
import { jensenShannon, totalVariation, wasserstein1 } from '../../src/validity/index.ts';

describe('distances against hand-computed values', () => {
  const p = { a: 0.5, b: 0.5 };
  const q = { a: 1 };

  it('total variation is half the L1 distance', () => {
    expect(totalVariation(p, q)).toBeCloseTo(0.5, 12);
    expect(totalVariation({ x: 0.2, y: 0.3, z: 0.5 }, { x: 0.4, y: 0.3, z: 0.3 })).toBeCloseTo(0.2, 12);
    expect(totalVariation(p, p)).toBe(0);
  });

  it('Jensen-Shannon is in bits: 1 for disjoint supports, 0.311278 for (½,½) vs (1,0)', () => {
    // m = (3/4, 1/4); KL(p‖m) = ½log2(2/3) + ½log2(2) = 0.207519; KL(q‖m) = log2(4/3) = 0.415037
    expect(jensenShannon(p, q)).toBeCloseTo(
      0.5 * (0.5 * Math.log2(2 / 3) + 0.5) + 0.5 * Math.log2(4 / 3),
      12,
    );
    expect(jensenShannon(p, q)).toBeCloseTo(0.311278, 6);
    expect(jensenShannon({ a: 1 }, { b: 1 })).toBeCloseTo(1, 12);
    expect(jensenShannon(p, p)).toBe(0);
  });

  it('Wasserstein-1 is the area between the CDFs, in scale units', () => {
    expect(wasserstein1({ 1: 0.5, 3: 0.5 }, { 2: 1 })).toBeCloseTo(1, 12);
    expect(wasserstein1({ 1: 1 }, { 5: 1 })).toBeCloseTo(4, 12);
    // F_p = .2,.5,1 and F_q = .4,.7,1 on 1,2,3: |.2|·1 + |.2|·1
    expect(wasserstein1({ 1: 0.2, 2: 0.3, 3: 0.5 }, { 1: 0.4, 2: 0.3, 3: 0.3 })).toBeCloseTo(0.4, 12);
    expect(wasserstein1({ 0: 0.5, 50: 0.5 }, { 0: 0.5, 40: 0.5 })).toBeCloseTo(5, 12);
    expect(wasserstein1({ yes: 1 }, { no: 1 })).toBeNaN();
  });
});
