import type { MemoryEntry } from './memory-entry.ts';
import type { SyncRelevanceScorer } from './relevance-scorer.ts';
import { type TokenizeOptions, tokenize } from './tokenize.ts';

/** Options of {@link LexicalRelevance}. */
export interface LexicalRelevanceOptions {
  /** How texts are split into terms. */
  tokenize?: TokenizeOptions;
  /**
   * Texts whose term sets are memoised (oldest dropped first). Default 0: no memo. A memo
   * never changes a score, only saves re-tokenising a stream's texts on every recall
   * (about 1 microsecond per text); share one instance between agents to use it.
   * {@link LexicalRelevance.scoreEntries} needs no memo: it keeps each memory's terms with
   * the memory itself.
   */
  cacheSize?: number;
}

/** Query parts whose terms one {@link LexicalRelevance} remembers (the oldest go first). */
export const QUERY_PART_MEMO = 50_000;

/**
 * Lexical relevance: the IDF-weighted share of the query's distinct terms that a text
 * contains, `sum(idf(q) for q in query and text) / sum(idf(q) for q in query)`, with the
 * BM25 IDF `ln(1 + (N - n_q + 0.5) / (n_q + 0.5))` computed over the texts being scored.
 * Rare shared words count more than common ones; the score is bounded in [0, 1] so it
 * mixes with recency and importance without normalisation. Deterministic: terms are
 * summed in sorted order.
 *
 * Cost: each text is tokenised once (memories: once per memory, see
 * {@link LexicalRelevance.scoreEntries}); a recall then walks the texts' distinct terms once
 * to build the postings of the query's terms, and adds each matching term's IDF to the
 * texts that hold it, so a text without a query term costs one pass over its terms.
 */
export class LexicalRelevance implements SyncRelevanceScorer {
  private readonly memo = new Map<string, readonly string[]>();
  private readonly parts = new Map<string, readonly string[]>();
  /** Distinct terms of each memory entry scored so far (entries are immutable). */
  private readonly entryTerms = new WeakMap<MemoryEntry, readonly string[]>();
  private readonly tokenizeOptions: TokenizeOptions;
  private readonly cacheSize: number;

  constructor(opts: LexicalRelevanceOptions = {}) {
    this.tokenizeOptions = opts.tokenize ?? {};
    this.cacheSize = opts.cacheSize ?? 0;
  }

  /** Scores synchronously. */
  scoreSync(query: string, texts: readonly string[]): number[] {
    return this.scoreTerms(query, texts.length, (d) => this.termsOf(texts[d]));
  }

  /**
   * Scores the texts of memory entries, as {@link LexicalRelevance.scoreSync} scores their
   * texts (same numbers), tokenising each entry only the first time it is seen.
   */
  scoreEntries(query: string, entries: readonly MemoryEntry[]): number[] {
    return this.scoreTerms(query, entries.length, (d) => this.termsOfEntry(entries[d]));
  }

  /**
   * Like {@link LexicalRelevance.scoreEntries} with the query given in parts, scored as
   * `parts.join(' ')` would be (a space never joins two words into one). Each part's terms
   * are memoised (up to {@link QUERY_PART_MEMO} parts), so the same message heard by many
   * agents is tokenised once.
   */
  scoreEntriesByParts(parts: readonly string[], entries: readonly MemoryEntry[]): number[] {
    const terms = new Set<string>();
    for (const part of parts) for (const term of this.partTerms(part)) terms.add(term);
    return this.scoreWithTerms([...terms].sort(), entries.length, (d) => this.termsOfEntry(entries[d]));
  }

  /** Same as {@link LexicalRelevance.scoreSync}, as a promise. */
  score(query: string, texts: readonly string[]): Promise<number[]> {
    return Promise.resolve(this.scoreSync(query, texts));
  }

  private scoreTerms(query: string, n: number, docTerms: (d: number) => readonly string[]): number[] {
    return this.scoreWithTerms([...new Set(tokenize(query, this.tokenizeOptions))].sort(), n, docTerms);
  }

  private partTerms(part: string): readonly string[] {
    let terms = this.parts.get(part);
    if (!terms) {
      terms = tokenize(part, this.tokenizeOptions);
      this.parts.set(part, terms);
      if (this.parts.size > QUERY_PART_MEMO) this.parts.delete(this.parts.keys().next().value!);
    }
    return terms;
  }

  /** Scores with the query's distinct terms, sorted. */
  private scoreWithTerms(
    terms: readonly string[],
    n: number,
    docTerms: (d: number) => readonly string[],
  ): number[] {
    const scores = new Array<number>(n).fill(0);
    if (terms.length === 0 || n === 0) return scores;
    const slot = new Map<string, number>();
    terms.forEach((term, q) => {
      slot.set(term, q);
    });
    const postings: number[][] = terms.map(() => []);
    for (let d = 0; d < n; d++) {
      for (const term of docTerms(d)) {
        const q = slot.get(term);
        if (q !== undefined) postings[q].push(d);
      }
    }
    // n_q = postings[q].length; the sums run over the query terms in sorted order, as before.
    const idf = postings.map((p) => Math.log(1 + (n - p.length + 0.5) / (p.length + 0.5)));
    let total = 0;
    for (const w of idf) total += w;
    const sums = new Array<number>(n).fill(0);
    postings.forEach((docs, q) => {
      for (const d of docs) sums[d] += idf[q];
    });
    for (let d = 0; d < n; d++) scores[d] = sums[d] / total;
    return scores;
  }

  private termsOfEntry(entry: MemoryEntry): readonly string[] {
    let terms = this.entryTerms.get(entry);
    if (!terms) {
      terms = this.termsOf(entry.text);
      this.entryTerms.set(entry, terms);
    }
    return terms;
  }

  private termsOf(text: string): readonly string[] {
    const hit = this.memo.get(text);
    if (hit) return hit;
    const terms = [...new Set(tokenize(text, this.tokenizeOptions))];
    if (this.cacheSize > 0) {
      this.memo.set(text, terms);
      if (this.memo.size > this.cacheSize) this.memo.delete(this.memo.keys().next().value!);
    }
    return terms;
  }
}
