import { defineAgentMachine, type RegionSpec } from '../../src/index.ts';

/** The two competing items. */
export const ITEMS = ['fact', 'rumor'] as const;
/** One of {@link ITEMS}. */
export type Item = (typeof ITEMS)[number];

/** Agent roles, kept in the `role` memory slot. */
export const ROLE = { plain: 0, skeptic: 1, debunker: 2 } as const;

function itemRegion(item: Item): RegionSpec {
  const up = item.toUpperCase();
  const take = { [`HEAR_${up}`]: 'spreader', [`KNOW_${up}`]: 'stifler' };
  return {
    initial: 'ignorant',
    states: {
      ignorant: { on: { [`NOTICE_${up}`]: 'aware', ...take } },
      aware: { on: take },
      spreader: { tags: ['active'], on: { [`STIFLE_${up}`]: 'stifler' } },
      stifler: {},
    },
  };
}

/**
 * Each agent, per item: `ignorant` (never heard of it), `aware` (heard, not convinced:
 * cascade models), `spreader`, `stifler` (knows it, does not pass it on). Memory: how many
 * tellings it heard, who first told it and when (provenance), and its role.
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

/** Layout numbers of one item's region, states, events and slots. */
export interface ItemHandles {
  name: Item;
  region: number;
  ignorant: number;
  aware: number;
  spreader: number;
  stifler: number;
  notice: number;
  hear: number;
  know: number;
  stifle: number;
  heard: number;
  src: number;
  at: number;
}

function handles(name: Item): ItemHandles {
  const L = rumorAgent.layout;
  const up = name.toUpperCase();
  const region = L.region(name);
  return {
    name,
    region,
    ignorant: L.state(region, 'ignorant'),
    aware: L.state(region, 'aware'),
    spreader: L.state(region, 'spreader'),
    stifler: L.state(region, 'stifler'),
    notice: L.event(`NOTICE_${up}`),
    hear: L.event(`HEAR_${up}`),
    know: L.event(`KNOW_${up}`),
    stifle: L.event(`STIFLE_${up}`),
    heard: L.slot(`heard_${name}`),
    src: L.slot(`src_${name}`),
    at: L.slot(`at_${name}`),
  };
}

/** Handles of the fact (index 0) and the rumour (index 1). */
export const H: readonly [ItemHandles, ItemHandles] = [handles('fact'), handles('rumor')];
/** Handle of the `role` slot. */
export const ROLE_SLOT = rumorAgent.layout.slot('role');
