import { ConfigError, type Rng } from '../core/index.ts';
import type { CsrTopology } from './csr-topology.ts';
import { EdgeHashSet } from './edge-hash-set.ts';
import { EdgeList } from './edge-list.ts';
import { samplePairsWithin } from './pair-sampling.ts';
import { checkEdgeBudget, checkInt, checkNodeCount, checkProbability } from './param-checks.ts';
import { UpperRows } from './upper-rows.ts';

/** Parameters of {@link erdosRenyi}: G(n, p), each pair linked independently with probability p. */
export interface ErdosRenyiGnpParams {
  /** Number of agents (>= 1). */
  n: number;
  /** Probability of each of the n(n-1)/2 edges, in [0, 1]. */
  p: number;
}

/** Parameters of {@link erdosRenyi}: G(n, m), exactly m edges chosen uniformly. */
export interface ErdosRenyiGnmParams {
  /** Number of agents (>= 1). */
  n: number;
  /** Number of edges, 0 <= m <= n(n-1)/2. */
  m: number;
}

/** Either variant of Erdős–Rényi parameters. */
export type ErdosRenyiParams = ErdosRenyiGnpParams | ErdosRenyiGnmParams;

/**
 * An Erdős–Rényi random graph. With `{n, p}`: G(n, p) by geometric skipping over the pairs
 * (Batagelj & Brandes 2005), one draw per edge, O(n + m). With `{n, m}`: G(n, m), uniform
 * over graphs with exactly m edges, by rejection sampling pairs (or, above half density,
 * sampling the pairs to leave out), O(n + m) expected; the sparse case sorts its first m
 * draws into per-node rows instead of hashing them (4 bytes per edge).
 * @throws ConfigError for a bad n, p or m, or when both or neither of p and m are given.
 */
export function erdosRenyi(params: ErdosRenyiParams, rng: Rng): CsrTopology {
  const hasP = 'p' in params && params.p !== undefined;
  const hasM = 'm' in params && params.m !== undefined;
  if (hasP === hasM)
    throw new ConfigError('erdos-renyi: give exactly one of p (edge probability) or m (edge count)', {
      hint: 'use {n, p} for G(n, p) or {n, m} for G(n, m)',
    });
  const n = checkNodeCount('erdos-renyi', params.n);
  return hasP
    ? gnp(n, (params as ErdosRenyiGnpParams).p, rng)
    : gnm(n, (params as ErdosRenyiGnmParams).m, rng);
}

function gnp(n: number, pRaw: number, rng: Rng): CsrTopology {
  const p = checkProbability('erdos-renyi', 'p', pRaw);
  const pairs = (n * (n - 1)) / 2;
  checkEdgeBudget('erdos-renyi', p * pairs);
  const edges = new EdgeList(p * pairs * 1.05 + 16);
  samplePairsWithin(edges, 0, n, p, rng);
  return edges.toTopology('erdos-renyi', n);
}

function gnm(n: number, mRaw: number, rng: Rng): CsrTopology {
  const pairs = (n * (n - 1)) / 2;
  const m = checkInt('erdos-renyi', 'm', mRaw, 0, pairs, `erdos-renyi needs 0 <= m <= n(n-1)/2 = ${pairs}`);
  checkEdgeBudget('erdos-renyi', m);
  if (m <= pairs / 2) return gnmSparse(n, m, rng);
  // Dense: choose the pairs to leave out, then list the others (O(pairs) = O(m) here).
  const edges = new EdgeList(m);
  const left = new EdgeHashSet(pairs - m);
  while (left.count < pairs - m) {
    const u = rng.int(n);
    const v = rng.int(n);
    if (u !== v) left.add(u, v);
  }
  for (let u = 0; u < n; u++) for (let v = u + 1; v < n; v++) if (!left.has(u, v)) edges.push(u, v);
  return edges.toTopology('erdos-renyi', n);
}

/**
 * G(n, m) by rejection: draw pairs (u, v), keep each new one with u != v, until m are kept.
 * The first m draws are sorted into {@link UpperRows} at once (one counting pass; no hash
 * table over all m edges); the few draws still needed are then checked one by one against
 * them and each other. Same draws, same graph as checking every draw in turn.
 */
function gnmSparse(n: number, m: number, rng: Rng): CsrTopology {
  const first = firstDraws(n, m, rng);
  const extraLo: number[] = [];
  const extraHi: number[] = [];
  const later = new EdgeHashSet(m - first.count);
  while (first.count + extraLo.length < m) {
    const u = rng.int(n);
    const v = rng.int(n);
    if (u === v) continue;
    const a = Math.min(u, v);
    const b = Math.max(u, v);
    if (first.has(a, b) || !later.add(a, b)) continue;
    extraLo.push(a);
    extraHi.push(b);
  }
  return first.toTopology('erdos-renyi', extraLo, extraHi);
}

/** The distinct edges among the first `m` draws of pairs (self pairs dropped). */
function firstDraws(n: number, m: number, rng: Rng): UpperRows {
  const lo = new Int32Array(m);
  const hi = new Int32Array(m);
  let len = 0;
  for (let i = 0; i < m; i++) {
    const u = rng.int(n);
    const v = rng.int(n);
    if (u === v) continue;
    lo[len] = Math.min(u, v);
    hi[len++] = Math.max(u, v);
  }
  return UpperRows.from(n, lo, hi, len);
}
