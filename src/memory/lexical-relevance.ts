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

/**
 * The term ids of a list of `n` texts, one text after another: text `d`'s are
 * `ids[ends[d - 1]..ends[d])` (from 0 for the first); the arrays may be longer.
 */
interface PackedTerms {
  ids: Int32Array;
  ends: Int32Array;
  /**
   * For a kept list (see {@link LexicalRelevance.packedOf}): per term id, how many of its
   * texts hold it (ids past its length: none), kept up to date as the list is handed on, so
   * a recall reads its query terms' document frequencies instead of counting every term id.
   */
  df?: Int32Array;
}

/** Query parts whose terms one {@link LexicalRelevance} remembers (the oldest go first). */
export const QUERY_PART_MEMO = 50_000;

/** Ranks are integers below this (so that `rank * QUERY_SLOTS + j` stays an exact double). */
const RANK_LIMIT = 2 ** 32;
/** Queries with fewer distinct terms than this sort packed keys; larger ones use a comparator. */
const QUERY_SLOTS = 2 ** 20;

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
 * integers and kept in sorted order. A recall walks each text's term ids twice, without a
 * branch (counts of every term id, then sums of per-term weights that are 0 for non-query
 * terms): two tight passes over integers, no string hashing and no allocation per text.
 * A stream's term ids are packed in one array, kept per frozen entry list and handed on by
 * `remember` to the next stream (see {@link LexicalRelevance.carryTerms}). The sums add the IDFs in the
 * query terms' sorted order, as the definition says, so scores are bit-identical to
 * re-tokenising every text. The dictionary of interned terms only grows (one entry per
 * distinct word ever scored by this instance).
 */
export class LexicalRelevance implements SyncRelevanceScorer {
  private readonly memo = new Map<string, Int32Array>();
  /** Query parts and their term ids (in token order, repeats kept). */
  private readonly parts = new Map<string, Int32Array>();
  /** Sorted distinct term ids of each memory entry scored so far (entries are immutable). */
  private readonly entryTerms = new WeakMap<MemoryEntry, Int32Array>();
  private readonly tokenizeOptions: TokenizeOptions;
  private readonly cacheSize: number;
  /** Interned terms: term -> id. */
  private readonly ids = new Map<string, number>();
  /**
   * Every interned term in sorted order, and per term id an integer rank that follows that
   * order (with gaps, so a new term usually slots in between its neighbours without
   * renumbering). A query's distinct terms are put in sorted order by a numeric sort of
   * their ranks instead of a sort of strings.
   */
  private readonly sorted: string[] = [];
  private rank = new Float64Array(1024);
  /** Per term id: the query that last marked it (gathering a query's distinct terms). */
  private mark = new Int32Array(1024);
  private stamp = 0;
  /**
   * Scratch per term id while scoring: how many texts hold it (read for query terms only),
   * and its weight in the sums (its IDF for a query term, else 0; all 0 between recalls).
   */
  private count = new Int32Array(1024);
  private weight = new Float64Array(1024);
  /** Scratch: the texts' term arrays, their ids packed, and a query's distinct term ids. */
  private readonly docs: Int32Array[] = [];
  private scratch: PackedTerms = { ids: new Int32Array(4096), ends: new Int32Array(256) };
  private query: Int32Array = new Int32Array(256);
  /**
   * Packed term ids of frozen entry lists (a stream's entries: they cannot change), so a
   * recall reads one contiguous array instead of each entry's own; {@link
   * LexicalRelevance.carryTerms} makes the next stream's from the last one's.
   */
  private readonly packed = new WeakMap<readonly MemoryEntry[], PackedTerms>();
  /** IDF by document frequency for {@link LexicalRelevance.idfTable}'s last `n`. */
  private idfs = new Float64Array(1024);
  private idfN = -1;
  /**
   * The last query given in parts and its sorted distinct term ids: in a broadcast world
   * every hearer of a tick recalls with the same inbox, so the next recall with the same
   * part strings (same length, each part the same string) reuses them.
   */
  private lastParts: readonly string[] = [];
  private lastQuery: Int32Array = new Int32Array(0);

  constructor(opts: LexicalRelevanceOptions = {}) {
    this.tokenizeOptions = opts.tokenize ?? {};
    this.cacheSize = opts.cacheSize ?? 0;
  }

  /** Scores synchronously. */
  scoreSync(query: string, texts: readonly string[]): number[] {
    const n = texts.length;
    for (let d = 0; d < n; d++) this.docs[d] = this.termsOf(texts[d]);
    const packed = this.pack(n, false);
    return this.scoreIds(this.intern(this.queryTerms(query)), packed, n);
  }

  /**
   * Scores the texts of memory entries, as {@link LexicalRelevance.scoreSync} scores their
   * texts (same numbers), tokenising each entry only the first time it is seen.
   */
  scoreEntries(query: string, entries: readonly MemoryEntry[]): number[] {
    const packed = this.packedOf(entries);
    return this.scoreIds(this.intern(this.queryTerms(query)), packed, entries.length);
  }

  /**
   * Like {@link LexicalRelevance.scoreEntries} with the query given in parts, scored as
   * `parts.join(' ')` would be (a space never joins two words into one). Each part's term
   * ids are memoised (up to {@link QUERY_PART_MEMO} parts), so the same message heard by
   * many agents is tokenised once, and the query's distinct terms are gathered as integers.
   */
  scoreEntriesByParts(parts: readonly string[], entries: readonly MemoryEntry[]): number[] {
    const packed = this.packedOf(entries);
    const n = entries.length;
    if (sameParts(parts, this.lastParts)) return this.scoreIds(this.lastQuery, packed, n);
    // Interned before any scratch array is read (interning may grow them).
    const partIds = parts.map((part) => this.partIds(part));
    let size = 0;
    for (const ids of partIds) size += ids.length;
    if (size > this.query.length) this.query = new Int32Array(Math.max(size, this.query.length * 2));
    const query = this.query;
    const stamp = this.nextStamp();
    const mark = this.mark;
    let nq = 0;
    for (const ids of partIds)
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        if (mark[id] === stamp) continue;
        mark[id] = stamp;
        query[nq++] = id;
      }
    const sorted = this.sortIds(query.subarray(0, nq));
    this.lastParts = parts.slice();
    this.lastQuery = sorted;
    return this.scoreIds(sorted, packed, n);
  }

  /** Same as {@link LexicalRelevance.scoreSync}, as a promise. */
  score(query: string, texts: readonly string[]): Promise<number[]> {
    return Promise.resolve(this.scoreSync(query, texts));
  }

  private queryTerms(query: string): string[] {
    return [...new Set(tokenize(query, this.tokenizeOptions))].sort();
  }

  /**
   * For `remember`: when `prev` (a stream's frozen entries) has packed terms, hands them on
   * to `next` (the next stream's frozen entries: `prev`'s survivors in their order, then
   * new entries), in place: the survivors' runs move down over the evicted ones' and the new
   * entries' terms are appended. `prev` then has none (a later recall of it packs them
   * again). Never changes a score; it only saves each recall gathering every entry's terms.
   */
  carryTerms(prev: readonly MemoryEntry[], next: readonly MemoryEntry[]): void {
    const from = this.packed.get(prev);
    if (from === undefined || !Object.isFrozen(next)) return;
    this.packed.delete(prev);
    const n = next.length;
    let { ids, ends } = from;
    if (ends.length < n) {
      ends = new Int32Array(Math.max(n, ends.length * 2));
      ends.set(from.ends);
    }
    // Survivors (found in order in prev): each run is read before anything at or after it
    // is written, since the write position never passes the read position.
    let df = from.df;
    if (df !== undefined) {
      // Counts are kept up to date only while few entries change: when most of a stream
      // turns over (every resident hearing hundreds of lines a tick), updating them would
      // cost more than the count a recall then makes over the whole stream.
      let kept = 0;
      for (let i = 0; i < prev.length && kept < n; i++) if (prev[i] === next[kept]) kept++;
      if (2 * (n - kept + prev.length - kept) > kept) df = undefined;
    }
    let d = 0;
    let m = 0;
    let start = 0;
    let i = 0;
    for (; i < prev.length && d < n; i++) {
      const end = ends[i];
      if (prev[i] === next[d]) {
        if (m !== start) ids.copyWithin(m, start, end);
        m += end - start;
        ends[d++] = m;
      } else if (df !== undefined) for (let j = start; j < end; j++) df[ids[j]]--; // evicted
      start = end;
    }
    // Entries past the last survivor are evicted too.
    if (df !== undefined) for (let j = start; i < prev.length && j < ends[prev.length - 1]; j++) df[ids[j]]--;
    // Then the new entries.
    for (; d < n; d++) {
      const terms = this.termsOfEntry(next[d]);
      if (m + terms.length > ids.length) {
        const grown = new Int32Array(Math.max(m + terms.length, ids.length * 2));
        grown.set(ids.subarray(0, m));
        ids = grown;
      }
      ids.set(terms, m);
      m += terms.length;
      ends[d] = m;
      if (df !== undefined) df = countInto(df, terms);
    }
    this.packed.set(next, { ids, ends, df });
  }

  /** The entries' packed term ids: kept for a frozen list, else in the scratch arrays. */
  private packedOf(entries: readonly MemoryEntry[]): PackedTerms {
    const frozen = Object.isFrozen(entries);
    if (frozen) {
      const hit = this.packed.get(entries);
      if (hit !== undefined) return hit;
    }
    const n = entries.length;
    for (let d = 0; d < n; d++) this.docs[d] = this.termsOfEntry(entries[d]);
    const packed = this.pack(n, frozen);
    if (frozen) {
      packed.df = countInto(
        new Int32Array(this.ids.size),
        packed.ids.subarray(0, n === 0 ? 0 : packed.ends[n - 1]),
      );
      this.packed.set(entries, packed);
    }
    return packed;
  }

  /** Packs the first `n` scratch term arrays: into new arrays to keep, or into the scratch ones. */
  private pack(n: number, keep: boolean): PackedTerms {
    const docs = this.docs;
    let size = 0;
    for (let d = 0; d < n; d++) size += docs[d].length;
    let out = this.scratch;
    if (keep) out = { ids: new Int32Array(size), ends: new Int32Array(n) };
    else if (size > out.ids.length || n > out.ends.length)
      out = this.scratch = {
        ids: new Int32Array(Math.max(size, out.ids.length * 2)),
        ends: new Int32Array(Math.max(n, out.ends.length * 2)),
      };
    let m = 0;
    for (let d = 0; d < n; d++) {
      out.ids.set(docs[d], m);
      m += docs[d].length;
      out.ends[d] = m;
    }
    return out;
  }

  private partIds(part: string): Int32Array {
    let ids = this.parts.get(part);
    if (!ids) {
      const terms = tokenize(part, this.tokenizeOptions);
      ids = new Int32Array(terms.length);
      for (let j = 0; j < terms.length; j++) ids[j] = this.internOne(terms[j]);
      this.parts.set(part, ids);
      if (this.parts.size > QUERY_PART_MEMO) this.parts.delete(this.parts.keys().next().value!);
    }
    return ids;
  }

  /** Distinct term ids in their terms' sorted order (a new array): a numeric sort of their ranks. */
  private sortIds(ids: Int32Array): Int32Array {
    const n = ids.length;
    if (n >= QUERY_SLOTS) return Int32Array.from(ids).sort((a, b) => this.rank[a] - this.rank[b]);
    // rank * 2^20 + query index: integers below 2^52, exact as doubles; sorting them sorts by rank.
    const keys = new Float64Array(n);
    for (let j = 0; j < n; j++) keys[j] = this.rank[ids[j]] * QUERY_SLOTS + j;
    keys.sort();
    const out = new Int32Array(n);
    for (let j = 0; j < n; j++) out[j] = ids[keys[j] % QUERY_SLOTS];
    return out;
  }

  /** Places a newly interned term in the sorted list and gives it a rank between its neighbours'. */
  private place(term: string, id: number): void {
    const sorted = this.sorted;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < term) lo = mid + 1;
      else hi = mid;
    }
    sorted.splice(lo, 0, term);
    const below = lo > 0 ? this.rank[this.ids.get(sorted[lo - 1])!] : 0;
    const above = lo + 1 < sorted.length ? this.rank[this.ids.get(sorted[lo + 1])!] : RANK_LIMIT;
    if (above - below >= 2) this.rank[id] = below + Math.floor((above - below) / 2);
    else this.renumber();
  }

  /** Spreads the ranks evenly again, in sorted order. */
  private renumber(): void {
    const gap = Math.floor(RANK_LIMIT / (this.sorted.length + 1));
    if (gap < 2) throw new RangeError('LexicalRelevance: too many distinct terms to rank');
    this.sorted.forEach((term, r) => {
      this.rank[this.ids.get(term)!] = (r + 1) * gap;
    });
  }

  /**
   * Scores `n` packed texts with the query's distinct term ids, in their terms' sorted
   * order. Two branch-free passes over the texts' term ids (hand-written loops: this
   * is a recall's hot path, and the doubles must stay the same): the first counts every
   * term id (only the query's counts, zeroed first, are read: the rest are never looked
   * at), the second adds each id's weight, the IDF for a query term and 0 for any other, so
   * a text's sum adds its query terms' IDFs in its sorted term order, as the definition says
   * (adding +0 leaves a sum unchanged).
   */
  private scoreIds(queryIds: Int32Array, packed: PackedTerms, n: number): number[] {
    const nq = queryIds.length;
    const scores = new Array<number>(n).fill(0);
    if (nq === 0 || n === 0) return scores;
    const { count, weight } = this;
    const { ids, ends, df } = packed;
    const size = ends[n - 1];
    if (df !== undefined)
      for (let q = 0; q < nq; q++) {
        const id = queryIds[q];
        count[id] = id < df.length ? df[id] : 0;
      }
    else {
      for (let q = 0; q < nq; q++) count[queryIds[q]] = 0;
      for (let j = 0; j < size; j++) count[ids[j]]++;
    }
    const idfOf = this.idfTable(n);
    let total = 0;
    for (let q = 0; q < nq; q++) {
      const id = queryIds[q];
      const d = count[id];
      let x = idfOf[d];
      if (x < 0) {
        x = Math.log(1 + (n - d + 0.5) / (d + 0.5));
        idfOf[d] = x;
      }
      weight[id] = x;
      total += x;
    }
    let j = 0;
    for (let d = 0; d < n; d++) {
      const end = ends[d];
      let sum = 0;
      for (; j < end; j++) sum += weight[ids[j]];
      scores[d] = sum / total;
    }
    // Every weight is 0 again between recalls.
    for (let q = 0; q < nq; q++) weight[queryIds[q]] = 0;
    return scores;
  }

  /**
   * The IDFs of `n` texts by document frequency (0..n), filled as met (-1: not yet): the
   * same expression, so the same doubles, and a recall whose query has thousands of
   * distinct terms (a broadcast inbox) computes a logarithm per distinct frequency, not per term.
   */
  private idfTable(n: number): Float64Array {
    if (this.idfN !== n) {
      this.idfN = n;
      if (this.idfs.length < n + 1) this.idfs = new Float64Array(Math.max(n + 1, this.idfs.length * 2));
      this.idfs.fill(-1, 0, n + 1);
    }
    return this.idfs;
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
    for (let j = 0; j < terms.length; j++) out[j] = this.internOne(terms[j]);
    return out;
  }

  private internOne(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(term, id);
      if (id >= this.mark.length) this.grow();
      this.place(term, id);
    }
    return id;
  }

  private grow(): void {
    const mark = new Int32Array(this.mark.length * 2);
    mark.set(this.mark);
    const count = new Int32Array(this.count.length * 2);
    count.set(this.count);
    const weight = new Float64Array(this.weight.length * 2);
    weight.set(this.weight);
    const rank = new Float64Array(this.rank.length * 2);
    rank.set(this.rank);
    this.mark = mark;
    this.count = count;
    this.weight = weight;
    this.rank = rank;
  }
}

/** Adds 1 per id of `ids` to `df` (grown when an id is past its end); returns `df` or its grown copy. */
function countInto(df: Int32Array, ids: Int32Array): Int32Array {
  let max = -1;
  for (let j = 0; j < ids.length; j++) if (ids[j] > max) max = ids[j];
  if (max >= df.length) {
    const grown = new Int32Array(Math.max(max + 1, df.length * 2, 1024));
    grown.set(df);
    df = grown;
  }
  for (let j = 0; j < ids.length; j++) df[ids[j]]++;
  return df;
}

/** True when `a` and `b` hold the same strings in the same order. */
function sameParts(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return false;
  return true;
}
