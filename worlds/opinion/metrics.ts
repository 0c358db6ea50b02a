import type { Column, Json, WorldView } from '../../src/index.ts';
import type { OpinionParams } from './params.ts';

/**
 * Number of opinion clusters: the opinions sorted ascending split into a new cluster
 * wherever two consecutive values differ by more than `gap` (0 for an empty population).
 */
export function countClusters(values: ArrayLike<number>, gap: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  let clusters = 1;
  for (let k = 1; k < sorted.length; k++) if (sorted[k] - sorted[k - 1] > gap) clusters++;
  return clusters;
}

function moments(x: Column): { mean: number; variance: number; min: number; max: number } {
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < x.length; i++) {
    sum += x[i];
    if (x[i] < min) min = x[i];
    if (x[i] > max) max = x[i];
  }
  const mean = sum / x.length;
  let ss = 0;
  for (let i = 0; i < x.length; i++) ss += (x[i] - mean) ** 2;
  return { mean, variance: ss / x.length, min, max };
}

/** Largest |Δx| of the last tick (0 at tick 0). */
export function maxDelta(view: WorldView): number {
  if (view.tick === 0) return 0;
  const dx = view.memoryColumn('dx');
  let m = 0;
  for (let i = 0; i < dx.length; i++) if (dx[i] > m) m = dx[i];
  return m;
}

/**
 * Per-tick metrics: mean, (population) variance, min and max of the opinions, the number of
 * clusters (see {@link countClusters}) and `maxDelta`, the largest |x_i(t) − x_i(t−1)|.
 */
export function opinionMetrics(params: OpinionParams): (view: WorldView) => Record<string, number> {
  return (view) => ({
    ...moments(view.memoryColumn('x')),
    clusters: countClusters(view.memoryColumn('x'), params.clusterGap),
    maxDelta: maxDelta(view),
  });
}

/**
 * DeGroot's consensus value with equal network weights: W = (D + I)⁻¹(A + I) is reversible
 * with stationary distribution π_i ∝ d_i + 1, so the consensus is Σ(d_i + 1)u_i / Σ(d_i + 1).
 */
export function networkConsensus(view: WorldView): number {
  const u = view.memoryColumn('u');
  let num = 0;
  let den = 0;
  for (let i = 0; i < u.length; i++) {
    const w = (view.network?.degree(i) ?? 0) + 1;
    num += w * u[i];
    den += w;
  }
  return num / den;
}

/**
 * Final summary: the last tick's metrics, whether the stop rule was met (`converged`), the
 * `consensus` value (DeGroot: the mean final opinion) and `predicted`, the theory's value
 * where the world can compute it (DeGroot on network weights: π·x(0)), and optionally every
 * agent's initial and final opinion.
 */
export function opinionSummary(
  params: OpinionParams,
): (history: readonly Record<string, number>[], view: WorldView) => Record<string, Json> {
  return (history, view) => {
    const last = history[history.length - 1] ?? {};
    const ticks = history.length - 1;
    const degroot = params.model === 'degroot';
    const out: Record<string, Json> = {
      model: params.model,
      ticks,
      converged: ticks > 0 && last.maxDelta < params.tolerance,
      ...last,
      spread: last.max - last.min,
      consensus: degroot ? last.mean : null,
      predicted: degroot && params.weights === 'network' ? networkConsensus(view) : null,
    };
    if (params.reportOpinions) {
      out.initialOpinions = Array.from(view.memoryColumn('u'));
      out.finalOpinions = Array.from(view.memoryColumn('x'));
    }
    return out;
  };
}
