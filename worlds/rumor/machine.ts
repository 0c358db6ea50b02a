import { defineAgentMachine, type RegionSpec } from '../../src/index.ts';

/** The two competing items. */
export const ITEMS = ['fact', 'rumor'] as const;
/** One of {@link ITEMS}. */
export type Item = (typeof ITEMS)[number];

/** Agent roles, kept in the `role` memory slot. */
export const ROLE = { plain: 0, skeptic: 1, debunker: 2 } as const;

function itemRegion(item: Item): RegionSpec {
  const up = item.toUpperCase();
  return {
    initial: 'ignorant',
    states: {
      ignorant: { on: { [`HEAR_${up}`]: 'spreader', [`KNOW_${up}`]: 'stifler' } },
      spreader: { tags: ['active'], on: { [`STIFLE_${up}`]: 'stifler' } },
      stifler: {},
    },
  };
}

/**
 * Each agent: per item, ignorant -> spreader -> stifler (or straight to stifler when it
 * hears but will not pass it on). Memory: who first told it each item and when, how many
 * tellings it heard, and its role.
 */
export const rumorAgent = defineAgentMachine({
  id: 'rumor-agent',
  regions: { fact: itemRegion('fact'), rumor: itemRegion('rumor') },
  memory: {
    role: { initial: 0, type: 'u8' },
    heard_fact: { initial: 0, type: 'i32' },
    heard_rumor: { initial: 0, type: 'i32' },
    src_fact: { initial: -1, type: 'i32' },
    src_rumor: { initial: -1, type: 'i32' },
    at_fact: { initial: -1, type: 'i32' },
    at_rumor: { initial: -1, type: 'i32' },
  },
});
