// Misinformation with fact-checkers on a Barabási–Albert network, written as a user outside
// the grapevine checkout would write it. A false claim is planted in a few readers; a
// believer tells one random neighbour per tick (who believes with chance `beta`) and goes
// quiet with chance `gamma`. Fact-checkers who are told the claim start debunking: for
// `checkTicks` ticks they send a correction to all their neighbours, which a reader accepts
// with chance `alpha` (a corrected reader neither believes nor passes the claim on).
// Try it: grapevine check ./misinformation.ts && grapevine run ./misinformation.ts --report
import { barabasiAlbert, defineAgentMachine, defineWorld, type StepContext, z } from 'grapevine';

const params = z.object({
  n: z.number().int().min(10).default(5000).describe('readers'),
  m: z.number().int().min(1).default(3).describe('edges of each new reader (Barabási–Albert)'),
  seeds: z.number().int().min(1).default(5).describe('readers who believe the claim at the start'),
  checkers: z.number().min(0).max(1).default(0.05).describe('share of readers who are fact-checkers'),
  beta: z.number().min(0).max(1).default(0.3).describe('chance that a reader told the claim believes it'),
  gamma: z.number().min(0).max(1).default(0.1).describe('chance per tick that a believer goes quiet'),
  alpha: z.number().min(0).max(1).default(0.6).describe('chance that a correction is accepted'),
  checkTicks: z.number().int().min(1).default(5).describe('ticks a fact-checker keeps debunking'),
});
type Params = z.infer<typeof params>;

const reader = defineAgentMachine({
  id: 'reader',
  regions: {
    misinfo: {
      initial: 'unaware',
      states: {
        unaware: { on: { BELIEVE: 'believer', CORRECT: 'corrected' } },
        believer: { tags: ['active'], on: { TIRE: 'quiet', CORRECT: 'corrected' } },
        quiet: { on: { CORRECT: 'corrected' } },
        corrected: {},
      },
    },
    check: {
      initial: 'idle',
      states: {
        idle: { on: { START: 'debunking' } },
        debunking: { tags: ['active'], on: { STOP: 'done' } },
        done: {},
      },
    },
  },
  // numbers only: the agents run on the columnar executor
  memory: { checker: { initial: 0, type: 'u8' }, since: { initial: -1, type: 'i32' } },
});

function hear(ctx: StepContext<Params>, kind: string): void {
  const checker = ctx.num('checker') === 1;
  if (kind === 'claim' && checker && ctx.is('check', 'idle')) {
    ctx.emit('START');
    ctx.set('since', ctx.tick);
  } else if (kind === 'claim' && !checker && ctx.is('misinfo', 'unaware')) {
    if (ctx.rng.chance(ctx.params.beta)) ctx.emit('BELIEVE');
  } else if (kind === 'correction' && !checker && !ctx.is('misinfo', 'corrected')) {
    if (ctx.rng.chance(ctx.params.alpha)) ctx.emit('CORRECT');
  }
}

function policy(ctx: StepContext<Params>): void {
  for (let k = 0; k < ctx.inbox.length; k++) hear(ctx, ctx.inbox.kindOf(k));
  if (ctx.is('misinfo', 'believer')) {
    const to = ctx.randomNeighbour();
    if (to >= 0) ctx.tell(to, 'claim', 'misinfo');
    if (ctx.rng.chance(ctx.params.gamma)) ctx.emit('TIRE');
  }
  if (ctx.is('check', 'debunking')) {
    ctx.send({ to: 'neighbours' }, 'correction', 'correction');
    if (ctx.tick - ctx.num('since') >= ctx.params.checkTicks) ctx.emit('STOP');
  }
}

const state = (s: string, label: string) =>
  ({
    label,
    unit: 'readers',
    kind: 'state-count',
    region: 'misinfo',
    state: s,
    item: 'misinfo',
    group: 'Readers by belief',
  }) as const;

export const world = defineWorld({
  id: 'misinformation',
  version: '1.0.0',
  description: 'a false claim on a Barabási–Albert network, and fact-checkers who debunk it',
  params,
  defaultTicks: 300,
  // read once, when the world is built: a fork cannot change them
  fixedAtCreation: ['n', 'm', 'seeds', 'checkers'],
  metrics: {
    believers: state('believer', 'believers'),
    quiet: state('quiet', 'quiet believers'),
    corrected: state('corrected', 'corrected'),
    debunking: { label: 'fact-checkers debunking', unit: 'readers', kind: 'count', item: 'correction' },
    believing: { label: 'believe the claim', unit: 'share of readers', kind: 'share', item: 'misinfo' },
  },
  create: ({ params: p, rng }) => {
    const network = barabasiAlbert({ n: p.n, m: p.m }, rng.stream('network'));
    const roles = rng.stream('roles');
    const checker = Array.from({ length: p.n }, () => roles.chance(p.checkers));
    return {
      size: p.n,
      agents: reader,
      network,
      turnPolicy: 'simultaneous',
      policy,
      init: (c) => {
        let planted = 0;
        for (let i = 0; i < p.n; i++) {
          if (checker[i]) c.set(i, 'checker', 1);
          else if (planted < p.seeds) {
            c.emit(i, 'BELIEVE');
            planted++;
          }
        }
      },
      metrics: (view) => ({
        believers: view.count('misinfo', 'believer'),
        quiet: view.count('misinfo', 'quiet'),
        corrected: view.count('misinfo', 'corrected'),
        debunking: view.count('check', 'debunking'),
        believing: (view.count('misinfo', 'believer') + view.count('misinfo', 'quiet')) / view.size,
      }),
      stop: (view) =>
        view.tick > 0 && view.count('misinfo', 'believer') === 0 && view.count('check', 'debunking') === 0
          ? 'settled'
          : null,
    };
  },
});
