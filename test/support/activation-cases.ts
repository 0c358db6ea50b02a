// The built-in continuous-time models as cases for comparing activation by state (`async`
// following state) with rate-1 activation (`activation=uniform`): the light test in
// test/worlds/continuous-time.test.ts and the heavy run in bench/continuous-equivalence.ts.
import { runWorld, type WorldDefinition } from '../../src/index.ts';
import { world as epidemic } from '../../worlds/epidemic/index.ts';
import { world as opinion } from '../../worlds/opinion/index.ts';
import { world as rumor } from '../../worlds/rumor/index.ts';

/** One model at a small population, and how to read its outcomes from a run. */
export interface ActivationCase {
  name: string;
  world: WorldDefinition;
  params: Record<string, unknown>;
  /** What the run's per-tick view reports (the count whose peak and end are outcomes). */
  watch: (view: { count(region: string, state: string): number }) => number;
  /** Which outcomes: final size (or reach), the tick it ended at, the tick of the peak. */
  outcomes: readonly OutcomeName[];
}

/** Outcomes of one run. */
export type OutcomeName = 'final' | 'extinction' | 'peakTime';

const rumorAsync = { network: 'complete', turns: 'async', insiders: 0, spreaders: 1, factBlocksRumor: false };
const spreaders = (v: { count(r: string, s: string): number }) => v.count('rumor', 'spreader');
const infected = (v: { count(r: string, s: string): number }) => v.count('health', 'infected');

/** The models, at populations small enough for hundreds of runs. */
export function activationCases(n = 100): ActivationCase[] {
  const w = (x: unknown) => x as WorldDefinition;
  return [
    {
      name: 'SIR, well-mixed, per contact',
      world: w(epidemic),
      params: { n, initial: 2, contactRate: 0.75, gamma: 0.25, beta: 0.6 },
      watch: infected,
      outcomes: ['final', 'extinction', 'peakTime'],
    },
    {
      name: 'SIS, well-mixed, per contact',
      world: w(epidemic),
      params: { n: Math.round(n * 0.6), model: 'sis', initial: 4, contactRate: 0.6, gamma: 0.4, beta: 0.8 },
      watch: infected,
      outcomes: ['extinction', 'peakTime'],
    },
    {
      name: 'Daley–Kendall, well-mixed, async',
      world: w(rumor),
      params: { n, model: 'daley-kendall', ...rumorAsync },
      watch: spreaders,
      outcomes: ['final', 'extinction', 'peakTime'],
    },
    {
      name: 'Maki–Thompson, well-mixed, async',
      world: w(rumor),
      params: { n, model: 'maki-thompson', ...rumorAsync },
      watch: spreaders,
      outcomes: ['final', 'extinction', 'peakTime'],
    },
    {
      name: 'independent cascade, Erdős–Rényi, async',
      world: w(rumor),
      params: {
        n,
        model: 'independent-cascade',
        network: 'erdos-renyi',
        k: 6,
        p: 0.3,
        turns: 'async',
        insiders: 0,
        spreaders: 2,
      },
      watch: spreaders,
      outcomes: ['final', 'extinction', 'peakTime'],
    },
  ];
}

/** The voter (its rate-1 rule) and Deffuant–Weisbuch models: every agent always wakes at rate 1. */
export function alwaysActiveCases(n = 50): ActivationCase[] {
  const w = opinion as unknown as WorldDefinition;
  const none = () => 0;
  return [
    {
      name: 'voter, Watts–Strogatz',
      world: w,
      // the rate-1 rule: the discordance rule (the default) needs activation by state
      params: { n, model: 'voter', k: 4, voterRule: 'rate-1' },
      watch: none,
      outcomes: ['extinction'],
    },
    {
      name: 'Deffuant–Weisbuch, well-mixed',
      world: w,
      params: { n, model: 'deffuant-weisbuch', network: 'complete', epsilon: 0.3, tolerance: 1e-3 },
      watch: none,
      outcomes: ['extinction'],
    },
  ];
}

/** One run's outcomes under `activation`, and its step count. */
export async function runCase(
  c: ActivationCase,
  activation: 'by-state' | 'uniform',
  seed: number,
  world: WorldDefinition = c.world,
): Promise<Record<OutcomeName, number> & { steps: number; digest: string; summary: unknown }> {
  let peak = -1;
  let peakTime = 0;
  let last = 0;
  const r = await runWorld(world, {
    params: { ...c.params, activation },
    seed,
    ticks: 100_000,
    onTick: (tick, _max, view) => {
      last = c.watch(view);
      if (last > peak) {
        peak = last;
        peakTime = tick;
      }
    },
  });
  const size = r.size;
  const final =
    c.world.id === 'epidemic' ? (r.metrics.recovered ?? 0) / size : (r.metrics['rumor.aware'] ?? 0) / size;
  return { final, extinction: r.ticks, peakTime, steps: r.steps, digest: r.digest, summary: r.summary };
}
