import { ConfigError, type Rng } from '../core/index.ts';
import type { CsrTopology } from './csr-topology.ts';
import { EdgeList } from './edge-list.ts';
import { samplePairsBetween, samplePairsWithin } from './pair-sampling.ts';
import { checkEdgeBudget, checkInt, checkProbability, MAX_NODES } from './param-checks.ts';

/** Parameters of {@link stochasticBlockModel}. */
export interface StochasticBlockModelParams {
  /** Agents per block; block b holds a contiguous range of indices, blocks in order. */
  sizes: number[];
  /** Symmetric block-pair edge probabilities: `p[a][b]` for an agent of a and one of b. */
  p: number[][];
}

/**
 * A stochastic block model: agents split into consecutive blocks, and each pair of agents
 * in blocks a and b linked independently with probability `p[a][b]`. Every block pair is
 * sampled by geometric skipping (Batagelj & Brandes), in the order (0,0), (0,1), ...,
 * (1,1), ..., so the cost is O(n + m).
 * @throws ConfigError if sizes are not positive integers, or p is not a square, symmetric
 * matrix of probabilities with one row per block.
 */
export function stochasticBlockModel(params: StochasticBlockModelParams, rng: Rng): CsrTopology {
  const { sizes, p } = checkParams(params);
  const starts = [0];
  for (const s of sizes) starts.push(starts[starts.length - 1] + s);
  const n = starts[sizes.length];
  let expected = 0;
  for (let a = 0; a < sizes.length; a++)
    for (let b = a; b < sizes.length; b++)
      expected += p[a][b] * (a === b ? (sizes[a] * (sizes[a] - 1)) / 2 : sizes[a] * sizes[b]);
  checkEdgeBudget('stochastic-block-model', expected);
  const edges = new EdgeList(expected * 1.05 + 16);
  for (let a = 0; a < sizes.length; a++) {
    for (let b = a; b < sizes.length; b++) {
      if (a === b) samplePairsWithin(edges, starts[a], sizes[a], p[a][a], rng);
      else samplePairsBetween(edges, starts[a], sizes[a], starts[b], sizes[b], p[a][b], rng);
    }
  }
  return edges.toTopology('stochastic-block-model', n);
}

function checkParams(params: StochasticBlockModelParams): StochasticBlockModelParams {
  const { sizes, p } = params;
  const gen = 'stochastic-block-model';
  if (!Array.isArray(sizes) || sizes.length === 0)
    throw new ConfigError(`${gen}: sizes must be a non-empty array of block sizes`, {
      hint: 'give one positive integer per block, e.g. sizes: [500, 500]',
    });
  let n = 0;
  sizes.forEach((s, b) => {
    n += checkInt(gen, `sizes[${b}]`, s, 1, MAX_NODES, 'every block needs at least one agent');
  });
  if (n > MAX_NODES)
    throw new ConfigError(`${gen}: ${n} agents in total is too many`, { hint: 'use fewer agents' });
  const k = sizes.length;
  const shapeHint = `p must be a ${k}x${k} symmetric matrix, one row and one column per block`;
  if (!Array.isArray(p) || p.length !== k)
    throw new ConfigError(
      `${gen}: p must have ${k} rows (one per block), got ${Array.isArray(p) ? p.length : typeof p}`,
      {
        hint: shapeHint,
      },
    );
  for (let a = 0; a < k; a++) {
    if (!Array.isArray(p[a]) || p[a].length !== k)
      throw new ConfigError(`${gen}: p[${a}] must have ${k} entries (one per block)`, { hint: shapeHint });
    for (let b = 0; b < k; b++) checkProbability(gen, `p[${a}][${b}]`, p[a][b]);
  }
  for (let a = 0; a < k; a++)
    for (let b = a + 1; b < k; b++)
      if (p[a][b] !== p[b][a])
        throw new ConfigError(
          `${gen}: p must be symmetric, but p[${a}][${b}]=${p[a][b]} and p[${b}][${a}]=${p[b][a]}`,
          {
            hint: shapeHint,
          },
        );
  return { sizes, p };
}
