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
