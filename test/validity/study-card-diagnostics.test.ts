import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashedEmbedding } from '../../src/llm-server/hashed-embedding.ts';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import {
  alienness,
  distinctN,
  meanPairwiseCosineDistance,
  type Turn,
  transcriptFromLog,
} from '../../src/validity/index.ts';
import { sotopiaScriptResponder } from '../../worlds/sotopia/llm-responder.ts';
import type { SimulationCard } from '../../worlds/sotopia/study/card.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

// A two-episode Sotopia study (agents and script on one scenario) against the local server:
// its simulation card must carry the text diagnostics of those episodes, per mode, and with
// --embedding-model the embedding distance (from a second local server, closed before a
// rerun of the same command rewrites the card offline from <out>/embeddings.json).
const dir = tempDir('study-card');
const out = join(dir, 'study');
let server: LocalLlmServer;
let card: SimulationCard;
let cardBytes: string;
let rerun: { code: number | null; stderr: string; card: string };

beforeAll(async () => {
  server = await startLocalLlmServer({ port: 0, responders: [sotopiaScriptResponder] });
  const args = ['study', 'sotopia', '--modes', 'agents,script', '--scenarios', 'mutual_friend_00001'];
  const more = ['--pairs', '1', '--seed', '5', '--max-turns', '4', '--out', out];
  const llm = ['--llm-base-url', server.url, '--model', 'grapevine-local', '--judge-model', 'same'];
  const embedder = await startLocalLlmServer({ port: 0 });
  const emb = ['--embedding-model', 'local-hash', '--embedding-base-url', embedder.url];
  const r = await cli([...args, ...more, ...llm, ...emb], { timeoutMs: 300_000 });
  await embedder.close();
  expect(r.code, r.stderr).toBe(0);
  cardBytes = readFileSync(join(out, 'card.json'), 'utf8');
  card = JSON.parse(cardBytes) as SimulationCard;
  // the same command again: every episode is done, the embeddings come from the cache
  const again = await cli([...args, ...more, ...llm, ...emb], { timeoutMs: 300_000 });
  rerun = { code: again.code, stderr: again.stderr, card: readFileSync(join(out, 'card.json'), 'utf8') };
}, 420_000);

afterAll(async () => {
  await server?.close();
});

describe('the Sotopia simulation card carries the text diagnostics of its episodes', () => {
  it('per mode, the alienness rates and distinct-n of that mode’s episode logs', async () => {
    const d = card.textDiagnostics!;
    expect(d.modes.map((m) => m.mode)).toEqual(['agents', 'script']);
    for (const mode of ['agents', 'script'] as const) {
      const logs = readdirSync(join(out, 'episodes')).filter((f) => f.endsWith(`-${mode}.ndjson`));
      const transcripts: Turn[][] = [];
      for (const f of logs) transcripts.push(await transcriptFromLog(join(out, 'episodes', f)));
      const a = alienness(transcripts);
      const texts = transcripts.flat().map((t) => t.text);
      const got = d.modes.find((m) => m.mode === mode)!;
      expect(got.episodes).toBe(1);
      expect(got.turns).toBe(a.turns);
      expect(got.turns).toBeGreaterThan(0);
      expect(got.wordsPerTurn).toBeCloseTo(a.wordsPerTurn, 3);
      expect(got.partnerRepetition).toBeCloseTo(a.partnerRepetition, 3);
      expect(got.distinct2).toBeCloseTo(distinctN(texts, 2), 3);
      // the embedding distance of the mode's turns; one episode: nothing to resample, no CI
      const want = meanPairwiseCosineDistance(texts.map((t) => hashedEmbedding(t)));
      expect(got.embeddingDistance?.estimate).toBeCloseTo(want, 3);
      expect(got.embeddingDistance?.lo).toBeNull();
    }
    expect(d.embeddingModel).toBe('local-hash');
    expect(d.rules.embedding).toMatch(/bootstrap resampling episodes/);
    expect(existsSync(join(out, 'embeddings.json'))).toBe(true);
    expect(d.rules.words).toMatch(/words per turn/);
  });

  it('card.md shows them as a table', () => {
    const md = readFileSync(join(out, 'card.md'), 'utf8');
    expect(md).toContain('## Text diagnostics (alienness, diversity)');
    expect(md).toMatch(/\| agents \| 1 \| \d+ \|/);
    expect(md).toContain('| embedding dist. [95% CI] |');
  });

  it('a rerun with the embedding endpoint gone rewrites the same card from the cache', () => {
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.card).toBe(cardBytes);
  });
});
