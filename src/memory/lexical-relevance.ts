import { derivedOf } from './entry-derived.ts';
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
 * {@link LexicalRelevance.scoreEntries}) into its distinct terms, interned as small
 * integers and kept in sorted order. A recall marks the query's terms in a typed array and
 * walks each text's term ids twice (document frequencies, then sums): two tight passes over
 * integers, no string hashing and no allocation per text. The sums add the IDFs in the
 * query terms' sorted order, as the definition says, so scores are bit-identical to
 * re-tokenising every text. The dictionary of interned terms only grows (one entry per
 * distinct word ever scored by this instance).
 */
export class LexicalRelevance implements SyncRelevanceScorer {
  private readonly memo = new Map<string, Int32Array>();
  private readonly parts = new Map<string, readonly string[]>();
  /** Sorted distinct term ids of each memory entry scored so far (entries are immutable). */
  private readonly entryTerms = new WeakMap<MemoryEntry, Int32Array>();
  private readonly tokenizeOptions: TokenizeOptions;
  private readonly cacheSize: number;
  /** Interned terms: term -> id. */
  private readonly ids = new Map<string, number>();
  /** Per term id: the recall that last marked it as a query term, and its query index. */
  private mark = new Int32Array(1024);
  private slot = new Int32Array(1024);
  private stamp = 0;
  /** Scratch: the query indices each text matches, text after text. */
  private hits: Int32Array = new Int32Array(4096);

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

  private scoreTerms(query: string, n: number, docTerms: (d: number) => Int32Array): number[] {
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
  private scoreWithTerms(terms: readonly string[], n: number, docTerms: (d: number) => Int32Array): number[] {
    const scores = new Array<number>(n).fill(0);
    if (terms.length === 0 || n === 0) return scores;
    const stamp = this.nextStamp();
    // Interned first (a text not yet seen interns its terms as it is walked below).
    const queryIds = this.intern(terms);
    const { mark, slot } = this;
    queryIds.forEach((id, q) => {
      mark[id] = stamp;
      slot[id] = q;
    });
    // One pass: document frequencies, and each text's matching query indices (ascending,
    // since a text's ids are in its terms' sorted order) kept in a flat buffer.
    const df = new Int32Array(terms.length);
    const ends = new Int32Array(n);
    let hits = this.hits;
    let m = 0;
    for (let d = 0; d < n; d++) {
      const ids = docTerms(d);
      if (m + ids.length > hits.length) hits = this.growHits(m + ids.length);
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        if (mark[id] !== stamp) continue;
        const q = slot[id];
        df[q]++;
        hits[m++] = q;
      }
      ends[d] = m;
    }
    const idf = new Float64Array(terms.length);
    let total = 0;
    for (let q = 0; q < terms.length; q++) {
      idf[q] = Math.log(1 + (n - df[q] + 0.5) / (df[q] + 0.5));
      total += idf[q];
    }
    let j = 0;
    for (let d = 0; d < n; d++) {
      let sum = 0;
      for (; j < ends[d]; j++) sum += idf[hits[j]];
      scores[d] = sum / total;
    }
    return scores;
  }

  private growHits(need: number): Int32Array {
    const hits = new Int32Array(Math.max(need, this.hits.length * 2));
    hits.set(this.hits);
    this.hits = hits;
    return hits;
  }

  private nextStamp(): number {
    if (this.stamp >= 0x3fffffff) {
      this.mark.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  private termsOfEntry(entry: MemoryEntry): Int32Array {
    // Entries made by remember() carry a slot for the first scorer that sees them (in
    // practice the shared default one); other entries and scorers use the WeakMap.
    const slot = derivedOf(entry);
    if (slot !== undefined && slot.termsOwner === this) return slot.terms!;
    let terms = this.entryTerms.get(entry);
    if (!terms) {
      terms = this.termsOf(entry.text);
      if (slot !== undefined && slot.termsOwner === undefined) {
        slot.termsOwner = this;
        slot.terms = terms;
      } else this.entryTerms.set(entry, terms);
    }
    return terms;
  }

  private termsOf(text: string): Int32Array {
    const hit = this.memo.get(text);
    if (hit) return hit;
    const terms = this.intern([...new Set(tokenize(text, this.tokenizeOptions))].sort());
    if (this.cacheSize > 0) {
      this.memo.set(text, terms);
      if (this.memo.size > this.cacheSize) this.memo.delete(this.memo.keys().next().value!);
    }
    return terms;
  }

  /** Ids of sorted distinct terms, interning new ones. */
  private intern(terms: readonly string[]): Int32Array {
    const out = new Int32Array(terms.length);
    terms.forEach((term, j) => {
      let id = this.ids.get(term);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(term, id);
        if (id >= this.mark.length) this.grow();
      }
      out[j] = id;
    });
    return out;
  }

  private grow(): void {
    const mark = new Int32Array(this.mark.length * 2);
    mark.set(this.mark);
    const slot = new Int32Array(this.slot.length * 2);
    slot.set(this.slot);
    this.mark = mark;
    this.slot = slot;
  }
}
