import { describe, expect, it } from 'vitest';
import { checkForkParams } from '../../src/cli/commands/fork/fork-params.ts';
import { ConfigError } from '../../src/core/index.ts';
import { defineAgentMachine, defineWorld, z } from '../../src/index.ts';
import type { WorldDefinition } from '../../src/world/index.ts';
import { world as epidemic } from '../../worlds/epidemic/index.ts';
import { world as opinion } from '../../worlds/opinion/index.ts';
import { world as rumor } from '../../worlds/rumor/index.ts';

const sbm = { n: 200, network: 'stochastic-block-model', blocks: 2, pIn: 0.1, pOut: 0.01 };
const parentOf = (def: WorldDefinition) => def.params.parse(sbm) as Record<string, unknown>;
const refusal = (def: WorldDefinition, set: Record<string, unknown>): ConfigError | undefined => {
  try {
    checkForkParams(def, parentOf(def), set, 1);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  return undefined;
};

describe('a fork cannot change the stochastic block model it was built on', () => {
  it('rumor (its declared parameters read at creation) refuses blocks, pIn and pOut', () => {
    const def = rumor;
    for (const [k, v] of [
      ['blocks', 3],
      ['pIn', 0.2],
      ['pOut', 0.02],
    ] as const)
      expect(refusal(def, { [k]: v })?.message).toContain(`a fork cannot change ${k}`);
    expect(refusal(def, { pIn: 0.1 })).toBeUndefined(); // the value it already has
  });

  it('opinion (declared the same way) refuses them, and its hint does not list n or network as changeable', () => {
    const def = opinion;
    const e = refusal(def, { pIn: 0.3 });
    expect(e?.message).toContain('a fork cannot change pIn');
    expect(e?.hint).toMatch(/a fork can change: .*\bepsilon\b/);
    expect(e?.hint).not.toMatch(/can change: .*\b(network|n)\b,/);
    expect(refusal(def, { epsilon: 0.3 })).toBeUndefined();
  });

  it('a world that declares nothing is built both ways to find out', () => {
    const { fixedAtCreation: _declared, ...undeclared } = opinion;
    const def = undeclared as unknown as WorldDefinition;
    const e = refusal(def, { pIn: 0.3 });
    expect(e?.message).toContain('a fork cannot change pIn');
    expect(e?.hint).toContain('a fork keeps what the world was built with');
    expect(refusal(def, { epsilon: 0.3 })).toBeUndefined();
  });
});

describe("a user's world declares what a fork cannot change, as the built-in ones do", () => {
  const agent = defineAgentMachine({ id: 'a', regions: { r: { initial: 's', states: { s: {} } } } });
  const mine = defineWorld({
    id: 'mine',
    version: '1.0.0',
    description: 'a threshold read once, in create',
    params: z.object({
      n: z.number().default(10),
      threshold: z.number().default(0.5),
      rate: z.number().default(0.1),
    }),
    fixedAtCreation: ['n', 'threshold'],
    create: () => ({ size: 10, agents: agent, turnPolicy: 'simultaneous', policy: () => {} }),
  });
  it('refuses a declared one that building the world both ways would not have found', () => {
    const parent = mine.params.parse({}) as Record<string, unknown>;
    expect(() => checkForkParams(mine, parent, { threshold: 0.7 }, 1)).toThrow(
      /a fork cannot change threshold/,
    );
    expect(() => checkForkParams(mine, parent, { rate: 0.3 }, 1)).not.toThrow();
  });
});

describe('a fork cannot change whether agents wake by state', () => {
  it('epidemic and voter (found by building them both ways) refuse activation, and take a rate', () => {
    const epi = epidemic as unknown as WorldDefinition;
    const parent = epi.params.parse({ n: 100 }) as Record<string, unknown>;
    expect(() => checkForkParams(epi, parent, { activation: 'uniform' }, 1)).toThrow(
      /a fork cannot change activation: the world was built with activation="by-state"/,
    );
    expect(() => checkForkParams(epi, parent, { gamma: 0.5, tau: 0.3 }, 1)).not.toThrow();
    const op = opinion as unknown as WorldDefinition;
    const voter = op.params.parse({ n: 50, model: 'voter' }) as Record<string, unknown>;
    expect(() => checkForkParams(op, voter, { activation: 'uniform' }, 1)).toThrow(
      /cannot change activation/,
    );
  });

  it('rumor lists activation among the parameters read at creation', () => {
    const def = rumor as unknown as WorldDefinition;
    expect(refusal(def, { activation: 'uniform' })?.message).toContain('a fork cannot change activation');
  });
});
