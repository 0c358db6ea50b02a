import type { Rng } from '../core/index.ts';
import type { EdgeList } from './edge-list.ts';

/**
 * Bernoulli sampling of agent pairs by geometric skipping (Batagelj & Brandes 2005): one
 * random draw per edge instead of one per pair, so sparse graphs cost O(n + m). Shared by
 * the Erdős–Rényi and stochastic-block-model generators; internal to the network module.
 */

/** Pairs to skip before the next present one, for log(1 - q) = `logQ` (0 when q = 1). */
function skip(logQ: number, rng: Rng): number {
  return logQ === Number.NEGATIVE_INFINITY ? 0 : Math.floor(Math.log1p(-rng.next()) / logQ);
}

/**
 * Links each pair of agents in `[start, start + size)` with probability `q`, walking the
 * lower triangle row by row (pairs (v, w), w < v, in order of v then w).
 */
export function samplePairsWithin(edges: EdgeList, start: number, size: number, q: number, rng: Rng): void {
  if (q <= 0) return;
  const logQ = Math.log1p(-q);
  let v = 1;
  let w = -1;
  while (v < size) {
    w += 1 + skip(logQ, rng);
    while (w >= v && v < size) {
      w -= v;
      v++;
    }
    if (v < size) edges.push(start + v, start + w);
  }
}

/**
 * Links each agent of `[startA, startA + sizeA)` to each of `[startB, startB + sizeB)` with
 * probability `q`, walking the sizeA x sizeB pairs in row-major order.
 */
export function samplePairsBetween(
  edges: EdgeList,
  startA: number,
  sizeA: number,
  startB: number,
  sizeB: number,
  q: number,
  rng: Rng,
): void {
  if (q <= 0) return;
  const logQ = Math.log1p(-q);
  const total = sizeA * sizeB;
  for (let idx = skip(logQ, rng); idx < total; idx += 1 + skip(logQ, rng)) {
    const u = Math.floor(idx / sizeB);
    edges.push(startA + u, startB + (idx - u * sizeB));
  }
}
