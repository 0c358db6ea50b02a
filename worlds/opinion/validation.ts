import { type Json, RunError, type RunResult, runWorld, type Topology } from '../../src/index.ts';
import type { ValidationCase, ValidationOutcome } from '../../src/public/analysis.ts';
import { world } from './index.ts';
import { equalWeights, friedkinJohnsenSteadyState, leftPerron, secondEigenvalue } from './theory.ts';
import { voterCase } from './voter-validation.ts';

/** The opinion world, or a variant of it (tests pass deliberately broken ones). */
export type OpinionWorld = typeof world;

const AGENTS = 300;
const TOLERANCE = 1e-12;
const EPS = Number.EPSILON;
/** A replicate that has not met the stop rule by then fails (the cases need a few hundred ticks). */
const MAX_TICKS = 5000;
const NETWORK = { n: AGENTS, network: 'watts-strogatz', k: 10, beta: 0.1, tolerance: TOLERANCE };

/** What a replicate's run started from (read at tick 0) and its result. */
interface Replicate {
  network: Topology;
  lambda: Float64Array;
  result: RunResult;
}

async function runReplicate(
  def: OpinionWorld,
  params: Record<string, Json>,
  seed: number,
): Promise<Replicate> {
  let start: Omit<Replicate, 'result'> | undefined;
  const result = await runWorld(def, {
    params,
    seed,
    ticks: MAX_TICKS,
    onReady: (engine) => {
      const view = engine.view;
      if (!view.network) throw new RunError('the opinion world built no network');
      start = { network: view.network, lambda: Float64Array.from(view.memoryColumn('lambda')) };
    },
  });
  if (!start) throw new RunError('the run never reached tick 0');
  return { ...start, result };
}

function maxDegree(network: Topology): number {
  let d = 0;
  for (let i = 0; i < network.size; i++) d = Math.max(d, network.degree(i));
  return d;
}

function numbers(summary: Record<string, Json>, key: string): number[] {
  const v = summary[key];
  if (!Array.isArray(v))
    throw new RunError(`the opinion summary has no ${key} (run with reportOpinions=true)`);
  return v as number[];
}

/** Sums the replicates up: every replicate must converge and fall inside its own band. */
function outcome(
  rows: { observed: number; tolerance: number; converged: boolean }[],
  rule: string,
): ValidationOutcome {
  return {
    predicted: 0,
    observed: rows.map((r) => r.observed),
    agents: AGENTS,
    tolerance: Math.max(...rows.map((r) => r.tolerance)),
    toleranceRule: rule,
    pass: rows.every((r) => r.converged && Math.abs(r.observed) <= r.tolerance),
  };
}

const DEGROOT_RULE =
  'observed = consensus − π·x(0) per replicate, so predicted = 0. Band per replicate: ' +
  'τ/(1−λ₂)·√(Σ_i 1/(n²π_i)) + (T(d_max+2) + n²)·ε, where τ is the stop tolerance (max |Δx| < τ), ' +
  'λ₂ the second eigenvalue of W (reversible: the error in the π-norm is at most ‖Δx‖_π/(1−λ₂), ' +
  'and the mean differs from π·x by at most √(Σ1/(n²π_i)) times that), T the ticks run, ε machine epsilon ' +
  '(rounding of T averaging steps and of the n×n solve for π). Tolerance shown = the largest band.';

async function degrootReplicate(def: OpinionWorld, seed: number) {
  const { network, result } = await runReplicate(
    def,
    { ...NETWORK, model: 'degroot', reportOpinions: true },
    seed,
  );
  const w = equalWeights(network);
  const pi = leftPerron(w);
  const lambda2 = secondEigenvalue(w, pi);
  if (!(lambda2 < 1 - 1e-9))
    throw new RunError(`the network of seed ${seed} is not connected (λ₂ = ${lambda2}): no unique consensus`);
  const u = numbers(result.summary, 'initialOpinions');
  const predicted = pi.reduce((s, p, i) => s + p * u[i], 0);
  const n = network.size;
  const spread = Math.sqrt(pi.reduce((s, p) => s + 1 / (n * n * p), 0));
  const fp = (result.ticks * (maxDegree(network) + 2) + n * n) * EPS;
  return {
    observed: (result.summary.consensus as number) - predicted,
    tolerance: (TOLERANCE / (1 - lambda2)) * spread + fp,
    converged: result.summary.converged === true,
  };
}

/** The DeGroot case, run on `def` (the opinion world unless a test passes a variant). */
export function degrootCase(def: OpinionWorld = world): ValidationCase {
  return {
    id: 'degroot-consensus',
    model: 'DeGroot (1974)',
    setting: `Watts–Strogatz n=${AGENTS} k=10 β=0.1, equal weights on self and neighbours, synchronous; observed = consensus − π·x(0)`,
    source: 'M. H. DeGroot, Reaching a consensus, J. Am. Stat. Assoc. 69(345):118–121, 1974',
    quick: true,
    async run({ seed, replicates }) {
      const rows = [];
      for (let r = 0; r < replicates; r++) rows.push(await degrootReplicate(def, seed + r));
      return outcome(rows, DEGROOT_RULE);
    },
  };
}

const FJ_RULE =
  'observed = max_i |x_i(T) − x*_i| per replicate, x* = (I − ΛW)⁻¹(I − Λ)u solved by LU (ml-matrix), so predicted = 0. ' +
  'Band per replicate: ρ/(1−ρ)·τ + ((d_max+4) + n(1+ρ))·ε/(1−ρ), where ρ = max_i λ_i bounds ‖ΛW‖_∞ (the error ' +
  'contracts by ρ each tick, so ‖x(T) − x*‖_∞ ≤ ρ/(1−ρ)·max|Δx| < ρ/(1−ρ)·τ), τ the stop tolerance, ε machine epsilon ' +
  '(rounding of each step, accumulated through the contraction, and the LU solve: n·ε times cond ≤ (1+ρ)/(1−ρ)). ' +
  'Tolerance shown = the largest band.';

async function fjReplicate(def: OpinionWorld, seed: number) {
  const params = {
    ...NETWORK,
    model: 'friedkin-johnsen',
    susceptibility: 'uniform',
    lambdaMin: 0,
    lambdaMax: 0.9,
    reportOpinions: true,
  };
  const { network, lambda, result } = await runReplicate(def, params, seed);
  const u = numbers(result.summary, 'initialOpinions');
  const x = numbers(result.summary, 'finalOpinions');
  const expected = friedkinJohnsenSteadyState(equalWeights(network), lambda, u);
  const rho = Math.max(...lambda);
  const n = network.size;
  const fp = ((maxDegree(network) + 4 + n * (1 + rho)) * EPS) / (1 - rho);
  return {
    observed: Math.max(...expected.map((v, i) => Math.abs(x[i] - v))),
    tolerance: (rho / (1 - rho)) * TOLERANCE + fp,
    converged: result.summary.converged === true,
  };
}

/** The Friedkin–Johnsen case, run on `def` (the opinion world unless a test passes a variant). */
export function friedkinJohnsenCase(def: OpinionWorld = world): ValidationCase {
  return {
    id: 'friedkin-johnsen-steady-state',
    model: 'Friedkin–Johnsen (1990)',
    setting: `Watts–Strogatz n=${AGENTS} k=10 β=0.1, equal weights, λ_i ~ U[0, 0.9]; observed = max_i |x_i − x*_i|`,
    source:
      'N. E. Friedkin and E. C. Johnsen, Social influence and opinions, J. Math. Sociol. 15(3–4):193–206, 1990',
    quick: true,
    async run({ seed, replicates }) {
      const rows = [];
      for (let r = 0; r < replicates; r++) rows.push(await fjReplicate(def, seed + r));
      return outcome(rows, FJ_RULE);
    },
  };
}

/** The opinion world's validation cases. */
export const opinionCases: ValidationCase[] = [degrootCase(), friedkinJohnsenCase(), voterCase()];
