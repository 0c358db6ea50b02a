declare const brand: unique symbol;

/** A nominal type: `T` tagged so that ids of different kinds cannot be mixed up. */
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** Dense index of an agent in its population: 0..N-1. The canonical order of the engine. */
export type AgentIndex = Brand<number, 'AgentIndex'>;
/** Id of a knowledge item (a fact, a rumour, a secret). */
export type ItemId = Brand<string, 'ItemId'>;
/** Id of a channel (a group agents can post to). */
export type ChannelId = Brand<string, 'ChannelId'>;

/** Brands a number as an {@link AgentIndex}, checking that it is a non-negative integer. */
export function agentIndex(n: number): AgentIndex {
  if (!Number.isInteger(n) || n < 0)
    throw new RangeError(`agent index must be a non-negative integer, got ${n}`);
  return n as AgentIndex;
}

/** Brands a string as an {@link ItemId}. */
export function itemId(s: string): ItemId {
  return s as ItemId;
}

/** Brands a string as a {@link ChannelId}. */
export function channelId(s: string): ChannelId {
  return s as ChannelId;
}
