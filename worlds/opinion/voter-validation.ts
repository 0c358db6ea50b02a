import { type Json, RunError, type WorldDefinition } from '../../src/index.ts';
import {
  type CaseContext,
  collectReplicates,
  type Replicate,
  type ValidationCase,
} from '../../src/public/analysis.ts';
import { degreeWeightedShare, inverseDegreeShare } from './theory.ts';

/** Far beyond the mean consensus times of these settings (tens of ticks). */
const MAX_TICKS = 100_000;
const MODEL = 'Voter model (Clifford & Sudbury 1973; Holley & Liggett 1975)';

/** 1 if opinion 1 won the run, 0 if opinion 0 did; a run without consensus fails the case. */
function winner(summary: Record<string, Json>, k: number): number {
  const w = summary.winner;
  if (w !== 0 && w !== 1) throw new RunError(`voter run ${k} reached no consensus in ${MAX_TICKS} ticks`);
  return w;
}

/** The share of opinion 1 at the start: exactly round(s·n) agents hold it. */
function startShare(p: Record<string, Json>): number {
  return Math.round((p.share as number) * (p.n as number)) / (p.n as number);
}

function completeCase(world: WorldDefinition): ValidationCase {
  const params = { model: 'voter', network: 'complete', n: 100, share: 0.3 };
  return {
    id: 'voter-exit-probability',
    model: MODEL,
    setting: 'complete graph n=100, async, initial share s=0.3 of opinion 1: frequency of opinion 1 winning',
    source:
      'P. Clifford and A. Sudbury, Biometrika 60(3):581–588, 1973; R. A. Holley and T. M. Liggett, Ann. Probab. 3(4):643–663, 1975',
    quick: true,
    world,
    params,
    reads: ['share'],
    design: (p) => ({
      test: 'proportion',
      predicted: startShare(p),
      sd: 0,
      bias: 0,
      rule: 'on the complete graph the number of agents holding opinion 1 is a martingale, so opinion 1 wins with probability exactly round(s·n)/n; exact binomial band',
      deviation: { label: 'a winning probability 0.1 higher', mean: startShare(p) + 0.1, sd: 0 },
      qualify: 1,
    }),
    maxReplicates: 2000,
    quickReplicates: 250,
    run: (ctx) =>
      collectReplicates(ctx, async (k) => ({
        value: winner((await ctx.run(k, { ticks: MAX_TICKS })).summary, k),
      })),
  };
}

/**
 * Planning constants of the heterogeneous case, measured over 3000 of the world's BA trees
 * (n = 30, s = 0.3): E[g²], E[g²ρ_d(1−ρ_d)], E[g²ρ_inv(1−ρ_inv)]. They set the number of runs
 * only; the band uses each run's own variance.
 */
const BA_PLAN = { g2: 0.01336, sd: Math.sqrt(0.002756), rivalSd: Math.sqrt(0.002726) };

/**
 * One run on a Barabási–Albert tree: the wins minus the degree-weighted share ρ_d (the exact
 * winning probability of the copy rule), weighted by g = ρ_d − ρ_inv, how far the invasion
 * rule's prediction ρ_inv lies from it in this run's network and start.
 */
async function scoreReplicate(ctx: CaseContext, k: number): Promise<Replicate> {
  let rd = Number.NaN;
  let ri = Number.NaN;
  const r = await ctx.run(k, {
    ticks: MAX_TICKS,
    onReady: (engine) => {
      const view = engine.view;
      if (!view.network) throw new RunError('the voter world built no network');
      const x = view.memoryColumn('x');
      rd = degreeWeightedShare(view.network, x);
      ri = inverseDegreeShare(view.network, x);
    },
  });
  const g = rd - ri;
  return { value: g * (winner(r.summary, k) - rd), variance: g * g * rd * (1 - rd) };
}

function heterogeneousCase(world: WorldDefinition): ValidationCase {
  const params = { model: 'voter', network: 'barabasi-albert', m: 1, n: 30, share: 0.3 };
  return {
    id: 'voter-degree-weighted',
    model: MODEL,
    setting:
      'Barabási–Albert tree (m=1) n=30, async, 9 random agents start with opinion 1: wins against the degree-weighted share, weighted toward runs where the invasion rule predicts otherwise',
    source:
      'Sood & Redner 2005, Phys. Rev. Lett. 94:178701 (copy a random neighbour: Σd_i·x_i/Σd_i is a martingale); Sood, Antal & Redner 2008, Phys. Rev. E 77:041121 (invasion: Σx_i/d_i / Σ1/d_i)',
    quick: true,
    world,
    params,
    reads: [],
    design: () => ({
      test: 'mean',
      predicted: 0,
      sd: BA_PLAN.sd,
      bias: 0,
      rule:
        'per run, g·(win − ρ_d) with ρ_d = Σd_i·x_i/Σd_i (exact win probability of the copy rule on a connected graph) and g = ρ_d − ρ_inv; ' +
        'mean 0, variance g²ρ_d(1−ρ_d) from each run’s own network and start (the band uses these, not the runs’ spread); the plan’s sd ' +
        'and the rival’s shift −E[g²] were measured over 3000 of the world’s BA trees',
      deviation: {
        label: 'the invasion rule (the waking agent imposes its opinion)',
        mean: -BA_PLAN.g2,
        sd: BA_PLAN.rivalSd,
      },
      qualify: 1,
    }),
    maxReplicates: 2000,
    quickReplicates: 250,
    run: (ctx) => collectReplicates(ctx, (k) => scoreReplicate(ctx, k)),
  };
}

/** The voter cases: exit probability on the complete graph, degree-weighted exit on a heterogeneous network. */
export function voterCases(world: WorldDefinition): ValidationCase[] {
  return [completeCase(world), heterogeneousCase(world)];
}
