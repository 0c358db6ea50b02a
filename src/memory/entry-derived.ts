import type { MemoryEntry } from './memory-entry.ts';

/** Key of the hidden slot where {@link remember}ed entries keep what scorers derive from them. */
const DERIVED = Symbol('grapevine.memory.derived');

/**
 * What is derived from a (frozen, hence unchanging) memory entry, filled lazily: the
 * interned term ids of the first lexical scorer that scores it (`termsOwner`) and the token
 * cost of its default prompt line. Both depend only on the entry's text, kind, tick and
 * source (not its id or importance), so entries equal in those may share one slot: the
 * hearers of one line (see {@link remember}'s `slotFor`).
 */
export interface EntryDerived {
  termsOwner: object | undefined;
  terms: Int32Array | undefined;
  cost: number | undefined;
}

/**
 * Gives a new entry its (empty) derived-data slot. The slot is a non-enumerable symbol
 * property: JSON, canonical JSON, structuredClone, snapshots and deep equality never see
 * it, and a copy of the entry (a restored snapshot) simply has none, so scorers fall back
 * to their own maps. A property read is much cheaper than a WeakMap lookup, which a
 * recall over hundreds of memories would otherwise do per memory.
 */
export function attachDerived(entry: MemoryEntry, slot: EntryDerived = newDerived()): void {
  Object.defineProperty(entry, DERIVED, { value: slot });
}

/** An empty derived-data slot. */
export function newDerived(): EntryDerived {
  return { termsOwner: undefined, terms: undefined, cost: undefined };
}

/** The derived-data slot of an entry made by `remember`, or undefined for any other object. */
export function derivedOf(entry: MemoryEntry | object): EntryDerived | undefined {
  return (entry as { [DERIVED]?: EntryDerived })[DERIVED];
}

/** Streams made by `remember`: frozen, ids ascending and below `nextId`, every entry made by `remember`. */
const STREAMS = new WeakSet<object>();

/** Records that `stream` (frozen, with its entries array frozen) holds a well-formed stream. */
export function markStream(stream: object): void {
  STREAMS.add(stream);
}

/**
 * True for a stream returned by `remember`: exactly the keys `entries` and `nextId`, a
 * finite `nextId`, entries made by `remember` with ids ascending below `nextId`, all
 * frozen (the stream, its array, its entries), so they cannot have changed since.
 */
export function isMarkedStream(v: unknown): boolean {
  return typeof v === 'object' && v !== null && STREAMS.has(v);
}

/**
 * True when `entry` was made by `remember` (frozen, holding only numbers and strings):
 * nothing in it can ever change.
 */
export function isMadeEntry(entry: object): boolean {
  if (derivedOf(entry) === undefined || !Object.isFrozen(entry)) return false;
  const source = (entry as { source?: unknown }).source;
  return source === undefined || typeof source === 'string';
}
