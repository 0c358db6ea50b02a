import { Matrix } from 'ml-matrix';
import type { Column, Json, WorldView } from '../../src/index.ts';
import { encounterSettled } from './encounter-policy.ts';
import { ENCOUNTER_MODELS, type OpinionParams } from './params.ts';
import { sortedOpinions } from './sorted-opinions.ts';
import { friedkinJohnsenSteadyState, leftPerron, trustMatrix } from './theory.ts';
import type { TrustWeights } from './trust-weights.ts';
import type { VoterTally } from './voter-tally.ts';

/**
 * Number of opinion clusters: the opinions sorted ascending split into a new cluster
 * wherever two consecutive values differ by more than `gap` (0 for an empty population).
 */
export function countClusters(values: ArrayLike<number>, gap: number): number {
  return sortedClusters(Float64Array.from(values).sort(), gap);
}

/** {@link countClusters} of values already sorted ascending. */
function sortedClusters(sorted: Float64Array, gap: number): number {
  if (sorted.length === 0) return 0;
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
export function opinionMetrics(
  params: OpinionParams,
  tally: VoterTally | null = null,
): (view: WorldView) => Record<string, number> {
  return (view) =>
    (tally && countedMetrics(params, view, tally)) ?? {
      ...moments(view.memoryColumn('x')),
      clusters: sortedClusters(sortedOpinions(view), params.clusterGap),
      maxDelta: maxDelta(view),
    };
}

/**
 * The same metrics from the voter's counts (every opinion and move 0 or 1): with m the share
 * of opinion 1, the mean is m and the variance m(1 − m); the minimum is 0 unless everyone
 * holds 1, the maximum 1 unless everyone holds 0; two clusters when both opinions are held
 * and 1 > clusterGap; `maxDelta` 1 when some agent's last move was 1. Null when some value is
 * neither 0 nor 1.
 */
function countedMetrics(
  params: OpinionParams,
  view: WorldView,
  tally: VoterTally,
): Record<string, number> | null {
  const counts = tally.read(view);
  if (!counts) return null;
  const n = view.size;
  const m = counts.ones / n;
  const both = counts.ones > 0 && counts.ones < n;
  return {
    mean: m,
    variance: m * (1 - m),
    min: counts.ones === n ? 1 : 0,
    max: counts.ones > 0 ? 1 : 0,
    clusters: both && 1 > params.clusterGap ? 2 : 1,
    maxDelta: view.tick > 0 && counts.movedOne > 0 ? 1 : 0,
  };
}

/** Largest population for which the summary solves the theory's dense linear systems. */
export const THEORY_LIMIT = 1000;

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * DeGroot's consensus value with equal network weights: W = (D + I)⁻¹(A + I) is reversible
 * with stationary distribution π_i ∝ d_i + 1, so the consensus is Σ(d_i + 1)u_i / Σ(d_i + 1).
 */
export function networkConsensus(view: WorldView): number {
  const u = view.memoryColumn('u');
  const w = Float64Array.from(u, (_, i) => (view.network?.degree(i) ?? 0) + 1);
  return dot(w, u) / w.reduce((s, v) => s + v, 0);
}

/** True if π is a probability vector with π W = π (to 1e-9): a nearly singular solve gives neither. */
function isStationary(pi: number[], w: Matrix): boolean {
  if (!pi.every((p) => Number.isFinite(p) && p >= -1e-12)) return false;
  const piW = new Matrix([pi]).mmul(w).getRow(0);
  return piW.every((v, j) => Math.abs(v - pi[j]) <= 1e-9);
}

/** π·u for W from a file; null when π is not unique (W reducible: the system is singular). */
function perronConsensus(weights: TrustWeights, view: WorldView): number | null {
  const w = trustMatrix(weights, view.network!);
  let pi: number[];
  try {
    pi = leftPerron(w);
  } catch {
    return null; // LU found the system exactly singular
  }
  return isStationary(pi, w) ? dot(pi, view.memoryColumn('u')) : null;
}

/** What theory predicts for the run, where it gives a value the summary can afford to compute. */
function theory(params: OpinionParams, weights: TrustWeights | null, view: WorldView): Record<string, Json> {
  const u = view.memoryColumn('u');
  const small = view.size <= THEORY_LIMIT && view.network !== undefined;
  if (params.model === 'degroot') {
    if (!weights) return { predicted: networkConsensus(view) };
    if (!small) return { predicted: null };
    return { predicted: perronConsensus(weights, view) };
  }
  if (params.model !== 'friedkin-johnsen' || !small) return { predicted: null };
  const star = friedkinJohnsenSteadyState(
    trustMatrix(weights, view.network!),
    view.memoryColumn('lambda'),
    u,
  );
  const x = view.memoryColumn('x');
  return {
    predicted: star.reduce((s, v) => s + v, 0) / star.length,
    steadyStateError: Math.max(...star.map((v, i) => Math.abs(x[i] - v))),
  };
}

/** Voter: the winning opinion and the time (ticks, one wake per agent each) to consensus, or nulls. */
function voterOutcome(
  params: OpinionParams,
  settled: boolean,
  ticks: number,
  last: Record<string, number>,
): Record<string, Json> {
  if (params.model !== 'voter') return {};
  return { winner: settled ? last.min : null, consensusTime: settled ? ticks : null };
}

/**
 * Final summary: the last tick's metrics, whether the stop rule was met (`converged`; voter and
 * Deffuant–Weisbuch: see {@link encounterSettled}; voter adds `winner` and `consensusTime`), the
 * `consensus` value (DeGroot: the mean final opinion), `predicted`, the theory's value where
 * there is one (DeGroot: π·x(0); Friedkin–Johnsen: the mean of (I − ΛW)⁻¹(I − Λ)u, with
 * `steadyStateError` = max_i |x_i − x*_i|; dense solves only up to {@link THEORY_LIMIT}
 * agents), and optionally every agent's initial and final opinion.
 */
export function opinionSummary(
  params: OpinionParams,
  weights: TrustWeights | null,
  tally: VoterTally | null = null,
): (history: readonly Record<string, number>[], view: WorldView) => Record<string, Json> {
  return (history, view) => {
    const last = history[history.length - 1] ?? {};
    const ticks = history.length - 1;
    const encounters = ENCOUNTER_MODELS.includes(params.model);
    const settled = encounters && encounterSettled(params, view, tally);
    const out: Record<string, Json> = {
      model: params.model,
      ticks,
      converged: encounters ? settled : ticks > 0 && last.maxDelta < params.tolerance,
      ...last,
      ...voterOutcome(params, settled, ticks, last),
      spread: last.max - last.min,
      consensus: params.model === 'degroot' ? last.mean : null,
      ...theory(params, weights, view),
    };
    if (params.reportOpinions) {
      out.initialOpinions = Array.from(view.memoryColumn('u'));
      out.finalOpinions = Array.from(view.memoryColumn('x'));
    }
    return out;
  };
}
