import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashedEmbedding } from '../../src/llm-server/hashed-embedding.ts';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import {
  embedTexts,
  meanPairwiseCosineDistance,
  meanPairwiseCosineDistanceCi,
  transcriptFromLog,
} from '../../src/validity/index.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const TOWN = 'replays/golden/town-square-v0.1.ndjson.gz';
const dir = tempDir('embeddings');
let server: LocalLlmServer;

beforeAll(async () => {
  server = await startLocalLlmServer({ port: 0 });
});
afterAll(async () => {
  await server?.close();
});

describe('the local server /v1/embeddings', () => {
  it('answers floats in the OpenAI shape: a unit hashed bag of words per input', async () => {
    const res = await fetch(`${server.url}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        input: ['the cat sat', 'sat the cat', ''],
        encoding_format: 'float',
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; data: { index: number; embedding: number[] }[] };
    expect(body.object).toBe('list');
    const [a, b, empty] = body.data.map((d) => d.embedding);
    expect(a).toHaveLength(256);
    expect(Math.hypot(...a)).toBeCloseTo(1, 12);
    expect(b).toEqual(a); // word order does not matter
    expect(empty[0]).toBe(1);
  });

  it('rejects token-array input with a 400 in the OpenAI error shape', async () => {
    const res = await fetch(`${server.url}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', input: [[1, 2, 3]] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_request_body');
  });
});

describe('embedTexts through OpenAIEmbeddings, cached beside the log', () => {
  it('embeds each distinct text once, over real HTTP, and serves them again offline', async () => {
    const store = join(dir, 'run.ndjson.embeddings.json');
    const texts = ['apples and pears', 'apples and pears', 'rain over the harbour tonight'];
    const config = { model: 'local-hash', baseURL: server.url };
    const vectors = await embedTexts(texts, config, store);
    // OpenAIEmbeddings asks for base64 float32: equal to the server's vectors at float32 precision.
    for (const [i, t] of texts.entries())
      for (const [k, x] of hashedEmbedding(t).entries()) expect(vectors[i][k]).toBeCloseTo(x, 6);
    expect(meanPairwiseCosineDistance(vectors.slice(0, 2))).toBeCloseTo(0, 6);
    expect(meanPairwiseCosineDistance([vectors[0], vectors[2]])).toBeCloseTo(1, 6); // no shared word
    const saved = JSON.parse(readFileSync(store, 'utf8')) as { models: Record<string, object> };
    expect(Object.keys(saved.models['local-hash'])).toHaveLength(2);
    // Offline: an endpoint that does not answer is never asked, the vectors are the stored ones.
    const offline = await embedTexts(texts, { model: 'local-hash', baseURL: 'http://127.0.0.1:9/v1' }, store);
    expect(offline).toEqual(vectors);
  });

  it('grapevine report --embedding-model adds the mean pairwise cosine distance to the text diagnostics', async () => {
    const log = join(dir, 'town.ndjson.gz');
    copyFileSync(TOWN, log);
    const args = [
      'report',
      log,
      '--json',
      '--embedding-model',
      'local-hash',
      '--embedding-base-url',
      server.url,
    ];
    const r = await cli(args, { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const figures = (JSON.parse(r.stdout) as { figures: { id: string; table?: { rows: unknown[][] } }[] })
      .figures;
    const rows = figures.find((f) => f.id === 'text-diagnostics')?.table?.rows ?? [];
    const got = rows.find((row) => row[0] === 'mean pairwise cosine distance')?.[1] as number;
    const turns = await transcriptFromLog(log);
    const want = meanPairwiseCosineDistance(turns.map((t) => hashedEmbedding(t.text)));
    expect(got).toBeCloseTo(want, 3);
    // its bootstrap CI resamples speakers, as meanPairwiseCosineDistanceCi does in-process
    const lo = rows.find((row) => row[0] === 'mean pairwise cosine distance, 95% CI low')?.[1] as number;
    const hi = rows.find((row) => row[0] === 'mean pairwise cosine distance, 95% CI high')?.[1] as number;
    const ci = meanPairwiseCosineDistanceCi(
      turns.map((t) => hashedEmbedding(t.text)),
      { clusters: turns.map((t) => t.speaker), seed: 'report' },
    );
    expect(lo).toBeCloseTo(ci.lo, 3);
    expect(hi).toBeCloseTo(ci.hi, 3);
    expect(lo).toBeLessThan(got);
    expect(hi).toBeGreaterThan(got);
    expect(existsSync(`${log}.embeddings.json`)).toBe(true);
  });
});
