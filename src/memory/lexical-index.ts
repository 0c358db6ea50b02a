import type { EntryDerived } from './entry-derived.ts';
import type { MemoryEntry } from './memory-entry.ts';

/**
 * An inverted index of one memory stream's entries for one lexical scorer: term id ->
 * the derived-data slots of the entries that contain the term. A recall then touches only
 * the entries that share a term with the query (plus one pass that marks which entries
 * the stream holds now), instead of walking every term of every memory.
 *
 * The index follows one stream along a straight history: {@link remember} hands it from
 * the old entries array to the new one ({@link carryIndex}) when the old array was its
 * latest. New entries (ids above {@link LexicalIndex.maxId}) are added at the next recall;
 * evicted ones stay in the postings and are skipped (their slots do not carry the
 * recall's stamp); once the postings hold more than twice the live entries the index is
 * built afresh. An older array of the history, or a fork of it, is scored without the
 * index.
 */
export class LexicalIndex {
  /** The newest entries array of the history this index follows. */
  head: readonly MemoryEntry[];
  /** Highest entry id indexed so far (entries of one history have increasing ids). */
  maxId = Number.NEGATIVE_INFINITY;
  /** Entries indexed, live or evicted. */
  count = 0;
  /** Term id -> slots of the entries holding that term (each entry at most once per list). */
  readonly postings = new Map<number, EntryDerived[]>();

  constructor(
    /** The scorer whose term ids the postings use. */
    readonly owner: object,
    head: readonly MemoryEntry[],
  ) {
    this.head = head;
  }
}

const INDEXES = new WeakMap<readonly MemoryEntry[], LexicalIndex>();

/** The index following `entries`, if `entries` is the newest array of its history. */
export function headIndexOf(entries: readonly MemoryEntry[]): LexicalIndex | undefined {
  const ix = INDEXES.get(entries);
  return ix !== undefined && ix.head === entries ? ix : undefined;
}

/** Makes `ix` the index of `entries` (its new head). */
export function setIndex(entries: readonly MemoryEntry[], ix: LexicalIndex): void {
  ix.head = entries;
  INDEXES.set(entries, ix);
}

/** Forgets the index of `entries` (it no longer describes them). */
export function dropIndex(entries: readonly MemoryEntry[]): void {
  INDEXES.delete(entries);
}

/**
 * Hands the index of `from` on to `to`, the entries array that replaces it (same history:
 * `to` holds entries of `from` and new ones with ids from `firstNewId` on), when `from` is
 * the index's newest array. The index adds entries by id (those above its `maxId`), so it
 * is handed on only when every new id is above it; otherwise (a state whose `nextId` went
 * back) `to` gets an index of its own at its first recall.
 */
export function carryIndex(
  from: readonly MemoryEntry[],
  to: readonly MemoryEntry[],
  firstNewId: number,
): void {
  const ix = headIndexOf(from);
  if (ix !== undefined && firstNewId > ix.maxId) setIndex(to, ix);
}

let lastStamp = 0;

/** A stamp no recall has used yet (marks the entries of the stream being scored). */
export function nextRecallStamp(): number {
  return ++lastStamp;
}
