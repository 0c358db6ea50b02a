import { ConfigError, RunError } from '../core/index.ts';
import {
  attachDerived,
  type EntryDerived,
  isMadeEntry,
  isMarkedStream,
  markStream,
  newDerived,
} from './entry-derived.ts';
import { clampImportance, estimateImportance, type ImportanceFn } from './importance.ts';
import { LexicalRelevance } from './lexical-relevance.ts';
import {
  MEMORY_KINDS,
  type MemoryEntry,
  type MemoryKind,
  type MemoryStreamState,
  type NewMemory,
} from './memory-entry.ts';
import { evictLowest } from './memory-eviction.ts';
import type { EntryRelevanceScorer, RelevanceScorer, SyncRelevanceScorer } from './relevance-scorer.ts';
import { checkDecay, DEFAULT_DECAY, type RetrievalWeights, topMemories } from './retrieval.ts';

/** Default cap on the number of entries of a stream. */
export const DEFAULT_MAX_ENTRIES = 500;
/** Default number of memories {@link recall} returns. */
export const DEFAULT_RECALL_K = 10;

/** Options of {@link remember}. */
export interface RememberOptions {
  /** Cap on the number of entries; past it the least worth keeping go. Default 500. */
  maxEntries?: number;
  /** Decay per tick used to weigh age when evicting. Default {@link DEFAULT_DECAY}. */
  decay?: number;
  /** Rates memories given without an importance. Default {@link estimateImportance}. */
  importance?: ImportanceFn;
}

/** Options of {@link recall}. */
export interface RecallOptions {
  /** The current tick. Default: the latest `t` in the stream. */
  now?: number;
  /** Most memories to return (an integer >= 0, or Infinity). Default 10. */
  k?: number;
  /** Component weights. Default all 1. */
  weights?: Partial<RetrievalWeights>;
  /** Recency decay per tick. Default {@link DEFAULT_DECAY}. */
  decay?: number;
  /** Only these kinds are candidates. Default all. */
  kinds?: readonly MemoryKind[];
  /** Relevance scorer. Default a {@link LexicalRelevance}. */
  relevance?: SyncRelevanceScorer;
}

/** Options of {@link recallAsync}. */
export interface RecallAsyncOptions extends Omit<RecallOptions, 'relevance'> {
  /** Relevance scorer, e.g. an `EmbeddingRelevance`. Default a {@link LexicalRelevance}. */
  relevance?: RelevanceScorer;
}

/**
 * The default scorer, shared by every stream: its text memo lets agents that heard the same
 * line share one tokenisation (scores never depend on the memo).
 */
const LEXICAL = new LexicalRelevance({ cacheSize: 50_000 });

/** A new, empty memory stream. */
export function emptyMemory(): MemoryStreamState {
  return { nextId: 0, entries: [] };
}

/**
 * Returns a new state with `memories` appended (ids from `state.nextId` on). Memories
 * without an importance are rated by `opts.importance`; every importance is rounded and
 * clamped to 1..10. When the stream grows past `maxEntries`, the entries with the lowest
 * `importance * decay ^ age` (age from the latest tick; ties: oldest first) are dropped.
 * `state` is not modified; the new state is frozen (the stream, its array and its entries).
 */
export function remember(
  state: MemoryStreamState,
  memories: NewMemory | readonly NewMemory[],
  opts: RememberOptions = {},
): MemoryStreamState {
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!(Number.isInteger(maxEntries) && maxEntries >= 1))
    throw new ConfigError(`memory maxEntries must be an integer >= 1, got ${maxEntries}`);
  const decay = checkDecay(opts.decay ?? DEFAULT_DECAY);
  const rate = opts.importance ?? estimateImportance;
  const list: readonly NewMemory[] = Array.isArray(memories) ? memories : [memories as NewMemory];
  let nextId = state.nextId;
  const added = list.map((m) => toEntry(m, nextId++, rate));
  let entries = [...state.entries, ...added];
  if (entries.length > maxEntries)
    entries = evictLowest(entries, entries.length - maxEntries, latestOf(entries), decay);
  // Frozen, so that a digest can trust its shape without walking it again (see markStream).
  const out: MemoryStreamState = Object.freeze({ nextId, entries: Object.freeze(entries) as MemoryEntry[] });
  if (isMarkedStream(state) || wellFormed(state)) markStream(out);
  // A stream already recalled hands its packed term ids on to the next.
  LEXICAL.carryTerms(state.entries, out.entries);
  return out;
}

/**
 * Whether a stream not made by remember (e.g. the empty one) holds only entries made by
 * remember (frozen, so they cannot change), with ids ascending below a finite nextId.
 */
function wellFormed(state: MemoryStreamState): boolean {
  const keys = Object.keys(state).filter((k) => (state as Record<string, unknown>)[k] !== undefined);
  if (keys.length !== 2 || !Array.isArray(state.entries) || !Number.isFinite(state.nextId)) return false;
  let last = Number.NEGATIVE_INFINITY;
  for (const e of state.entries as unknown[]) {
    if (e === null || typeof e !== 'object' || !isMadeEntry(e)) return false;
    const id = (e as { id?: unknown }).id;
    if (typeof id !== 'number' || !Number.isFinite(id) || id <= last) return false;
    last = id;
  }
  return last < state.nextId;
}

function toEntry(m: NewMemory, id: number, rate: ImportanceFn): MemoryEntry {
  if (!Number.isFinite(m.t)) throw new RunError(`memory tick must be a finite number, got ${m.t}`);
  if (!MEMORY_KINDS.includes(m.kind))
    throw new RunError(`unknown memory kind "${m.kind}"`, { hint: `kinds: ${MEMORY_KINDS.join(', ')}` });
  if (typeof m.text !== 'string') throw new RunError(`memory text must be a string, got ${typeof m.text}`);
  const { t, kind, text, source } = m;
  const shared = sharedFor(t, kind, text, source);
  // The default rating depends only on kind and text: one per heard line, not per hearer.
  const byDefault = m.importance === undefined && rate === estimateImportance;
  let importance = byDefault ? shared.importance : undefined;
  if (importance === undefined) {
    importance = clampImportance(
      m.importance ?? rate(source === undefined ? { kind, text } : { kind, text, source }),
    );
    if (byDefault) shared.importance = importance;
  }
  // One literal per shape (keys in the same order as before: id, t, kind, text, importance, source).
  const entry: MemoryEntry =
    source === undefined ? { id, t, kind, text, importance } : { id, t, kind, text, importance, source };
  attachDerived(entry, shared.slot);
  // Frozen: scorers keep derived data (terms) per entry, and digests cache its canonical JSON.
  return Object.freeze(entry);
}

/** What the entries of one heard line share: its derived-data slot and its default importance. */
interface Shared {
  t: number;
  kind: MemoryKind;
  source: string | undefined;
  slot: EntryDerived;
  /** {@link estimateImportance} of the line, once an entry has been rated by it. */
  importance: number | undefined;
}

/** The last derived-data slot made per text, with the fields it depends on. */
const slots = new Map<string, Shared>();
const SLOT_MEMO_SIZE = 4096;

/**
 * The derived-data slot for a new entry: shared with the last entry made with the same text,
 * kind, tick and source (what terms and prompt-line cost depend on), so every hearer of a
 * line shares one tokenisation and one cost estimate instead of redoing them per entry.
 */
function sharedFor(t: number, kind: MemoryKind, text: string, source: string | undefined): Shared {
  const hit = slots.get(text);
  if (hit !== undefined && hit.t === t && hit.kind === kind && hit.source === source) return hit;
  const shared: Shared = { t, kind, source, slot: newDerived(), importance: undefined };
  if (slots.size >= SLOT_MEMO_SIZE) slots.clear();
  slots.set(text, shared);
  return shared;
}

/** The latest tick in the stream (0 when empty). */
export function latestTick(state: MemoryStreamState): number {
  return latestOf(state.entries);
}

function latestOf(entries: readonly MemoryEntry[]): number {
  let latest = entries.length === 0 ? 0 : entries[0].t;
  for (const e of entries) if (e.t > latest) latest = e.t;
  return latest;
}

/**
 * The `k` memories that best match `query`, best first: recency, importance and lexical
 * relevance combined as in {@link scoreMemories}; ties go to the newer entry. Synchronous,
 * so a rule policy can call it inside its step. A query given as parts (e.g. the messages
 * of an inbox) is the same as `parts.join(' ')`, and lets the default scorer tokenise each
 * part once for all agents that share it.
 */
export function recall(
  state: MemoryStreamState,
  query: string | readonly string[],
  opts: RecallOptions = {},
): MemoryEntry[] {
  const candidates = candidatesOf(state, opts);
  const scorer = opts.relevance ?? LEXICAL;
  const text = typeof query === 'string' ? query : query.join(' ');
  let relevances: number[] = [];
  if (candidates.length > 0 && scorer instanceof LexicalRelevance)
    relevances =
      typeof query === 'string'
        ? scorer.scoreEntries(query, candidates)
        : scorer.scoreEntriesByParts(query, candidates);
  else if (candidates.length > 0) relevances = scorer.scoreSync(text, candidates.map(textOf));
  return rank(state, candidates, relevances, opts);
}

/**
 * Like {@link recall}, with an asynchronous relevance scorer (e.g. embeddings). The
 * result depends only on the state, the query and the scores, never on timing.
 */
export async function recallAsync(
  state: MemoryStreamState,
  query: string,
  opts: RecallAsyncOptions = {},
): Promise<MemoryEntry[]> {
  const candidates = candidatesOf(state, opts);
  const scorer = opts.relevance ?? LEXICAL;
  const byEntry = (scorer as Partial<EntryRelevanceScorer>).scoreEntries;
  const relevances =
    candidates.length === 0
      ? []
      : byEntry
        ? await byEntry.call(scorer, query, candidates)
        : await scorer.score(query, candidates.map(textOf));
  return rank(state, candidates, relevances, opts);
}

function candidatesOf(state: MemoryStreamState, opts: RecallAsyncOptions): readonly MemoryEntry[] {
  const k = opts.k ?? DEFAULT_RECALL_K;
  if (!(k === Number.POSITIVE_INFINITY || (Number.isInteger(k) && k >= 0)))
    throw new ConfigError(`recall k must be an integer >= 0 or Infinity, got ${k}`);
  const kinds = opts.kinds;
  return kinds ? state.entries.filter((e) => kinds.includes(e.kind)) : state.entries;
}

function textOf(entry: MemoryEntry): string {
  return entry.text;
}

function rank(
  state: MemoryStreamState,
  candidates: readonly MemoryEntry[],
  relevances: readonly number[],
  opts: RecallAsyncOptions,
): MemoryEntry[] {
  const now = opts.now ?? latestTick(state);
  return topMemories(candidates, relevances, opts.k ?? DEFAULT_RECALL_K, {
    now,
    decay: opts.decay,
    weights: opts.weights,
  });
}
