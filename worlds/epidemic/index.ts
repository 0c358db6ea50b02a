import {
  type Activation,
  ConfigError,
  defineAgentMachine,
  defineWorld,
  type Json,
  networkFromParams,
  type Policy,
} from '../../src/index.ts';
import { type EpidemicParams, epidemicParams } from './params.ts';
import { basicReproduction, epidemicTheory } from './theory.ts';

export { type EpidemicParams, epidemicParams } from './params.ts';
export { basicReproduction } from './theory.ts';

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

/** The total event rate of an infected agent of degree `degree` under activation by state. */
function eventRate(p: EpidemicParams, degree: number): number {
  return p.transmission === 'per-edge' ? p.gamma + p.tau * degree : p.gamma + p.contactRate;
}

/**
 * What an infected agent does at a wake, and (by state) the rate it wakes at. Every agent
 * waking at rate 1 (`activation=uniform`, or one step per tick): it recovers with probability
 * γ, or else contacts with probability c. By state: only infected agents wake, at their total
 * event rate; per contact (γ + c) the wake is a recovery with probability γ/(γ + c), else a
 * contact: the same events at the same rates without the empty wakes (thinning). Per edge: an
 * agent of degree d wakes at rate γ + τd and recovers with probability γ/(γ + τd), else tries
 * a uniformly chosen neighbour, so each of its edges carries tries at rate τ and each S–I
 * edge transmits at rate τ. Parameters are read at each call: a fork's `--set` applies.
 */
function dynamics(p: EpidemicParams): { policy: Policy<EpidemicParams>; activation?: Activation } {
  const relapse = () => (p.model === 'sir' ? RECOVER : RELAPSE);
  if (!(p.turns === 'async' && p.activation === 'by-state'))
    return {
      policy: (ctx) => {
        if (!ctx.in(HEALTH, I)) return;
        const u = ctx.rng.next();
        if (u < p.gamma) ctx.fire(relapse());
        else if (u < p.gamma + p.contactRate) ctx.encounter(ctx.randomNeighbour(), 'contact');
      },
    };
  return {
    policy: (ctx) => {
      if (!ctx.in(HEALTH, I)) return;
      if (ctx.rng.next() * eventRate(p, ctx.degree()) < p.gamma) ctx.fire(relapse());
      else ctx.encounter(ctx.randomNeighbour(), 'contact');
    },
    activation: {
      rate: (i, view) =>
        view.executor.stateIndex(i, HEALTH) === I ? eventRate(p, view.network?.degree(i) ?? 0) : 0,
    },
  };
}

function checkParams(p: EpidemicParams): void {
  if (p.transmission === 'per-edge' && !(p.turns === 'async' && p.activation === 'by-state'))
    throw new ConfigError('transmission=per-edge needs turns=async and activation=by-state', {
      hint: 'per-edge rates are continuous-time rates: drop turns/activation to use the defaults',
    });
  if (p.transmission === 'per-contact' && !(p.turns === 'async' && p.activation === 'by-state')) {
    if (p.gamma + p.contactRate > 1)
      throw new ConfigError(`gamma + contactRate must be at most 1 (got ${p.gamma + p.contactRate})`, {
        hint: 'with one wake per agent per tick these are probabilities per wake: rescale time, or use turns=async',
      });
  }
}

/**
 * The epidemic world: SIR or SIS, on a network or well-mixed. Per contact (the default): an
 * infected agent contacts a random neighbour (any agent when well-mixed) at rate c, who is
 * infected with probability β if susceptible (the responder's draw), and recovers at rate γ.
 * Per edge: every edge between an infected and a susceptible agent transmits at rate τ.
 * Under `turns=async` only infected agents wake (docs/TIME.md).
 */
export const world = defineWorld({
  id: 'epidemic',
  version: '2.0.0',
  description:
    'SIR and SIS epidemics with per-contact or per-edge transmission, on a network or well-mixed, in continuous time',
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
    'activation',
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
    checkParams(p);
    // Watts–Strogatz rewires with β = 0.1 here (the world has no beta parameter)
    const { topology: network, inputs } = networkFromParams(
      { ...p, beta: 0.1 },
      rng.stream('network'),
      resolvePath,
    );
    return {
      size: network.size,
      agents: epidemicAgent,
      executor: p.executor,
      network,
      turnPolicy: p.turns,
      ...dynamics(p),
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
      respond: (ctx, said) => {
        if (said.kind !== 'contact' || !ctx.in(HEALTH, S)) return;
        if (p.transmission === 'per-edge' || ctx.rng.chance(p.beta)) ctx.fire(INFECT);
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
          ...(p.transmission === 'per-contact' ? { r0: basicReproduction(p) } : {}),
          finalSize: p.model === 'sir' ? (last.recovered ?? 0) / network.size : null,
          peakInfected: peak,
          theory: epidemicTheory(p, network.size),
        };
      },
    };
  },
  // 1.0.0 woke every agent at rate 1 under async: its logs rerun with activation=uniform
  migrateParams: (params, fromVersion) =>
    fromVersion === '1.0.0' ? { ...params, activation: 'uniform' } : params,
});
