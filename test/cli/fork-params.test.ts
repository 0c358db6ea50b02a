import { describe, expect, it } from 'vitest';
import { checkForkParams } from '../../src/cli/commands/fork/fork-params.ts';
import { ConfigError } from '../../src/core/index.ts';
import type { WorldDefinition } from '../../src/world/index.ts';
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
  it('rumor (its table of parameters read at creation) refuses blocks, pIn and pOut', () => {
    const def = rumor;
    for (const [k, v] of [
      ['blocks', 3],
      ['pIn', 0.2],
      ['pOut', 0.02],
    ] as const)
      expect(refusal(def, { [k]: v })?.message).toContain(`a fork cannot change ${k}`);
    expect(refusal(def, { pIn: 0.1 })).toBeUndefined(); // the value it already has
  });

  it('opinion (found by building it both ways) refuses them, and its hint does not list n or network as changeable', () => {
    const def = opinion;
    const e = refusal(def, { pIn: 0.3 });
    expect(e?.message).toContain('a fork cannot change pIn');
    expect(e?.hint).toContain('a fork keeps what the world was built with');
    expect(e?.hint).not.toMatch(/can change: .*\bnetwork\b/);
    expect(refusal(def, { epsilon: 0.3 })).toBeUndefined();
  });
});
