import type { Topology } from '../../src/index.ts';
import type { FallbackCounter, LlmPort } from '../../src/public/llm.ts';
import type { Resident } from './cast.ts';
import { TOWN_ITEMS, type TownItem } from './items.ts';
import { townAgent } from './machine.ts';
import type { TownParams } from './params.ts';

/** Layout numbers of one item. */
export interface ItemHandles {
  item: TownItem;
  region: number;
  ignorant: number;
  knows: number;
  spreader: number;
  stifler: number;
  learn: number;
  spread: number;
  stifle: number;
  src: number;
  at: number;
  told: number;
}

const L = townAgent.layout;

/** Handles of the three items, in {@link TOWN_ITEMS} order. */
export const ITEM_HANDLES: readonly ItemHandles[] = TOWN_ITEMS.map((item) => {
  const region = L.region(item.id);
  const up = item.id.toUpperCase();
  return {
    item,
    region,
    ignorant: L.state(region, 'ignorant'),
    knows: L.state(region, 'knows'),
    spreader: L.state(region, 'spreader'),
    stifler: L.state(region, 'stifler'),
    learn: L.event(`LEARN_${up}`),
    spread: L.event(`SPREAD_${up}`),
    stifle: L.event(`STIFLE_${up}`),
    src: L.slot(`src_${item.id}`),
    at: L.slot(`at_${item.id}`),
    told: L.slot(`told_${item.id}`),
  };
});

/** Everything the town's policies share for one run (read-only during the run). */
export interface Town {
  params: TownParams;
  cast: readonly Resident[];
  topology: Topology;
  llm?: LlmPort;
  model: string;
  seed: number;
  fallbacks: FallbackCounter;
  /**
   * What each `say` message heard this run means to its hearers (see `observe.ts`), worked
   * out once per message instead of once per hearer: in the square every resident hears
   * every line. Keyed by the message object, which the bus shares between its recipients.
   */
  said: WeakMap<object, Said>;
}

/** A heard `say` message, as its hearers take it in (the same for every hearer). */
export interface Said {
  from: number;
  speaker: string;
  where: 'square' | 'dm';
  text: string;
  /** `Speaker: text` (or `Speaker (to you): text`): the line a hearer remembers. */
  line: string;
  /** Per item handle (ITEM_HANDLES order): the words a hearer keeps, or undefined when the text does not carry the item. */
  words: (string | undefined)[];
}

/** Names of an agent's neighbours (its direct-message contacts), ascending by index. */
export function contactsOf(
  town: Town,
  i: number,
  now?: Pick<Topology, 'forEachNeighbour'>,
): { names: string[]; index: Map<string, number> } {
  const names: string[] = [];
  const index = new Map<string, number>();
  const net = town.params.networkView === 'current' && now ? now : town.topology;
  net.forEachNeighbour(i, (j) => {
    names.push(town.cast[j].name);
    index.set(town.cast[j].name, j);
  });
  return { names, index };
}
