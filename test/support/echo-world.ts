// A user's world file of one file (it imports 'grapevine' only): agents poke a neighbour on a
// ring. test/cli/cli.test.ts runs and verifies it as a user does, type check included;
// test/cli/security.test.ts writes its logs. One text for both: a passed type check is
// remembered by content (test/support/shared-type-check-cache.ts), so a test run checks it once.
export const ECHO_WORLD = `import { defineAgentMachine, defineWorld, ringLattice, z } from 'grapevine';
const agent = defineAgentMachine({ id: 'echo', regions: { mood: { initial: 'calm', states: { calm: { on: { POKE: 'busy' } }, busy: { tags: ['active'], on: { REST: 'calm' } } } } }, memory: { pokes: { initial: 0 } } });
export const world = defineWorld({
  id: 'echo', version: '0.1.0', description: 'agents poke a neighbour', params: z.object({ n: z.number().int().default(20) }),
  create: ({ params }) => ({
    size: params.n, agents: agent, executor: 'xstate', network: ringLattice({ n: params.n, k: 2 }), turnPolicy: 'simultaneous',
    init: (c) => c.emit(0, 'POKE'),
    policy: (ctx) => {
      if (ctx.inbox.length > 0) { ctx.set('pokes', ctx.num('pokes') + ctx.inbox.length); ctx.emit('POKE'); }
      if (ctx.is('mood', 'busy')) { ctx.send({ to: 'agent', id: ctx.randomNeighbour() }, 'poke'); ctx.emit('REST'); }
    },
    metrics: (v) => ({ busy: v.count('mood', 'busy') }),
  }),
});
`;
