import { FakeEmbeddings } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { RunError } from '../../src/core/index.ts';
import {
  cosineSimilarity,
  EmbeddingRelevance,
  emptyMemory,
  recall,
  recallAsync,
  remember,
} from '../../src/memory/index.ts';
import { ConceptEmbeddings } from './fixtures.ts';
import { relevanceScorerCase } from './relevance-scorer.case.ts';

relevanceScorerCase('EmbeddingRelevance', () => new EmbeddingRelevance(new ConceptEmbeddings()));

const memories = remember(
  emptyMemory(),
  [
    'Bob stashed his coins in the bank vault',
    'a storm with heavy rain hit the harbour',
    'the soup at dinner was cold',
    'Dana has a fever and saw the doctor',
  ].map((text, t) => ({ t, kind: 'observation' as const, text, importance: 3 })),
);

describe('EmbeddingRelevance', () => {
  it('ranks the semantically closest memory first where lexical relevance sees nothing', async () => {
    const scorer = new EmbeddingRelevance(new ConceptEmbeddings());
    const opts = { now: 3, k: 4, weights: { relevance: 5 } };
    const byMeaning = await recallAsync(memories, 'who is rich? where is the gold?', {
      ...opts,
      relevance: scorer,
    });
    expect(byMeaning[0].text).toBe('Bob stashed his coins in the bank vault');
    const sick = await recallAsync(memories, 'anyone sick or coughing', { ...opts, relevance: scorer });
    expect(sick[0].text).toBe('Dana has a fever and saw the doctor');
    // No shared word: lexically, recency decides.
    expect(recall(memories, 'who is rich? where is the gold?', opts)[0].id).toBe(3);
  });

  it('embeds each text once, batching only the misses', async () => {
    const model = new ConceptEmbeddings();
    const scorer = new EmbeddingRelevance(model);
    await scorer.score('gold', ['a', 'b', 'a']);
    await scorer.score('gold', ['b', 'c']);
    await Promise.all([scorer.score('rain', ['d']), scorer.score('rain', ['d'])]);
    expect(model.documentCalls).toEqual([['a', 'b'], ['c'], ['d']]);
    expect(model.queryCalls).toEqual(['gold', 'rain']);
    expect(scorer.cacheSize).toBe(6);
  });

  it('does not cache a failed call, and bounds its cache', async () => {
    const model = new ConceptEmbeddings();
    const scorer = new EmbeddingRelevance(model, { maxCacheEntries: 2 });
    model.failNext = true;
    await expect(scorer.score('q', ['x'])).rejects.toThrow('embeddings endpoint down');
    expect(await scorer.score('q', ['x'])).toHaveLength(1);
    expect(model.documentCalls).toEqual([['x'], ['x']]);
    await scorer.score('q', ['y', 'z', 'w']);
    expect(scorer.cacheSize).toBeLessThanOrEqual(3);
  });

  it('fails loudly on a model that returns the wrong number of vectors', async () => {
    const broken = { embedQuery: async () => [1], embedDocuments: async () => [[1]] };
    await expect(new EmbeddingRelevance(broken).score('q', ['a', 'b'])).rejects.toThrow(RunError);
  });

  it("works with LangChain's FakeEmbeddings: equal vectors, so recency and id decide", async () => {
    const scorer = new EmbeddingRelevance(new FakeEmbeddings());
    expect(await scorer.score('q', ['a', 'b'])).toEqual([1, 1].map((x) => expect.closeTo(x, 12)));
    const ranked = await recallAsync(memories, 'anything', { relevance: scorer, decay: 1 });
    expect(ranked.map((e) => e.id)).toEqual([3, 2, 1, 0]);
  });
});

describe('cosineSimilarity', () => {
  it('is 1 for parallel, 0 for orthogonal or zero vectors, and rejects mixed dimensions', () => {
    expect(cosineSimilarity([1, 2], [2, 4])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [0, 3])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(cosineSimilarity([1, 0], [-1, 0])).toBe(-1);
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(RunError);
  });
});
