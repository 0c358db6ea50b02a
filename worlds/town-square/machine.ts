import { defineAgentMachine, type RegionSpec } from '../../src/index.ts';
import { TOWN_ITEMS } from './items.ts';

function itemRegion(id: string): RegionSpec {
  const up = id.toUpperCase();
  return {
    initial: 'ignorant',
    states: {
      ignorant: { on: { [`LEARN_${up}`]: 'knows', [`SPREAD_${up}`]: 'spreader' } },
      knows: {},
      spreader: { tags: ['active'], on: { [`STIFLE_${up}`]: 'stifler' } },
      stifler: {},
    },
  };
}

const memory: Record<string, { initial: number; type: 'i32' | 'u8' }> = {};
for (const item of TOWN_ITEMS) {
  memory[`src_${item.id}`] = { initial: -1, type: 'i32' };
  memory[`at_${item.id}`] = { initial: -1, type: 'i32' };
  memory[`told_${item.id}`] = { initial: 0, type: 'i32' };
}

/**
 * A town-square agent: `kind` is `llm` (acts every turn) or `rule`; per item, `ignorant`,
 * `knows` (an LLM agent that has the item), `spreader` / `stifler` (a rule agent). Numeric
 * memory: provenance of each item (who first told it, when) and tellings; LLM agents also
 * keep a memory stream (JSON) in their context.
 */
export const townAgent = defineAgentMachine({
  id: 'town-agent',
  regions: {
    kind: { initial: 'rule', states: { rule: { on: { BECOME_LLM: 'llm' } }, llm: { tags: ['active'] } } },
    ...Object.fromEntries(TOWN_ITEMS.map((i) => [i.id, itemRegion(i.id)])),
  },
  memory,
});
