import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../../src/core/index.ts';
import { wattsStrogatz } from '../../../src/network/index.ts';
import {
  equalWeights,
  leftPerron,
  secondEigenvalue,
  symmetricEigenvalueFromTop,
} from '../../../worlds/opinion/theory.ts';

/** All eigenvalues of a symmetric matrix, largest first, from ml-matrix's full decomposition. */
function reference(m: Matrix): number[] {
  return [...new EigenvalueDecomposition(m, { assumeSymmetric: true }).realEigenvalues].sort((a, b) => b - a);
}

describe('eigenvalues of the DeGroot validation (worlds/opinion/theory.ts)', () => {
  it('give every rank of random symmetric matrices as the full decomposition does', () => {
    const rng = new SeededStream('theory-eigen');
    for (const n of [1, 2, 3, 9, 40]) {
      const m = Matrix.zeros(n, n);
      for (let i = 0; i < n; i++)
        for (let j = 0; j <= i; j++) {
          // some zero entries, so that the reduction meets columns that need no reflection
          const v = rng.chance(0.3) ? 0 : rng.next() * 4 - 2;
          m.set(i, j, v);
          m.set(j, i, v);
        }
      const expected = reference(m);
      const scale = Math.max(1, ...expected.map(Math.abs));
      for (let rank = 0; rank < n; rank++) {
        const got = symmetricEigenvalueFromTop(Float64Array.from(m.to1DArray()), n, rank);
        expect(Math.abs(got - expected[rank]), `n=${n} rank ${rank}`).toBeLessThan(1e-12 * scale);
      }
    }
  });

  it('counts a repeated eigenvalue once per multiplicity', () => {
    // the block [[2, 1], [1, 2]] has the eigenvalues 3 and 1: with the diagonal, 3, 1, 1, 0, −2
    const m = new Matrix([
      [2, 1, 0, 0, 0],
      [1, 2, 0, 0, 0],
      [0, 0, 1, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, -2],
    ]);
    const got = [0, 1, 2, 3, 4].map((r) =>
      symmetricEigenvalueFromTop(Float64Array.from(m.to1DArray()), 5, r),
    );
    expect(got.map((x) => Math.round(x * 1e12) / 1e12)).toEqual([3, 1, 1, 0, -2]);
  });

  it('λ₂ of equal weights on a Watts–Strogatz network is the full decomposition’s', () => {
    const network = wattsStrogatz({ n: 60, k: 6, beta: 0.1 }, new SeededStream('theory-ws'));
    const w = equalWeights(network);
    const pi = leftPerron(w);
    const s = Matrix.zeros(60, 60);
    for (let i = 0; i < 60; i++)
      for (let j = 0; j < 60; j++) s.set(i, j, w.get(i, j) * Math.sqrt(pi[i] / pi[j]));
    const expected = reference(s.add(s.transpose()).div(2));
    expect(expected[0]).toBeCloseTo(1, 12);
    expect(secondEigenvalue(w, pi)).toBeCloseTo(expected[1], 12);
    expect(secondEigenvalue(w, pi)).toBeLessThan(1 - 1e-3);
  });
});
