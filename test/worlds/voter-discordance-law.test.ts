// The voter model by discordance (agents wake at their share of disagreeing neighbours and
// flip) against the rate-1 voter (every agent wakes at rate 1 and copies a random neighbour):
// the same law of opinions over time (docs/TIME.md), so the same exit probability and the
// same consensus time. 1000 runs per rule on small Watts–Strogatz graphs, disjoint seeds.
// Power at Holm's strictest threshold (0.005, two tests), measured on samples of 1000
// against 1000: the KS test detects a shift of the consensus time's distribution by 0.2
// standard deviations with probability 0.81 (0.25: 0.97); the proportion test detects a
// winning probability of 0.34 against the 0.265 seen here with probability 0.80.
import { describe, expect, it } from 'vitest';
import { runWorld, type WorldDefinition, type WorldView } from '../../src/index.ts';
import { holm, normalCdf, twoSampleKs } from '../../src/stats/index.ts';
import { world } from '../../worlds/opinion/index.ts';
import { SLOT } from '../../worlds/opinion/machine.ts';

const RUNS = 1000;
const opinion = world as unknown as WorldDefinition;
const PARAMS = { model: 'voter', n: 40, network: 'watts-strogatz', k: 4, beta: 0.2, share: 0.3 };

/** Two-sided pooled two-proportion z test (large samples: 1000 runs, shares far from 0 and 1). */
function twoProportions(a: number, b: number, n: number): number {
  const pooled = (a + b) / (2 * n);
  const se = Math.sqrt(pooled * (1 - pooled) * (2 / n));
  if (se === 0) return 1;
  return 2 * (1 - normalCdf(Math.abs(a - b) / n / se));
}

async function sample(voterRule: string, firstSeed: number, w = opinion) {
  const out = { wins: 0, times: [] as number[], steps: 0 };
  for (let k = 0; k < RUNS; k++) {
    const r = await runWorld(w, { params: { ...PARAMS, voterRule }, seed: firstSeed + k, ticks: 100_000 });
    if (r.summary.winner !== 0 && r.summary.winner !== 1)
      throw new Error(`seed ${firstSeed + k}: no consensus`);
    out.wins += r.summary.winner;
    out.times.push(r.ticks);
    out.steps += r.steps;
  }
  return out;
}

/** The two tests, Holm-adjusted: exit probability (proportions) and consensus time (KS). */
function compare(a: Awaited<ReturnType<typeof sample>>, b: Awaited<ReturnType<typeof sample>>) {
  const p = [twoProportions(a.wins, b.wins, RUNS), twoSampleKs(a.times, b.times).p];
  return holm(p);
}

describe('the voter by discordance has the law of the rate-1 voter', { timeout: 300_000 }, () => {
  // the rate-1 sample both tests compare against (the same seeds: drawn once)
  let rate1Sample: ReturnType<typeof sample> | undefined;
  const rate1Runs = () => {
    rate1Sample ??= sample('rate-1', 1);
    return rate1Sample;
  };

  it('exit probability and consensus time agree (Holm at 1%), with fewer steps', async () => {
    const rate1 = await rate1Runs();
    const discordance = await sample('discordance', 1_000_001);
    expect(compare(rate1, discordance).every((p) => p >= 0.01)).toBe(true);
    // the point of it: no wake of an agent whose neighbours all agree
    expect(discordance.steps).toBeLessThan(rate1.steps / 1.5);
  });

  /** The opinion world with its voter rate changed by `factor(i, view)`. */
  function scaled(factor: (i: number, view: WorldView) => number): WorldDefinition {
    return {
      ...opinion,
      create: (setup) => {
        const instance = opinion.create(setup);
        const rate = instance.activation!.rate!;
        return {
          ...instance,
          activation: { ...instance.activation, rate: (i, view) => rate(i, view) * factor(i, view) },
        };
      },
    };
  }

  it('tells wrong rates apart: holders of opinion 1 flipping twice as fast; everyone 1.5 times as fast', async () => {
    const rate1 = await rate1Runs();
    const biased = await sample(
      'discordance',
      1_000_001,
      scaled((i, view) => (view.executor.slot(i, SLOT.x) === 1 ? 2 : 1)),
    );
    expect(compare(rate1, biased)[0]).toBeLessThan(1e-6);
    // the same embedded chain, so the same winner: only the consensus time tells it apart
    const hurried = await sample(
      'discordance',
      1_000_001,
      scaled(() => 1.5),
    );
    const [winner, time] = compare(rate1, hurried);
    expect(winner).toBeGreaterThan(0.01);
    expect(time).toBeLessThan(1e-6);
  });
});
