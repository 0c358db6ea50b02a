// Watts's threshold cascade (Watts 2002, "A simple model of global cascades on random
// networks", PNAS 99(9)) with string-free numeric memory: every agent keeps its own
// threshold φ (a number drawn at creation) and the count of its neighbours that have adopted;
// it adopts once that count reaches φ × its degree. Adopters tell their neighbours once.
// Try it: grapevine run ./threshold-cascade.ts --set phi=0.18
import { defineAgentMachine, defineWorld, erdosRenyi, type StepContext, z } from 'grapevine';

const params = z.object({
  n: z.number().int().min(2).default(2000).describe('agents'),
  z: z.number().min(0).default(4).describe('mean degree of the Erdős–Rényi network'),
  phi: z.number().min(0).max(1).default(0.18).describe('mean threshold'),
  spread: z.number().min(0).max(1).default(0.05).describe('thresholds are uniform on phi ± spread'),
  seeds: z.number().int().min(1).default(10).describe('initial adopters'),
});
type Params = z.infer<typeof params>;

const agent = defineAgentMachine({
  id: 'threshold-agent',
  regions: {
    adoption: { initial: 'waiting', states: { waiting: { on: { ADOPT: 'adopted' } }, adopted: {} } },
  },
  memory: {
    threshold: { initial: 0, type: 'f64' },
    adoptedNeighbours: { initial: 0, type: 'i32' },
    adoptedAt: { initial: -1, type: 'i32' },
  },
});

function adopt(ctx: StepContext<Params>): void {
  ctx.emit('ADOPT');
  ctx.set('adoptedAt', ctx.tick);
  ctx.send({ to: 'neighbours' }, 'adopted');
}

function policy(ctx: StepContext<Params>): void {
  if (!ctx.is('adoption', 'waiting')) return;
  const count = ctx.num('adoptedNeighbours') + ctx.inbox.length;
  ctx.set('adoptedNeighbours', count);
  const degree = ctx.degree();
  if (degree > 0 && count >= ctx.num('threshold') * degree) adopt(ctx);
}

export const world = defineWorld({
  id: 'threshold-cascade',
  version: '1.0.0',
  description: "Watts's threshold cascade on an Erdős–Rényi network, numeric memory only",
  params,
  defaultTicks: 100,
  fixedAtCreation: ['n', 'z', 'phi', 'spread', 'seeds'],
  metrics: {
    adopters: {
      label: 'adopters',
      unit: 'agents',
      kind: 'state-count',
      region: 'adoption',
      state: 'adopted',
    },
    share: { label: 'share adopted', unit: 'share of agents', kind: 'share' },
    meanThreshold: { label: 'mean threshold of those still waiting', unit: 'threshold', kind: 'mean' },
  },
  create: ({ params: p, rng }) => {
    const network = erdosRenyi({ n: p.n, p: Math.min(1, p.z / (p.n - 1)) }, rng.stream('network'));
    const draws = rng.stream('thresholds');
    const thresholds = Array.from({ length: p.n }, () => p.phi + p.spread * (2 * draws.next() - 1));
    const seeds = rng.stream('seeds');
    return {
      size: p.n,
      agents: agent,
      network,
      turnPolicy: 'simultaneous',
      policy,
      init: (c) => {
        for (let i = 0; i < p.n; i++) c.set(i, 'threshold', thresholds[i]);
        for (let k = 0; k < p.seeds; k++) {
          const i = seeds.int(p.n);
          c.emit(i, 'ADOPT');
          c.set(i, 'adoptedAt', 0);
          c.send(i, { address: { to: 'neighbours' }, kind: 'adopted' });
        }
      },
      metrics: (view) => {
        const adopters = view.count('adoption', 'adopted');
        const at = view.memoryColumn('adoptedAt');
        const threshold = view.memoryColumn('threshold');
        let sum = 0;
        let waiting = 0;
        for (let i = 0; i < view.size; i++)
          if (at[i] < 0) {
            sum += threshold[i];
            waiting++;
          }
        return { adopters, share: adopters / view.size, meanThreshold: waiting ? sum / waiting : 0 };
      },
      stop: (view) => (view.tick > 0 && view.pending() === 0 ? 'settled' : null),
    };
  },
});
