import type { MemoryEntry } from './memory-entry.ts';

/**
 * Scores how relevant each text is to a query, in [0, 1] (1 = most relevant), one score per
 * text in the same order. Implementations must be deterministic for a given input.
 */
export interface RelevanceScorer {
  score(query: string, texts: readonly string[]): Promise<number[]>;
}

/** A {@link RelevanceScorer} that can also answer synchronously (e.g. lexical relevance). */
export interface SyncRelevanceScorer extends RelevanceScorer {
  scoreSync(query: string, texts: readonly string[]): number[];
}

/**
 * A scorer that can also score memory entries directly (the same numbers as scoring their
 * texts), keeping what it derives from each entry (terms, an embedding key) with the entry,
 * so that a recall does not redo it for memories it has seen. {@link recall} and
 * `recallAsync` use it when the scorer has it.
 */
export interface EntryRelevanceScorer {
  scoreEntries(query: string, entries: readonly MemoryEntry[]): number[] | Promise<number[]>;
}
