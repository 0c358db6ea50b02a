import { type Json, RunError, type WorldDefinition } from '../../src/index.ts';
import {
  type CaseContext,
  type CaseDesign,
  collectReplicates,
  type Replicate,
  type ValidationCase,
} from '../../src/public/analysis.ts';
import { hegselmannKrause } from './hk-reference.ts';
import { deffuantClusters } from './theory.ts';

const EPS = Number.EPSILON;
const MAX_TICKS = 20_000;
/** Cluster rule of the Deffuant case: sorted opinions split where neighbours differ by more than 0.01; major = at least 10% of the agents. */
const GAP = 0.01;
const MAJOR = 0.1;

function opinions(summary: Record<string, Json>, key: string): number[] {
  const v = summary[key];
  if (!Array.isArray(v))
    throw new RunError(`the opinion summary has no ${key} (run with reportOpinions=true)`);
  return v as number[];
}

function converged(summary: Record<string, Json>, k: number): void {
  if (summary.converged !== true) throw new RunError(`run ${k} did not settle within ${MAX_TICKS} ticks`);
}

/** Major clusters: groups of sorted opinions (split at gaps > {@link GAP}) holding at least {@link MAJOR} of the agents. */
export function majorClusters(x: readonly number[]): number {
  const s = [...x].sort((a, b) => a - b);
  let clusters = 0;
  let size = 1;
  for (let k = 1; k <= s.length; k++) {
    if (k === s.length || s[k] - s[k - 1] > GAP) {
      if (size >= MAJOR * s.length) clusters++;
      size = 1;
    } else size++;
  }
  return clusters;
}

const DW_SOURCE =
  'G. Deffuant, D. Neau, F. Amblard, G. Weisbuch, Mixing beliefs among interacting agents, Adv. Complex Syst. 3:87–98, 2000';

function clusterDesign(p: Record<string, Json>): CaseDesign {
  const eps = p.epsilon as number;
  return {
    test: 'mean',
    predicted: deffuantClusters(eps),
    sd: 0.35,
    bias: 0.15,
    rule: '⌊1/(2ε)⌋ major clusters (Deffuant et al. 2000); per-run sd 0.35 and bias budget 0.15 fixed for n = 200 from an independent reference simulation (2000 runs at ε = 0.2: 2.104 ± 0.007, sd 0.31; bench/validate-references.ts)',
    deviation: {
      label: 'ε × 0.75 (⌊1/(2ε)⌋ = 3 clusters)',
      mean: deffuantClusters(0.75 * eps),
      sd: 0.35,
    },
    qualify: 1,
    // at most 1/MAJOR disjoint groups can each hold a tenth of the agents
    valueRange: [0, Math.floor(1 / MAJOR)],
  };
}

function exactDesign(rule: string): CaseDesign {
  return {
    test: 'exact',
    predicted: 0,
    sd: 0,
    bias: 1e-9,
    rule,
    deviation: { label: 'any change of the update that moves the result by 10^-6', mean: 1e-6, sd: 0 },
    qualify: 1,
  };
}

async function conservation(ctx: CaseContext, k: number): Promise<Replicate> {
  const r = await ctx.run(k, { ticks: MAX_TICKS });
  converged(r.summary, k);
  const u = opinions(r.summary, 'initialOpinions');
  const x = opinions(r.summary, 'finalOpinions');
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const n = u.length;
  return { value: mean(x) - mean(u), bound: ((4 * r.steps) / n + 4 * n) * EPS };
}

async function hkReplicate(
  ctx: CaseContext,
  k: number,
  epsilon: number,
  tolerance: number,
): Promise<Replicate> {
  const r = await ctx.run(k, { ticks: MAX_TICKS });
  converged(r.summary, k);
  const u = opinions(r.summary, 'initialOpinions');
  const x = opinions(r.summary, 'finalOpinions');
  const ref = hegselmannKrause(u, epsilon, tolerance, MAX_TICKS);
  const worst = Math.max(...x.map((v, i) => Math.abs(v - ref.x[i])));
  return { value: worst, bound: Math.max(ref.steps, r.ticks) * (u.length + 2) * EPS };
}

/** Deffuant–Weisbuch (cluster count, conservation of the mean) and Hegselmann–Krause (against a reference). */
export function boundedConfidenceCases(world: WorldDefinition): ValidationCase[] {
  const dw = {
    model: 'deffuant-weisbuch',
    network: 'complete',
    n: 200,
    epsilon: 0.2,
    mu: 0.5,
    tolerance: 1e-3,
    reportOpinions: true,
  };
  const hk = {
    model: 'hegselmann-krause',
    network: 'complete',
    n: 200,
    epsilon: 0.2,
    tolerance: 1e-9,
    reportOpinions: true,
  };
  return [
    {
      id: 'deffuant-weisbuch-clusters',
      model: 'Deffuant–Weisbuch (2000)',
      setting:
        'complete graph n=200, async, ε=0.2, μ=0.5, uniform start: major clusters (≥ 10% of agents, split at gaps > 0.01)',
      source: DW_SOURCE,
      quick: true,
      world,
      params: dw,
      reads: ['epsilon'],
      design: clusterDesign,
      maxReplicates: 200,
      quickReplicates: 20,
      minReplicates: 20,
      run: (ctx) =>
        collectReplicates(ctx, async (k) => {
          const r = await ctx.run(k, { ticks: MAX_TICKS });
          converged(r.summary, k);
          return { value: majorClusters(opinions(r.summary, 'finalOpinions')) };
        }),
    },
    {
      id: 'deffuant-weisbuch-mean-conserved',
      model: 'Deffuant–Weisbuch (2000)',
      setting: 'complete graph n=200, async, ε=0.2, μ=0.5: mean final − mean initial opinion',
      source: DW_SOURCE,
      quick: true,
      world,
      params: dw,
      reads: [],
      design: () =>
        exactDesign(
          'both sides move μ·(difference) toward each other, so every encounter keeps the sum: 0, within rounding (4·ε_mach per encounter, at most one per agent step, plus the two sums: (4·steps/n + 4n)·ε_mach)',
        ),
      maxReplicates: 5,
      quickReplicates: 3,
      run: (ctx) => collectReplicates(ctx, (k) => conservation(ctx, k)),
    },
    {
      id: 'hegselmann-krause-reference',
      model: 'Hegselmann–Krause (2002)',
      setting:
        'complete graph n=200, synchronous, ε=0.2, uniform start: max_i |x_i − x*_i| against a separate HK iteration (same clusters)',
      source: 'R. Hegselmann and U. Krause, Opinion dynamics and bounded confidence, JASSS 5(3), 2002',
      quick: true,
      world,
      params: hk,
      reads: ['epsilon'],
      design: () =>
        exactDesign(
          'x* from worlds/opinion/hk-reference.ts (plain loops over all pairs, not the world’s message passing) started from the run’s own x(0); band (steps)·(n+2)·ε_mach for the differently ordered sums',
        ),
      maxReplicates: 8,
      quickReplicates: 4,
      run: (ctx) => collectReplicates(ctx, (k) => hkReplicate(ctx, k, hk.epsilon, hk.tolerance)),
    },
  ];
}
