// A world made by defineWorld is a WorldDefinition whatever its parameters: lists of worlds,
// loaders and runWorld take it as it is, with no cast, while its own code keeps its
// parameters' types. The type assertions below are checked by `tsc --noEmit` (npm test).
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  defineAgentMachine,
  defineWorld,
  runWorld,
  type StepContext,
  type WorldDefinition,
  z,
} from '../../src/index.ts';
import { world as opinion } from '../../worlds/opinion/index.ts';
import { world as rumor } from '../../worlds/rumor/index.ts';

const params = z.object({
  rate: z.number().min(0).max(1).default(1).describe('chance per step of going'),
  label: z.enum(['a', 'b']).default('a').describe('a label the summary repeats'),
});

const agent = defineAgentMachine({
  id: 'goer',
  regions: {
    go: { initial: 'waiting', states: { waiting: { tags: ['active'], on: { GO: 'gone' } }, gone: {} } },
  },
});

const typed = defineWorld({
  id: 'typed',
  version: '1.0.0',
  description: 'agents go with chance `rate` per step',
  params,
  create: ({ params: p }) => ({
    size: 4,
    agents: agent,
    turnPolicy: 'simultaneous',
    policy: (ctx) => {
      // the policy sees its world's parameter types: a number, and a typo is a type error
      expectTypeOf(ctx.params.rate).toEqualTypeOf<number>();
      // @ts-expect-error `rat` is not a parameter of this world (a read the run would refuse, so never made)
      void (() => ctx.params.rat);
      if (ctx.rng.chance(ctx.params.rate)) ctx.emit('GO');
    },
    respond: (ctx: StepContext<typeof p>) => void ctx.params.label,
    metrics: (view) => ({ gone: view.count('go', 'gone') }),
    summary: () => ({ label: p.label }),
  }),
  migrateParams: (old) => ({ ...old, label: 'a' }),
});

describe('WorldDefinition without a type argument: any world', () => {
  it('holds worlds of different parameters in one list, and runWorld runs them uncast', async () => {
    const worlds: WorldDefinition[] = [typed, rumor, opinion];
    expectTypeOf(typed).toExtend<WorldDefinition>();
    const result = await runWorld(worlds[0], { ticks: 1, seed: 1 });
    // rate 1: every agent goes at its first step
    expect(result).toMatchObject({ world: 'typed', ticks: 1, metrics: { gone: 4 }, summary: { label: 'a' } });
  });
});
