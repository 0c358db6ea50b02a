// An LLM world (town-square) over real HTTP to the shipped local server: two endpoints in a
// pool, or one of two endpoints dead, give the digest of one endpoint (the reply is
// recorded, not who answered it).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLlmConfig } from '../../src/llm/index.ts';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('pool');
let a: LocalLlmServer;
let b: LocalLlmServer;
let deadUrl = '';

async function run(name: string, ...urls: string[]): Promise<string> {
  const args = [
    'run',
    'town-square',
    '--seed',
    '3',
    '--ticks',
    '3',
    '--json',
    '--out',
    join(dir, `${name}.ndjson`),
  ];
  const r = await cli([...args, ...urls.flatMap((u) => ['--llm-base-url', u])]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).digest;
}

beforeAll(async () => {
  [a, b] = await Promise.all([startLocalLlmServer({ port: 0 }), startLocalLlmServer({ port: 0 })]);
  const dead = await startLocalLlmServer({ port: 0 });
  deadUrl = dead.url;
  await dead.close();
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('--llm-base-url with several endpoints', () => {
  it('takes a comma-separated list, the flag repeated, or OPENAI_BASE_URL', () => {
    const urls = ['http://127.0.0.1:1/v1', 'http://127.0.0.1:2/v1'];
    expect(resolveLlmConfig({ flags: { llmBaseUrl: urls.join(',') } }).baseURLs).toEqual(urls);
    expect(resolveLlmConfig({ flags: { llmBaseUrl: urls } }).baseURLs).toEqual(urls);
    expect(resolveLlmConfig({ env: { OPENAI_BASE_URL: urls.join(',') } }).baseURLs).toEqual(urls);
    expect(resolveLlmConfig({ flags: { llmBaseUrl: urls[0] } }).baseURLs).toBeUndefined();
    expect(() => resolveLlmConfig({ flags: { llmBaseUrl: `${urls[0]},` } })).toThrow(/empty/);
    expect(() => resolveLlmConfig({ flags: { llmBaseUrl: [urls[0], urls[0]] } })).toThrow(/twice/);
    expect(() =>
      resolveLlmConfig({ flags: { llmBaseUrl: `${urls[0]},https://api.example.com/v1` } }),
    ).toThrow(/no API key for https:\/\/api\.example\.com/);
  });

  it('two endpoints share the calls and give the digest of one; a dead one of two still completes', async () => {
    const one = await run('one', a.url);
    const before = [a.stats().completions, b.stats().completions];
    const pooled = await run('pooled', `${a.url},${b.url}`);
    expect(a.stats().completions).toBeGreaterThan(before[0]);
    expect(b.stats().completions).toBeGreaterThan(before[1]);
    const withDead = await run('with-dead', deadUrl, b.url);
    expect(pooled).toBe(one);
    expect(withDead).toBe(one);
  }, 300_000);
});
