import {
  type CaseContext,
  type CaseDesign,
  collectReplicates,
  type Json,
  type ValidationCase,
  type WorldDefinition,
} from '../../src/index.ts';
import { type PairwiseModel, pairwiseChainMoments } from './pairwise-chain.ts';
import { neverHeardLimit } from './theory.ts';

/** One spreader, no fact, nobody blocks the rumour: the classic setting. */
export const ONE_SPREADER = { spreaders: 1, insiders: 0, factBlocksRumor: false } as const;
/** 200 time units: the classic runs end by about 40; a model that never stops is cut off there. */
const TICKS = 200;

const NAMES: Record<PairwiseModel, string> = {
  'maki-thompson': 'Maki–Thompson (1973)',
  'daley-kendall': 'Daley–Kendall (1965)',
};
const RIVAL: Record<PairwiseModel, PairwiseModel> = {
  'maki-thompson': 'daley-kendall',
  'daley-kendall': 'maki-thompson',
};
const SOURCES: Record<PairwiseModel, string> = {
  'maki-thompson':
    'Maki & Thompson 1973, Mathematical Models and Applications (the chain); limit 0.2032: Sudbury 1985, J. Appl. Prob. 22:443; normal fluctuations: Pittel 1990, J. Appl. Prob. 27:14',
  'daley-kendall':
    'Daley & Kendall 1965, J. Inst. Maths Applics 1:42 (the chain; limit 0.2032 as for Maki–Thompson)',
};

function exactRule(model: PairwiseModel, n: number): string {
  return (
    `exact mean and sd of the never-hearing count of the ${NAMES[model]} jump chain at n=${n}, one spreader ` +
    `(first-step analysis, worlds/rumor/pairwise-chain.ts); the fraction tends to ${neverHeardLimit().toFixed(4)}. ` +
    'No bias: the prediction is exact at this n; the band is z·sd/√r (normal mean of r runs).'
  );
}

function chainDesign(model: PairwiseModel, n: number, deviation: CaseDesign['deviation']): CaseDesign {
  const m = pairwiseChainMoments(n, model);
  return {
    test: 'mean',
    predicted: m.mean / n,
    sd: Math.sqrt(m.variance) / n,
    bias: 0,
    rule: exactRule(model, n),
    deviation,
    qualify: 1,
  };
}

function paramsOf(model: PairwiseModel, n: number): Record<string, Json> {
  return { model, n, network: 'complete', turns: 'async', contact: 'instant', ...ONE_SPREADER };
}

/**
 * The fraction never hearing, per run. A run also stops once nobody is left ignorant: the
 * statistic cannot change any more (a broken model whose spreaders never stop would otherwise
 * run to the tick cap).
 */
async function neverHeard(ctx: CaseContext) {
  return collectReplicates(ctx, async (k) => {
    let everyone = false;
    const r = await ctx.run(k, {
      ticks: TICKS,
      onTick: (_t, _max, view) => {
        everyone = view.count('rumor', 'ignorant') === 0;
      },
      shouldStop: () => (everyone ? 'everyone heard' : null),
    });
    return { value: r.metrics['rumor.ignorant'] / r.size };
  });
}

/**
 * The fraction that never hears the rumour on a large well-mixed population, against the
 * chain's exact mean at that n (the deviation: a 5% error in that fraction).
 */
export function pairwiseCase(world: WorldDefinition, model: PairwiseModel, n: number): ValidationCase {
  const params = paramsOf(model, n);
  return {
    id: `${model}-well-mixed`,
    model: NAMES[model],
    setting: `well-mixed, n=${n}, async, instant encounters, 1 spreader: fraction never hearing`,
    source: SOURCES[model],
    quick: true,
    world,
    params,
    reads: ['n'],
    design: (p) => {
      const base = pairwiseChainMoments(p.n as number, model);
      const mean = (1.05 * base.mean) / (p.n as number);
      return chainDesign(model, p.n as number, {
        label: 'a 5% error in the never-hearing fraction',
        mean,
        sd: Math.sqrt(base.variance) / (p.n as number),
      });
    },
    maxReplicates: 400,
    quickReplicates: 40,
    run: neverHeard,
  };
}

/**
 * The same fraction in a population so small that the two rules differ: Daley–Kendall
 * (spreader pairs both stop) and Maki–Thompson (only the caller stops) share the n → ∞ limit,
 * but not the exact chain at n = 10 (0.2443 against 0.2003). The deviation is the rival rule.
 */
export function pairwiseRivalCase(world: WorldDefinition, model: PairwiseModel, n: number): ValidationCase {
  const params = paramsOf(model, n);
  const rival = RIVAL[model];
  return {
    id: `${model}-exact-n${n}`,
    model: NAMES[model],
    setting: `well-mixed, n=${n}, async, instant encounters, 1 spreader: fraction never hearing, against the exact chain`,
    source: SOURCES[model],
    quick: true,
    world,
    params,
    reads: ['n'],
    design: (p) => {
      const other = pairwiseChainMoments(p.n as number, rival);
      return chainDesign(model, p.n as number, {
        label: `the ${NAMES[rival]} rule in its place`,
        mean: other.mean / (p.n as number),
        sd: Math.sqrt(other.variance) / (p.n as number),
      });
    },
    maxReplicates: 2000,
    quickReplicates: 2000,
    run: neverHeard,
  };
}
