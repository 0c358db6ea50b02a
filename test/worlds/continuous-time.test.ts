// Activation by state (`turns=async` with the world's passive states and rates) against
// rate-1 activation (`activation=uniform`, what every agent woke at before): the outcome
// distributions of the built-in continuous-time models are the same (docs/TIME.md says why).
// The light version: 200 runs per arm at 60–100 agents. bench/continuous-equivalence.ts runs
// the heavy one (more runs, larger populations) and reports the power of each test.
import { describe, expect, it } from 'vitest';
import type { WorldDefinition } from '../../src/index.ts';
import { holm, twoSampleKs } from '../../src/stats/index.ts';
import {
  type ActivationCase,
  activationCases,
  alwaysActiveCases,
  runCase,
} from '../support/activation-cases.ts';

const RUNS = 200;

async function sample(
  c: ActivationCase,
  activation: 'by-state' | 'uniform',
  firstSeed: number,
  world?: WorldDefinition,
) {
  const out = [];
  for (let k = 0; k < RUNS; k++) out.push(await runCase(c, activation, firstSeed + k, world));
  return out;
}

describe('activation by state has the law of rate-1 activation', { timeout: 300_000 }, () => {
  it('final size (reach), time to extinction and peak time: two-sample Kolmogorov–Smirnov, Holm at 1%', async () => {
    const rows: { model: string; outcome: string; d: number; p: number }[] = [];
    for (const c of activationCases(80)) {
      // disjoint seeds: the two samples are independent
      const uniform = await sample(c, 'uniform', 1);
      const byState = await sample(c, 'by-state', 1_000_001);
      for (const o of c.outcomes)
        rows.push({
          model: c.name,
          outcome: o,
          ...twoSampleKs(
            uniform.map((r) => r[o]),
            byState.map((r) => r[o]),
          ),
        });
      // the point of it: passive agents are not stepped
      const steps = (rs: { steps: number }[]) => rs.reduce((s, r) => s + r.steps, 0);
      expect(steps(byState), c.name).toBeLessThan(steps(uniform) / 2);
    }
    const adjusted = holm(rows.map((r) => r.p));
    expect(rows.filter((_r, k) => adjusted[k] < 0.01)).toEqual([]);
    expect(rows.length).toBe(14);
  });

  it('tells a wrong rate apart: an epidemic world declaring twice the infected rate', async () => {
    const [sir] = activationCases(80);
    const base = sir.world;
    // the rate doubled, the policy's thinning unchanged: every event comes twice as fast
    const broken: WorldDefinition = {
      ...base,
      create: (setup) => {
        const instance = base.create(setup);
        const p = setup.params as { gamma: number; contactRate: number };
        return {
          ...instance,
          activation: { rates: { health: { infected: 2 * (p.gamma + p.contactRate) } } },
        };
      },
    };
    const uniform = await sample(sir, 'uniform', 1);
    const wrong = await sample(sir, 'by-state', 1_000_001, broken);
    const ks = twoSampleKs(
      uniform.map((r) => r.extinction),
      wrong.map((r) => r.extinction),
    );
    expect(ks.p).toBeLessThan(1e-6);
  });

  it('voter and Deffuant–Weisbuch (every agent always active): the same trajectory, seed by seed', async () => {
    for (const c of alwaysActiveCases(50))
      for (let seed = 1; seed <= 10; seed++) {
        const a = await runCase(c, 'uniform', seed);
        const b = await runCase(c, 'by-state', seed);
        expect({ model: c.name, seed, steps: b.steps, ticks: b.extinction, summary: b.summary }).toEqual({
          model: c.name,
          seed,
          steps: a.steps,
          ticks: a.extinction,
          summary: a.summary,
        });
      }
  });
});
