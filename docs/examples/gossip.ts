// A continuous-time world file, written as a user outside the grapevine checkout would write
// it: gossip with forgetting on a small world (a Maki–Thompson rumour whose spreaders also
// lose interest on their own). Unaware and bored agents are passive: under `turns=async` they
// never wake, and a spreader wakes at its total event rate, talk + forget (docs/TIME.md).
// A tip from outside (`--intervene` a message of kind `tip`) is read when its recipient wakes
// for its mail. `idle` counts wakes that had nothing to do: 0 here, thousands under
// `turns=async-uniform`, which wakes everyone at rate 1 (the same law, more steps).
// Try it: grapevine run ./gossip.ts && grapevine run ./gossip.ts --set turns=async-uniform
import { ConfigError, defineAgentMachine, defineWorld, type StepContext, wattsStrogatz, z } from 'grapevine';

const params = z.object({
  n: z.number().int().min(2).default(2000).describe('agents'),
  k: z.number().int().min(2).default(6).describe('neighbours per agent (even)'),
  talk: z.number().min(0).default(0.8).describe('tellings per unit time of a spreader'),
  forget: z.number().min(0).default(0.2).describe('rate at which a spreader loses interest'),
  turns: z.enum(['async', 'async-uniform']).default('async').describe('turn policy'),
});
type Params = z.infer<typeof params>;

const agent = defineAgentMachine({
  id: 'gossip-agent',
  regions: {
    gossip: {
      initial: 'unaware',
      states: {
        unaware: { on: { HEAR: 'spreading' } },
        spreading: { tags: ['active'], on: { FORGET: 'bored' } },
        bored: {},
      },
    },
  },
  memory: { idle: { initial: 0, type: 'i32' } },
});

/**
 * One wake. A spreader forgets with probability forget/(talk + forget), else tells a random
 * neighbour: a wake at rate talk + forget thinned into the two events. Under async-uniform a
 * wake comes at rate 1, so the probabilities are the rates themselves (talk + forget ≤ 1).
 */
function policy(ctx: StepContext<Params>): void {
  const p = ctx.params;
  let tipped = false;
  for (const m of ctx.inbox)
    if (m.kind === 'tip' && ctx.is('gossip', 'unaware')) {
      ctx.emit('HEAR');
      tipped = true;
    }
  if (!ctx.is('gossip', 'spreading')) {
    if (!tipped && ctx.inbox.length === 0) ctx.set('idle', ctx.num('idle') + 1);
    return;
  }
  const scale = p.turns === 'async' ? p.talk + p.forget : 1;
  const u = ctx.rng.next() * scale;
  if (u < p.forget) ctx.emit('FORGET');
  else if (u < p.forget + p.talk) ctx.encounter(ctx.randomNeighbour(), 'tell');
}

export const world = defineWorld({
  id: 'gossip',
  version: '1.0.0',
  description: 'Gossip with forgetting in continuous time: only spreaders wake',
  params,
  defaultTicks: 500,
  create: ({ params: p, rng }) => {
    if (p.turns === 'async-uniform' && p.talk + p.forget > 1)
      throw new ConfigError('async-uniform wakes agents at rate 1: talk + forget must be at most 1', {
        hint: 'lower talk and forget, or use turns=async',
      });
    const seeds = rng.stream('seeds');
    const first = seeds.int(p.n);
    return {
      size: p.n,
      agents: agent,
      executor: 'columnar',
      network: wattsStrogatz({ n: p.n, k: p.k, beta: 0.1 }, rng.stream('network')),
      turnPolicy: p.turns,
      // spreaders wake at their total event rate; unaware and bored agents never do
      activation: { rates: { gossip: { spreading: p.talk + p.forget } } },
      policy,
      respond: (ctx, said) => {
        if (said.kind === 'tell' && ctx.is('gossip', 'unaware')) ctx.emit('HEAR');
      },
      init: (c) => c.emit(first, 'HEAR'),
      metrics: (view) => {
        let idle = 0;
        for (const v of view.memoryColumn('idle')) idle += v;
        return {
          unaware: view.count('gossip', 'unaware'),
          spreading: view.count('gossip', 'spreading'),
          bored: view.count('gossip', 'bored'),
          idle,
        };
      },
      stop: (view) =>
        view.tick > 0 && view.count('gossip', 'spreading') === 0 && view.pending() === 0 ? 'over' : null,
    };
  },
});
