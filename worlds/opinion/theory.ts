import { Matrix, solve } from 'ml-matrix';
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
 * network weights are): an eigenvalue of the symmetric D^½ W D^−½, D = diag(π).
 */
export function secondEigenvalue(w: Matrix, pi: number[]): number {
  const n = w.rows;
  const sym = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const v = w.get(i, j);
      const u = w.get(j, i);
      // the mean of S and Sᵀ, S_ij = W_ij·√(π_i/π_j), as the full decomposition was given
      if (v !== 0 || u !== 0)
        sym[i * n + j] = (v * Math.sqrt(pi[i] / pi[j]) + u * Math.sqrt(pi[j] / pi[i])) / 2;
    }
  return symmetricEigenvalueFromTop(sym, n, 1);
}

/**
 * The eigenvalue of rank `rank` (0 = the largest) of the symmetric n×n matrix `a` (row-major,
 * overwritten): Householder reduction to a tridiagonal matrix, then bisection on its Sturm
 * counts. Eigenvalues only: ml-matrix's EigenvalueDecomposition also accumulates the n×n
 * eigenvectors, which made it ~10 times slower at the published n = 300 (speed).
 */
export function symmetricEigenvalueFromTop(a: Float64Array, n: number, rank: number): number {
  const { diag, off } = tridiagonalize(a, n);
  // every eigenvalue lies in the Gershgorin discs of the tridiagonal matrix
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const r = Math.abs(i > 0 ? off[i - 1] : 0) + Math.abs(i < n - 1 ? off[i] : 0);
    lo = Math.min(lo, diag[i] - r);
    hi = Math.max(hi, diag[i] + r);
  }
  // the wanted eigenvalue λ has exactly n - 1 - rank eigenvalues below it
  const below = n - 1 - rank;
  for (let iter = 0; iter < 200; iter++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (countBelow(diag, off, mid) > below) hi = mid;
    else lo = mid;
  }
  return lo + (hi - lo) / 2;
}

/** Householder reduction of symmetric `a` (overwritten) to tridiagonal form: diagonal and off-diagonal. */
function tridiagonalize(a: Float64Array, n: number): { diag: Float64Array; off: Float64Array } {
  const diag = new Float64Array(n);
  const off = new Float64Array(Math.max(n - 1, 0));
  const u = new Float64Array(n);
  const p = new Float64Array(n);
  for (let k = 0; k < n - 2; k++) {
    // the reflector maps column k below the diagonal, x = a[k+1.., k], onto alpha·e1
    let rest = 0;
    for (let i = k + 2; i < n; i++) rest += a[i * n + k] ** 2;
    const x0 = a[(k + 1) * n + k];
    const norm = Math.sqrt(x0 * x0 + rest);
    const alpha = x0 > 0 ? -norm : norm;
    off[k] = alpha;
    // u = x - alpha·e1; H = I - beta·u·uᵀ with beta = 2 / uᵀu
    const uu = rest + (x0 - alpha) ** 2;
    if (uu === 0) continue; // the column is zero already
    const beta = 2 / uu;
    for (let i = k + 1; i < n; i++) u[i] = a[i * n + k];
    u[k + 1] = x0 - alpha;
    // trailing block B <- H B H = B - u qᵀ - q uᵀ, p = beta·B u, q = p - (beta·uᵀp/2)·u
    let up = 0;
    for (let i = k + 1; i < n; i++) {
      let s = 0;
      const row = i * n;
      for (let j = k + 1; j < n; j++) s += a[row + j] * u[j];
      p[i] = beta * s;
      up += u[i] * p[i];
    }
    const c = (beta * up) / 2;
    for (let i = k + 1; i < n; i++) p[i] -= c * u[i];
    for (let i = k + 1; i < n; i++) {
      const row = i * n;
      const ui = u[i];
      const qi = p[i];
      for (let j = k + 1; j < n; j++) a[row + j] -= ui * p[j] + qi * u[j];
    }
  }
  for (let i = 0; i < n; i++) diag[i] = a[i * n + i];
  if (n >= 2) off[n - 2] = a[(n - 1) * n + (n - 2)];
  return { diag, off };
}

/** How many eigenvalues of the tridiagonal (diag, off) are below x: negative pivots of its LDLᵀ at x. */
function countBelow(diag: Float64Array, off: Float64Array, x: number): number {
  let count = 0;
  let q = 1;
  for (let i = 0; i < diag.length; i++) {
    q = diag[i] - x - (i > 0 ? (off[i - 1] * off[i - 1]) / q : 0);
    // a zero pivot is nudged off zero, as a shift by a rounding error would
    if (q === 0) q = -Number.EPSILON * (Math.abs(diag[i]) + Math.abs(x) + Number.MIN_VALUE);
    if (q < 0) count++;
  }
  return count;
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

/**
 * Degree-weighted share of opinion 1, Σ d_i·x_i / Σ d_i: the probability that opinion 1 wins
 * the voter model in which a waking agent copies a random neighbour, on a connected network
 * (the sum is a martingale: Sood & Redner 2005, Phys. Rev. Lett. 94:178701).
 */
export function degreeWeightedShare(network: Topology, x: ArrayLike<number>): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < network.size; i++) {
    const d = network.degree(i);
    num += d * x[i];
    den += d;
  }
  return num / den;
}

/**
 * Inverse-degree-weighted share Σ x_i/d_i / Σ 1/d_i: the winning probability under the
 * invasion rule, in which a waking agent imposes its opinion on a random neighbour (Sood,
 * Antal & Redner 2008, Phys. Rev. E 77:041121). Every agent needs a neighbour.
 */
export function inverseDegreeShare(network: Topology, x: ArrayLike<number>): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < network.size; i++) {
    const d = network.degree(i);
    if (d === 0)
      throw new RangeError(`agent ${i} has no neighbour: the invasion share needs every degree ≥ 1`);
    num += x[i] / d;
    den += 1 / d;
  }
  return num / den;
}

/**
 * Number of major opinion clusters Deffuant et al. (2000, Adv. Complex Syst. 3:87) report
 * for bounded-confidence pair compromise from uniform opinions on [0, 1]: ⌊1/(2ε)⌋ (at least 1).
 */
export function deffuantClusters(epsilon: number): number {
  return Math.max(1, Math.floor(1 / (2 * epsilon)));
}
