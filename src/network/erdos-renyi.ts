import { ConfigError, type Rng } from '../core/index.ts';
import type { CsrTopology } from './csr-topology.ts';
import { EdgeHashSet } from './edge-hash-set.ts';
import { EdgeList } from './edge-list.ts';
import { samplePairsWithin } from './pair-sampling.ts';
import { checkEdgeBudget, checkInt, checkNodeCount, checkProbability } from './param-checks.ts';

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
 * sampling the pairs to leave out), O(n + m) expected.
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
  const edges = new EdgeList(m);
  if (m <= pairs / 2) {
    const chosen = new EdgeHashSet(m);
    while (edges.length < m) {
      const u = rng.int(n);
      const v = rng.int(n);
      if (u !== v && chosen.add(u, v)) edges.push(u, v);
    }
  } else {
    // Dense: choose the pairs to leave out, then list the others (O(pairs) = O(m) here).
    const left = new EdgeHashSet(pairs - m);
    while (left.count < pairs - m) {
      const u = rng.int(n);
      const v = rng.int(n);
      if (u !== v) left.add(u, v);
    }
    for (let u = 0; u < n; u++) for (let v = u + 1; v < n; v++) if (!left.has(u, v)) edges.push(u, v);
  }
  return edges.toTopology('erdos-renyi', n);
}
