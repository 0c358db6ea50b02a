import {
  blockModelParams,
  ConfigError,
  defineAgentMachine,
  defineWorld,
  type Json,
  networkFromParams,
  z,
} from '../../src/index.ts';
import { giantFraction } from '../rumor/theory.ts';

/** Parameters of the epidemic world (rates per unit time; with `turns=async` every agent wakes at rate 1). */
export const epidemicParams = z.object({
  model: z
    .enum(['sir', 'sis'])
    .default('sir')
    .describe('SIR (recovered are immune) or SIS (recovered are susceptible again)'),
  n: z.number().int().min(2).default(10_000).describe('number of agents'),
  network: z
    .enum([
      'complete',
      'erdos-renyi',
      'watts-strogatz',
      'barabasi-albert',
      'stochastic-block-model',
      'ring-lattice',
      'csv',
    ])
    .default('complete')
    .describe('contact network (complete = well-mixed; csv = networkFile)'),
  k: z
    .number()
    .min(0)
    .default(10)
    .describe('mean degree (erdos-renyi; integer for watts-strogatz, ring-lattice)'),
  m: z.number().int().min(1).default(5).describe('barabasi-albert edges per new node'),
  ...blockModelParams,
  // no default: a run without a file records no networkFile, as before it existed
  networkFile: z
    .string()
    .optional()
    .describe("edge-list CSV path when network=csv (n is then the file's node count)"),
  contactRate: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe('contacts an infected agent makes per unit time'),
  beta: z
    .number()
    .min(0)
    .max(1)
    .default(0.6)
    .describe('transmission probability per contact with a susceptible agent'),
  gamma: z.number().min(0).max(1).default(0.2).describe('recovery rate per unit time'),
  initial: z.number().int().min(0).default(1).describe('agents infected at time 0'),
  turns: z
    .enum(['async', 'simultaneous', 'random-order'])
    .default('async')
    .describe('turn policy (async = continuous time)'),
  executor: z.enum(['columnar', 'xstate']).default('columnar').describe('agent executor'),
});

/** Resolved epidemic parameters. */
export type EpidemicParams = z.infer<typeof epidemicParams>;

/** susceptible -> infected -> recovered (SIR) or back to susceptible (SIS). */
export const epidemicAgent = defineAgentMachine({
  id: 'epidemic-agent',
  regions: {
    health: {
      initial: 'susceptible',
      states: {
        susceptible: { on: { INFECT: 'infected' } },
        infected: { tags: ['active'], on: { RECOVER: 'recovered', RELAPSE: 'susceptible' } },
        recovered: {},
      },
    },
  },
});
const L = epidemicAgent.layout;
const HEALTH = L.region('health');
const S = L.state(HEALTH, 'susceptible');
const I = L.state(HEALTH, 'infected');
const R = L.state(HEALTH, 'recovered');
const INFECT = L.event('INFECT');
const RECOVER = L.event('RECOVER');
const RELAPSE = L.event('RELAPSE');

/** R0 on a well-mixed population: contacts per unit time × transmission / recovery rate. */
export function basicReproduction(p: EpidemicParams): number {
  return (p.contactRate * p.beta) / p.gamma;
}

/**
 * The epidemic world: SIR or SIS with per-contact transmission probability β, contact rate
 * c and recovery rate γ. An infected agent, at each wake (rate 1 under async activation),
 * recovers with probability γ, or else with probability c opens an encounter with a random
 * neighbour (any agent when well-mixed), who is infected with probability β if susceptible
 * (the responder's draw). Needs γ + c ≤ 1: these are rates per unit time, thinned from the
 * wake rate.
 */
export const world = defineWorld({
  id: 'epidemic',
  version: '1.0.0',
  description:
    'SIR and SIS epidemics with per-contact transmission, on a network or well-mixed, in continuous time',
  params: epidemicParams,
  // its beta is the transmission probability, not Watts–Strogatz rewiring
  networkParams: ['k', 'm', 'blocks', 'pIn', 'pOut'],
  // beta, gamma, contactRate and model are read at every step (a fork may change them)
  fixedAtCreation: [
    'n',
    'network',
    'k',
    'm',
    'blocks',
    'pIn',
    'pOut',
    'networkFile',
    'initial',
    'turns',
    'executor',
  ],
  fileParams: { networkFile: { readWhen: (p) => p.network === 'csv', needs: 'network=csv', network: true } },
  metrics: {
    susceptible: {
      label: 'susceptible',
      unit: 'agents',
      kind: 'state-count',
      region: 'health',
      state: 'S',
      group: 'Agents per state',
    },
    infected: {
      label: 'infected',
      unit: 'agents',
      kind: 'state-count',
      region: 'health',
      state: 'I',
      group: 'Agents per state',
    },
    recovered: {
      label: 'recovered',
      unit: 'agents',
      kind: 'state-count',
      region: 'health',
      state: 'R',
      group: 'Agents per state',
    },
    attack: { label: 'ever infected (attack rate)', unit: 'share of agents', kind: 'share' },
  },
  defaultTicks: 10_000,
  create({ params: p, rng, resolvePath }) {
    if (p.gamma + p.contactRate > 1)
      throw new ConfigError(`gamma + contactRate must be at most 1 (got ${p.gamma + p.contactRate})`, {
        hint: 'rates are per unit time and every agent wakes at rate 1: rescale time',
      });
    // Watts–Strogatz rewires with β = 0.1 here (the world has no beta parameter)
    const { topology: network, inputs } = networkFromParams(
      { ...p, beta: 0.1 },
      rng.stream('network'),
      resolvePath,
    );
    const r0 = basicReproduction(p);
    return {
      size: network.size,
      agents: epidemicAgent,
      executor: p.executor,
      network,
      turnPolicy: p.turns,
      ...(inputs ? { inputs } : {}),
      init: (control) => {
        const s = rng.stream('initial');
        const done = new Set<number>();
        while (done.size < Math.min(p.initial, control.size)) {
          const i = s.int(control.size);
          if (!done.has(i)) control.executor.sendId(i, INFECT);
          done.add(i);
        }
      },
      policy: (ctx) => {
        if (!ctx.in(HEALTH, I)) return;
        const u = ctx.rng.next();
        if (u < p.gamma) ctx.fire(p.model === 'sir' ? RECOVER : RELAPSE);
        else if (u < p.gamma + p.contactRate) ctx.encounter(ctx.randomNeighbour(), 'contact');
      },
      respond: (ctx, said) => {
        if (said.kind === 'contact' && ctx.in(HEALTH, S) && ctx.rng.chance(p.beta)) ctx.fire(INFECT);
      },
      metrics: (view) => {
        const c = view.executor.counts(HEALTH);
        return { susceptible: c[S], infected: c[I], recovered: c[R], attack: (view.size - c[S]) / view.size };
      },
      stop: (view) => (view.tick > 0 && view.executor.counts(HEALTH)[I] === 0 ? 'extinct' : null),
      summary: (history): Record<string, Json> => {
        const last = history[history.length - 1] ?? {};
        const peak = Math.max(...history.map((h) => h.infected ?? 0));
        return {
          r0,
          finalSize: p.model === 'sir' ? (last.recovered ?? 0) / network.size : null,
          peakInfected: peak,
          theory: (p.network === 'complete'
            ? p.model === 'sir'
              ? { finalSize: giantFraction(r0), source: 'Kermack & McKendrick 1927: z = 1 − e^(−R0·z)' }
              : { endemic: r0 > 1 ? 1 - 1 / r0 : 0, source: 'SIS endemic level 1 − 1/R0' }
            : null) as Json,
        };
      },
    };
  },
});
