import { EigenvalueDecomposition, Matrix, solve } from 'ml-matrix';
import type { Topology } from '../../src/index.ts';
import type { TrustWeights } from './trust-weights.ts';

/**
 * The DeGroot trust matrix with equal weights on self and neighbours, built directly from
 * the network (independently of the world's update code): W_ij = 1/(d_i + 1) for j = i and
 * for each neighbour j of i.
 */
export function equalWeights(network: Topology): Matrix {
  const n = network.size;
  const w = Matrix.zeros(n, n);
  for (let i = 0; i < n; i++) {
    const share = 1 / (network.degree(i) + 1);
    w.set(i, i, share);
    network.forEachNeighbour(i, (j) => w.set(i, j, share));
  }
  return w;
}

/**
 * The left Perron vector π of a row-stochastic W (π W = π, Σπ = 1), from the linear system
 * (Wᵀ − I) πᵀ = 0 with its last equation replaced by Σπ = 1, solved by LU decomposition.
 */
export function leftPerron(w: Matrix): number[] {
  const n = w.rows;
  const a = w.transpose().sub(Matrix.eye(n, n));
  for (let j = 0; j < n; j++) a.set(n - 1, j, 1);
  const b = Matrix.zeros(n, 1);
  b.set(n - 1, 0, 1);
  return solve(a, b).getColumn(0);
}

/**
 * The second largest eigenvalue λ₂ of a W that is reversible with respect to π (as equal
 * network weights are): the eigenvalues of the symmetric D^½ W D^−½, D = diag(π).
 */
export function secondEigenvalue(w: Matrix, pi: number[]): number {
  const n = w.rows;
  const s = Matrix.zeros(n, n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const v = w.get(i, j);
      if (v !== 0) s.set(i, j, v * Math.sqrt(pi[i] / pi[j]));
    }
  const sym = s.add(s.transpose()).div(2);
  const values = new EigenvalueDecomposition(sym, { assumeSymmetric: true }).realEigenvalues;
  return [...values].sort((a, b) => b - a)[1];
}

/** The Friedkin–Johnsen steady state x* = (I − ΛW)⁻¹(I − Λ)u, by LU decomposition. */
export function friedkinJohnsenSteadyState(
  w: Matrix,
  lambda: ArrayLike<number>,
  u: ArrayLike<number>,
): number[] {
  const n = w.rows;
  const a = Matrix.eye(n, n);
  const b = Matrix.zeros(n, 1);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) a.set(i, j, a.get(i, j) - lambda[i] * w.get(i, j));
    b.set(i, 0, (1 - lambda[i]) * u[i]);
  }
  return solve(a, b).getColumn(0);
}

/** The dense trust matrix of a run: from the weights file when there is one, else equal network weights. */
export function trustMatrix(weights: TrustWeights | null, network: Topology): Matrix {
  if (!weights) return equalWeights(network);
  const n = weights.size;
  const w = Matrix.zeros(n, n);
  for (let i = 0; i < n; i++) {
    w.set(i, i, weights.self[i]);
    for (let p = weights.offsets[i]; p < weights.offsets[i + 1]; p++)
      w.set(i, weights.cols[p], weights.vals[p]);
  }
  return w;
}
