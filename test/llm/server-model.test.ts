// `--llm-base-url` without a model: an endpoint other than OpenAI's is asked for its models
// (GET /models, real HTTP) and the first one is used and named; a server that lists none, a
// dead one, or an oversized list is a one-line "name a model with --model"; the run summary
// says the cost of an unpriced model is unknown instead of pricing it as another model.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, resolveLlmConfig, withServerModel } from '../../src/llm/index.ts';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

let local: LocalLlmServer;
let fake: Server;
let fakeUrl = '';
let deadUrl = '';
let asked = 0;
/** What the fake server answers at GET /v1/models. */
let reply: () => string = () => '{}';

beforeAll(async () => {
  local = await startLocalLlmServer({ port: 0, model: 'local-listed-model' });
  fake = createServer((req, res) => {
    asked++;
    res.writeHead(req.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(reply());
  });
  await new Promise<void>((done) => fake.listen(0, '127.0.0.1', done));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  const dead = await startLocalLlmServer({ port: 0 });
  deadUrl = dead.url;
  await dead.close();
});

afterAll(async () => {
  await local?.close();
  await new Promise((done) => fake?.close(done));
});

const listed = (url: string) => withServerModel(resolveLlmConfig({ flags: { llmBaseUrl: url } }));

describe('the model of an endpoint named without --model', () => {
  it("is the first the server lists (the shipped server's own)", async () => {
    expect((await listed(local.url)).model).toBe('local-listed-model');
    reply = () => JSON.stringify({ object: 'list', data: [{ id: 'llama3:8b' }, { id: 'other' }] });
    expect((await listed(fakeUrl)).model).toBe('llama3:8b');
  });

  it('is never asked for when a model is named, or for OpenAI itself', async () => {
    const before = asked;
    const named = resolveLlmConfig({ flags: { llmBaseUrl: fakeUrl, model: 'mine' } });
    expect((await withServerModel(named)).model).toBe('mine');
    const openai = resolveLlmConfig({
      flags: { llmBaseUrl: 'https://api.openai.com/v1' },
      env: { OPENAI_API_KEY: 'sk-test-key' },
    });
    expect((await withServerModel(openai)).model).toBe(DEFAULT_MODEL);
    expect(asked).toBe(before);
  });

  it('is a one-line "name a model" error when the server lists none, sends junk or too much, or is dead', async () => {
    for (const body of [
      '{"object":"list","data":[]}',
      'not json',
      '{"data":[{"id":"has space"}]}',
      JSON.stringify({ data: [{ id: 'x' }], pad: 'y'.repeat(2 << 20) }),
    ]) {
      reply = () => body;
      await expect(listed(fakeUrl)).rejects.toThrow(
        /^name a model with --model \(the server at http:\/\/127\.0\.0\.1:\d+\/v1 lists none/,
      );
    }
    await expect(listed(deadUrl)).rejects.toThrow(/name a model with --model .*ECONNREFUSED/);
  });

  it('a run names the listed model and says its cost is unknown', async () => {
    const out = join(tempDir('server-model'), 'town.ndjson');
    const r = await cli(['run', 'town-square', '--ticks', '2', '--llm-base-url', local.url, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/cost unknown \(no price for local-listed-model\)/);
    expect(r.stdout).toMatch(
      /via local-listed-model at http:\/\/127\.0\.0\.1:\d+\/v1 .*the model the server lists first/,
    );
    expect(r.stdout).not.toMatch(/\$0\.0000/);
    const budget = await cli([
      'run',
      'town-square',
      '--ticks',
      '2',
      '--llm-base-url',
      local.url,
      '--budget-usd',
      '1',
      '--out',
      `${out}.3`,
    ]);
    expect(budget.code).toBe(2);
    expect(budget.stderr.split('\n')[0]).toMatch(/--budget-usd: the cost of local-listed-model is unknown/);
    const dead = await cli([
      'run',
      'town-square',
      '--ticks',
      '2',
      '--llm-base-url',
      deadUrl,
      '--out',
      `${out}.2`,
    ]);
    expect(dead.code).toBe(2);
    expect(dead.stderr.split('\n')[0]).toMatch(/name a model with --model \(the server at .* lists none/);
  });
});
