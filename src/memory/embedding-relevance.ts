import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { RunError, sha256Hex } from '../core/index.ts';
import { cosineSimilarity } from './cosine-similarity.ts';
import type { MemoryEntry } from './memory-entry.ts';
import type { RelevanceScorer } from './relevance-scorer.ts';

/** Options of {@link EmbeddingRelevance}. */
export interface EmbeddingRelevanceOptions {
  /** Most vectors kept per cache (documents, queries); the oldest go first. Default 10 000. */
  maxCacheEntries?: number;
}

/**
 * Semantic relevance through any LangChain embeddings model (e.g. `OpenAIEmbeddings` from
 * `@langchain/openai`): the cosine similarity of the query's and each text's vectors,
 * negative values clamped to 0. Vectors are cached by SHA-256 of the text (documents and
 * queries apart, as some models embed them differently), and concurrent requests for the
 * same text share one call. Only texts not in the cache are sent, in one batch.
 *
 * Embeddings from a remote endpoint are an input from outside the run: for a replayable run,
 * use a deterministic model or record its vectors.
 */
export class EmbeddingRelevance implements RelevanceScorer {
  private readonly documents = new Map<string, Promise<number[]>>();
  private readonly queries = new Map<string, Promise<number[]>>();
  private readonly entryKeys = new WeakMap<MemoryEntry, string>();
  private readonly maxCacheEntries: number;

  constructor(
    private readonly embeddings: EmbeddingsInterface,
    opts: EmbeddingRelevanceOptions = {},
  ) {
    this.maxCacheEntries = opts.maxCacheEntries ?? 10_000;
  }

  /** Number of cached document and query vectors. */
  get cacheSize(): number {
    return this.documents.size + this.queries.size;
  }

  async score(query: string, texts: readonly string[]): Promise<number[]> {
    if (texts.length === 0) return [];
    const keys = texts.map((text) => sha256Hex(text));
    const [q, docs] = await Promise.all([
      this.queryVector(query),
      Promise.all(this.documentVectors(texts, keys)),
    ]);
    return docs.map((d) => Math.max(0, cosineSimilarity(q, d)));
  }

  /**
   * Scores memory entries as {@link EmbeddingRelevance.score} scores their texts, hashing
   * each entry's text only once (the key is kept with the entry).
   */
  async scoreEntries(query: string, entries: readonly MemoryEntry[]): Promise<number[]> {
    if (entries.length === 0) return [];
    const texts = entries.map((e) => e.text);
    const keys = entries.map((e) => {
      let key = this.entryKeys.get(e);
      if (key === undefined) {
        key = sha256Hex(e.text);
        this.entryKeys.set(e, key);
      }
      return key;
    });
    const [q, docs] = await Promise.all([
      this.queryVector(query),
      Promise.all(this.documentVectors(texts, keys)),
    ]);
    return docs.map((d) => Math.max(0, cosineSimilarity(q, d)));
  }

  private queryVector(query: string): Promise<number[]> {
    const key = sha256Hex(query);
    const hit = this.queries.get(key);
    if (hit) return hit;
    const vector = Promise.resolve().then(() => this.embeddings.embedQuery(query));
    this.cache(this.queries, key, vector);
    return vector;
  }

  private documentVectors(texts: readonly string[], keys: readonly string[]): Promise<number[]>[] {
    const found = new Map<string, Promise<number[]>>();
    const missing = new Map<string, string>();
    keys.forEach((key, i) => {
      const hit = this.documents.get(key);
      if (hit) found.set(key, hit);
      else missing.set(key, texts[i]);
    });
    if (missing.size > 0) {
      const batchTexts = [...missing.values()];
      const batch = Promise.resolve()
        .then(() => this.embeddings.embedDocuments(batchTexts))
        .then((vectors) => checkCount(vectors, batchTexts.length));
      [...missing.keys()].forEach((key, i) => {
        const vector = batch.then((vectors) => vectors[i]);
        found.set(key, vector);
        this.cache(this.documents, key, vector);
      });
    }
    return keys.map((key) => found.get(key)!);
  }

  private cache(map: Map<string, Promise<number[]>>, key: string, vector: Promise<number[]>): void {
    map.set(key, vector);
    while (map.size > this.maxCacheEntries) map.delete(map.keys().next().value!);
    vector.catch(() => {
      if (map.get(key) === vector) map.delete(key);
    });
  }
}

function checkCount(vectors: number[][], expected: number): number[][] {
  if (!Array.isArray(vectors) || vectors.length !== expected)
    throw new RunError(`embeddings model returned ${vectors?.length} vectors for ${expected} texts`, {
      hint: 'check the embeddings model or endpoint',
    });
  return vectors;
}
