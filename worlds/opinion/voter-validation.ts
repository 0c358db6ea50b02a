import { type Json, RunError, runWorld, type WorldDefinition } from '../../src/index.ts';
import type { ValidationCase, ValidationOutcome } from '../../src/public/analysis.ts';
import { world } from './index.ts';

const AGENTS = 100;
const SHARE = 0.3;
/** Fewest replicates (the binomial band narrows as 1/√r). */
const MIN_REPLICATES = 200;
/** Far beyond the mean consensus time, about −n[s ln s + (1−s) ln(1−s)] ≈ 61 ticks here. */
const MAX_TICKS = 100_000;

const VOTER_RULE =
  'observed = 1 if opinion 1 won, else 0, per replicate; predicted = s. Band: 1.96·√(s(1−s)/r) (binomial ' +
  'sampling error under the prediction, r replicates) + |round(s·n)/n − s| ≤ 1/(2n) (the start holds exactly ' +
  'round(s·n) ones; on the complete graph the number of ones is then an exact martingale, so no other ' +
  'finite-size term). A replicate that does not reach consensus within the tick cap fails the case.';

/** Runs one voter replicate; 1 if opinion 1 won, 0 if opinion 0 did. */
async function winner(def: WorldDefinition, seed: number): Promise<number> {
  const params: Record<string, Json> = { model: 'voter', network: 'complete', n: AGENTS, share: SHARE };
  const r = await runWorld(def, { params, seed, ticks: MAX_TICKS });
  const w = r.summary.winner;
  if (w !== 0 && w !== 1)
    throw new RunError(`voter replicate of seed ${seed} reached no consensus in ${MAX_TICKS} ticks`);
  return w;
}

/** Judges the frequency of opinion-1 wins against s with the band of {@link VOTER_RULE}. */
function judge(wins: number[]): ValidationOutcome {
  const r = wins.length;
  const mean = wins.reduce((a, b) => a + b, 0) / r;
  const rounding = Math.abs(Math.round(SHARE * AGENTS) / AGENTS - SHARE);
  const tolerance = 1.96 * Math.sqrt((SHARE * (1 - SHARE)) / r) + rounding;
  return {
    predicted: SHARE,
    observed: wins,
    agents: AGENTS,
    tolerance,
    toleranceRule: VOTER_RULE,
    pass: Math.abs(mean - SHARE) <= tolerance,
  };
}

/**
 * The voter model's exit probability on a well-mixed population: opinion 1, held at first by
 * a share s of the agents, wins with probability s (the count of ones is a martingale; on a
 * degree-regular network the degree-weighted share, which decides in general, equals s).
 * `def` is the opinion world unless a test passes a variant.
 */
export function voterCase(def: WorldDefinition = world): ValidationCase {
  return {
    id: 'voter-exit-probability',
    model: 'Voter model (Clifford & Sudbury 1973; Holley & Liggett 1975)',
    setting: `complete graph n=${AGENTS}, async, initial share s=${SHARE} of opinion 1; observed = frequency of opinion 1 winning`,
    source:
      'P. Clifford and A. Sudbury, A model for spatial conflict, Biometrika 60(3):581–588, 1973; ' +
      'R. A. Holley and T. M. Liggett, Ergodic theorems for weakly interacting infinite systems and the voter model, ' +
      'Ann. Probab. 3(4):643–663, 1975',
    // about 1.5 s for the 200 quick replicates (240 runs, 1.7 s, in the full battery)
    quick: true,
    async run({ seed, replicates }) {
      const r = Math.max(MIN_REPLICATES, replicates * 20);
      const wins: number[] = [];
      for (let k = 0; k < r; k++) wins.push(await winner(def, seed + k));
      return judge(wins);
    },
  };
}
