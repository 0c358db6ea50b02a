import type { Json, WorldDefinition } from '../../src/index.ts';
import {
  type CaseContext,
  type CaseDesign,
  collectReplicates,
  type ValidationCase,
} from '../../src/public/analysis.ts';
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

/** Large populations count runs in which at least a tenth heard: Daley–Kendall dies out at once with probability ≈ 1/(2n). */
const TOOK_OFF = 0.9;

function exactRule(model: PairwiseModel, n: number, most: number): string {
  return (
    `exact mean, sd and skewness of the never-hearing count of the ${NAMES[model]} jump chain at n=${n}, one spreader ` +
    `(first-step analysis, worlds/rumor/pairwise-chain.ts)` +
    (most < n
      ? `, over runs in which at most ${most} never hear (their exact probability is the qualifying one)`
      : '') +
    `; the fraction tends to ${neverHeardLimit().toFixed(4)}. ` +
    'No bias: the prediction is exact at this n; the band is z·sd/√r with the Cornish–Fisher term of the skewness.'
  );
}

/** The chain's law of the never-hearing fraction over runs with at most `most` never hearing. */
function chainLaw(model: PairwiseModel, n: number, most: number) {
  const m = pairwiseChainMoments(n, model, most);
  return { p: m.p, mean: m.mean / n, sd: Math.sqrt(m.variance) / n, skewness: m.skewness };
}

function chainDesign(
  model: PairwiseModel,
  n: number,
  most: number,
  deviation: (base: ReturnType<typeof chainLaw>) => CaseDesign['deviation'],
): CaseDesign {
  const m = chainLaw(model, n, most);
  return {
    test: 'mean',
    predicted: m.mean,
    sd: m.sd,
    skewness: m.skewness,
    bias: 0,
    rule: exactRule(model, n, most),
    deviation: deviation(m),
    qualify: m.p,
    valueRange: [0, 1],
  };
}

function paramsOf(model: PairwiseModel, n: number): Record<string, Json> {
  return { model, n, network: 'complete', turns: 'async', contact: 'instant', ...ONE_SPREADER };
}

/**
 * The fraction never hearing, per run (null when more than `most` never heard). A run also
 * stops once nobody is left ignorant: the statistic cannot change any more (a broken model
 * whose spreaders never stop would otherwise run to the tick cap).
 */
function neverHeard(most: number) {
  return (ctx: CaseContext) =>
    collectReplicates(ctx, async (k) => {
      let everyone = false;
      const r = await ctx.run(k, {
        ticks: TICKS,
        onTick: (_t, _max, view) => {
          everyone = view.count('rumor', 'ignorant') === 0;
        },
        shouldStop: () => (everyone ? 'everyone heard' : null),
      });
      const x = r.metrics['rumor.ignorant'];
      return x <= most ? { value: x / r.size } : null;
    });
}

/**
 * The fraction that never hears the rumour on a large well-mixed population, against the
 * chain's exact mean at that n (the deviation: a 5% error in that fraction).
 */
export function pairwiseCase(world: WorldDefinition, model: PairwiseModel, n: number): ValidationCase {
  const params = paramsOf(model, n);
  const most = Math.floor(TOOK_OFF * n);
  return {
    id: `${model}-well-mixed`,
    model: NAMES[model],
    setting: `well-mixed, n=${n}, async, instant encounters, 1 spreader: fraction never hearing, in runs where at least 10% heard`,
    source: SOURCES[model],
    quick: true,
    world,
    params,
    reads: ['n'],
    design: (p) =>
      chainDesign(model, p.n as number, most, (m) => ({
        label: 'a 5% error in the never-hearing fraction',
        mean: 1.05 * m.mean,
        sd: m.sd,
      })),
    maxReplicates: 400,
    quickReplicates: 40,
    run: neverHeard(most),
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
      const size = p.n as number;
      const other = chainLaw(rival, size, size);
      return chainDesign(model, size, size, () => ({
        label: `the ${NAMES[rival]} rule in its place`,
        mean: other.mean,
        sd: other.sd,
      }));
    },
    maxReplicates: 2000,
    quickReplicates: 2000,
    run: neverHeard(n),
  };
}
