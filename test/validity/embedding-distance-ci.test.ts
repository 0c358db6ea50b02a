import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import {
  embedTexts,
  meanPairwiseCosineDistance,
  meanPairwiseCosineDistanceCi,
} from '../../src/validity/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('embedding-ci');
let server: LocalLlmServer;

beforeAll(async () => {
  server = await startLocalLlmServer({ port: 0 });
});
afterAll(async () => {
  await server?.close();
});

const embed = (texts: string[], name: string) =>
  embedTexts(texts, { model: 'local-hash', baseURL: server.url }, join(dir, `${name}.embeddings.json`));
const dot = (u: number[], v: number[]) => u.reduce((s, x, k) => s + x * v[k], 0);

describe('meanPairwiseCosineDistanceCi', () => {
  it('a tiny case by hand, embedded by the local server: clusters {red, red} and {blue}', async () => {
    const v = await embed(['red', 'red', 'blue'], 'tiny');
    // one word each: unit vectors on one axis; red and blue land on different axes
    expect(dot(v[0], v[2])).toBeCloseTo(0, 6);
    // pairs (red, red) 0, (red, blue) 1 twice: 2/3
    const ci = meanPairwiseCosineDistanceCi(v, { clusters: ['A', 'A', 'B'], replicates: 400, seed: 3 });
    expect(ci.estimate).toBeCloseTo(2 / 3, 6);
    expect(ci.estimate).toBeCloseTo(meanPairwiseCosineDistance(v), 12);
    // resamples: {A, A} (p 1/4): only red–red pairs, 0; {A, B} (p 1/2): 2/3; {B, B} (p 1/4):
    // no pair of distinct texts, counted as the estimate 2/3. 2.5% and 97.5% quantiles: 0, 2/3.
    expect(ci.lo).toBeCloseTo(0, 6);
    expect(ci.hi).toBeCloseTo(2 / 3, 6);
    expect([ci.texts, ci.clusters, ci.replicates]).toEqual([3, 2, 400]);
    // seeded: the same inputs give the same interval; one cluster has no interval
    expect(meanPairwiseCosineDistanceCi(v, { clusters: ['A', 'A', 'B'], replicates: 400, seed: 3 })).toEqual(
      ci,
    );
    const one = meanPairwiseCosineDistanceCi(v, { clusters: ['A', 'A', 'A'] });
    expect(one.estimate).toBeCloseTo(2 / 3, 6);
    expect(Number.isNaN(one.lo) && Number.isNaN(one.hi)).toBe(true);
    expect(() => meanPairwiseCosineDistanceCi(v, { clusters: ['A'] })).toThrow(/cluster labels/);
  });

  it('a planted difference: agents drawing from a wide vocabulary are more diverse, and the CIs separate', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`);
    // deterministic word choice: agent a's turn t uses words spread over the vocabulary
    const wide: string[] = [];
    const narrow: string[] = [];
    const agents: string[] = [];
    for (let a = 0; a < 20; a++)
      for (let t = 0; t < 3; t++) {
        const k = (a * 37 + t * 101) % 400;
        wide.push([0, 1, 2, 3, 4].map((j) => words[(k + j * 53) % 400]).join(' '));
        // four of five words shared by everyone, one word of the agent's own
        narrow.push(`we agree on the plan ${words[(a * 7 + t) % 400]}`);
        agents.push(`agent${a}`);
      }
    const opts = { clusters: agents, replicates: 500, seed: 11 };
    const w = meanPairwiseCosineDistanceCi(await embed(wide, 'wide'), opts);
    const n = meanPairwiseCosineDistanceCi(await embed(narrow, 'narrow'), opts);
    expect(w.lo).toBeGreaterThan(n.hi);
    for (const ci of [w, n]) {
      expect(ci.lo).toBeLessThanOrEqual(ci.estimate);
      expect(ci.hi).toBeGreaterThanOrEqual(ci.estimate);
      expect(ci.clusters).toBe(20);
    }
    // texts sharing four of five words: cosine about 4/5 (5 words, unit length), distance about 0.2
    expect(n.estimate).toBeGreaterThan(0.1);
    expect(n.estimate).toBeLessThan(0.3);
    expect(w.estimate).toBeGreaterThan(0.7);
  });
});
