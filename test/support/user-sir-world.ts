// A world file as a user writes it outside the checkout (it imports 'grapevine' only): SIR
// contagion on a ring lattice, random after every tick (so forks with other seeds differ).
// Tests write it to a temporary folder and run it there through the compiled CLI.
export const USER_SIR_WORLD = `// A user's world outside the checkout: SIR contagion on a ring lattice. Each tick an
// infected agent contacts one random neighbour and recovers with chance gamma; a
// susceptible agent contacted is infected with chance beta per contact.
import { defineAgentMachine, defineWorld, ringLattice, type StepContext, z } from 'grapevine';

const params = z.object({
  n: z.number().int().min(10).default(400).describe('agents'),
  k: z.number().int().min(2).default(6).describe('neighbours per agent (even)'),
  beta: z.number().min(0).max(1).default(0.5).describe('infection chance per contact'),
  gamma: z.number().min(0).max(1).default(0.1).describe('recovery chance per tick'),
});
type Params = z.infer<typeof params>;

const agent = defineAgentMachine({
  id: 'sir-agent',
  regions: {
    health: {
      initial: 'susceptible',
      states: {
        susceptible: { on: { INFECT: 'infected' } },
        infected: { tags: ['active'], on: { RECOVER: 'recovered' } },
        recovered: {},
      },
    },
  },
});

function policy(ctx: StepContext<Params>): void {
  if (ctx.is('health', 'susceptible')) {
    for (let m = 0; m < ctx.inbox.length; m++)
      if (ctx.rng.chance(ctx.params.beta)) {
        ctx.emit('INFECT');
        return;
      }
    return;
  }
  if (ctx.is('health', 'infected')) {
    ctx.tell(ctx.randomNeighbour(), 'contact');
    if (ctx.rng.chance(ctx.params.gamma)) ctx.emit('RECOVER');
  }
}

export const world = defineWorld({
  id: 'user-sir',
  version: '1.0.0',
  description: 'SIR contagion on a ring lattice (a test world)',
  params,
  defaultTicks: 300,
  create: ({ params: p }) => ({
    size: p.n,
    agents: agent,
    network: ringLattice({ n: p.n, k: p.k }),
    turnPolicy: 'simultaneous',
    policy,
    init: (c) => {
      for (let i = 0; i < 4; i++) c.emit(i * Math.floor(p.n / 4), 'INFECT');
    },
    metrics: (view) => ({
      infected: view.count('health', 'infected'),
      recovered: view.count('health', 'recovered'),
      reach: (view.count('health', 'infected') + view.count('health', 'recovered')) / view.size,
    }),
    stop: (view) => (view.count('health', 'infected') === 0 ? 'extinct' : null),
  }),
});
`;
