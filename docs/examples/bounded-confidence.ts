// A complete world file, written as a user outside the grapevine checkout would write it.
// Hegselmann-Krause bounded confidence (Hegselmann & Krause 2002, JASSS 5(3)) on a ring
// lattice: every tick each agent tells its neighbours its opinion, then moves to the mean
// of its own opinion and the opinions it heard that lie within `epsilon` of it.
// Try it: grapevine check ./bounded-confidence.ts && grapevine run ./bounded-confidence.ts
import { defineAgentMachine, defineWorld, ringLattice, type StepContext, z } from 'grapevine';

const params = z.object({
  n: z.number().int().min(2).default(100).describe('agents'),
  k: z.number().int().min(2).default(6).describe('neighbours per agent (even)'),
  epsilon: z.number().min(0).max(1).default(0.2).describe('confidence bound'),
});
type Params = z.infer<typeof params>;

/** One region with one `active` state: `simultaneous` steps every agent every tick. */
const agent = defineAgentMachine({
  id: 'hk-agent',
  regions: { talk: { initial: 'talking', states: { talking: { tags: ['active'] } } } },
  memory: { x: { initial: 0, type: 'f64' } },
});

/** One step: update from last tick's opinions (the inbox), then tell the neighbours. */
function policy(ctx: StepContext<Params>): void {
  const own = ctx.num('x');
  let sum = own;
  let count = 1;
  for (const m of ctx.inbox) {
    const other = m.payload as number;
    if (Math.abs(other - own) <= ctx.params.epsilon) {
      sum += other;
      count += 1;
    }
  }
  const next = sum / count;
  ctx.set('x', next);
  ctx.send({ to: 'neighbours' }, 'opinion', undefined, next);
}

export const world = defineWorld({
  id: 'bounded-confidence',
  version: '1.0.0',
  description: 'Hegselmann-Krause bounded confidence on a ring lattice',
  params,
  defaultTicks: 30,
  create: ({ params: p, rng }) => {
    const draws = rng.stream('opinions');
    const start = Array.from({ length: p.n }, () => draws.next());
    return {
      size: p.n,
      agents: agent,
      network: ringLattice({ n: p.n, k: p.k }),
      turnPolicy: 'simultaneous',
      policy,
      init: (c) => {
        for (let i = 0; i < p.n; i++) c.set(i, 'x', start[i]);
      },
      metrics: (view) => {
        const x = view.memoryColumn('x');
        let lo = 1;
        let hi = 0;
        for (const v of x) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
        return { spread: hi - lo };
      },
    };
  },
});
