import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatOpenAIPort, LlmCallError, type LlmRequest } from '../../src/llm/index.ts';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';

const messages: LlmRequest['messages'] = [
  { role: 'system', content: 'Name: Alice\nPersona: a baker\nGoal: spread the news' },
  {
    role: 'user',
    content: 'Recent messages:\nBob: the mill burned down\nAllowed actions: say, wait\nWhat now?',
  },
];
const req = (params: Partial<LlmRequest['params']> = {}): LlmRequest => ({
  caller: 'alice',
  tick: 1,
  purpose: 'decide',
  messages,
  params: { model: 'grapevine-local', temperature: 0, seed: 3, ...params },
});
const decisionSchema = {
  type: 'object',
  properties: { action: { type: 'string', enum: ['say', 'wait'] }, text: { type: 'string' } },
  required: ['action', 'text'],
  additionalProperties: false,
};

let server: LocalLlmServer;
beforeAll(async () => {
  server = await startLocalLlmServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

/** A server that always fails with the given fault. */
async function faulty(kind: '429' | '500' | 'timeout' | 'malformed' | 'drop', extra = {}) {
  return startLocalLlmServer({ port: 0, faultRate: 1, faultKinds: [kind], ...extra });
}

async function failure(port: ChatOpenAIPort, request = req()): Promise<LlmCallError> {
  const err = await port.complete(request).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(LlmCallError);
  return err as LlmCallError;
}

describe('ChatOpenAIPort against the local server', () => {
  it('returns the text, the usage and the model, deterministically', async () => {
    const port = new ChatOpenAIPort({ baseURL: server.url, apiKey: 'sk-no-key' });
    const a = await port.complete(req());
    const b = await port.complete(req());
    expect(a.text.length).toBeGreaterThan(0);
    expect(a.usage.input).toBeGreaterThan(0);
    expect(a.usage.output).toBeGreaterThan(0);
    expect(a).toEqual({ ...b, attempts: [] });
    expect(a.model).toBe('grapevine-local');
  });

  it('sends model, seed and temperature per request', async () => {
    const port = new ChatOpenAIPort({ baseURL: server.url, apiKey: 'sk-no-key' });
    const other = await port.complete(req({ model: 'other-model' }));
    expect(other.model).toBe('other-model');
    const seeds = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6])
      seeds.add((await port.complete(req({ seed, temperature: 1 }))).text);
    expect(seeds.size).toBeGreaterThan(1);
  });

  it('returns the raw text of JSON schema and JSON object replies', async () => {
    const port = new ChatOpenAIPort({ baseURL: server.url, apiKey: 'sk-no-key' });
    const structured = await port.complete(req({ json: { name: 'decision', schema: decisionSchema } }));
    const value = JSON.parse(structured.text);
    expect(['say', 'wait']).toContain(value.action);
    expect(typeof value.text).toBe('string');
    const object = await port.complete(req({ json: { name: 'decision', schema: {} } }));
    expect(JSON.parse(object.text)).toHaveProperty('action');
  });

  it('maps each fault to its kind', async () => {
    const cases = [
      {
        kind: '429',
        extra: { retryAfterSeconds: 1.5 },
        expected: { kind: 'http-429', status: 429, retryAfterMs: 1500 },
      },
      { kind: '500', extra: {}, expected: { kind: 'http-5xx', status: 500, retryable: true } },
      { kind: 'drop', extra: {}, expected: { kind: 'connection', retryable: true } },
      { kind: 'timeout', extra: {}, expected: { kind: 'timeout', retryable: true } },
      { kind: 'malformed', extra: {}, expected: { kind: 'malformed', retryable: true } },
    ] as const;
    for (const c of cases) {
      const s = await faulty(c.kind, c.extra);
      try {
        const port = new ChatOpenAIPort({ baseURL: s.url, apiKey: 'sk-no-key', timeoutMs: 300 });
        expect(await failure(port)).toMatchObject({ code: 'E_LLM', exitCode: 1, ...c.expected });
      } finally {
        await s.close();
      }
    }
  });

  it('returns a truncated JSON reply as text (the retry layer judges it)', async () => {
    const s = await faulty('malformed');
    try {
      const port = new ChatOpenAIPort({ baseURL: s.url, apiKey: 'sk-no-key' });
      const reply = await port.complete(req({ json: { name: 'decision', schema: decisionSchema } }));
      expect(() => JSON.parse(reply.text)).toThrow();
    } finally {
      await s.close();
    }
  });

  it('does not retry a 4xx and says so', async () => {
    const port = new ChatOpenAIPort({ baseURL: server.url, apiKey: 'sk-no-key' });
    const err = await failure(port, { ...req(), messages: [] });
    expect(err).toMatchObject({ kind: 'http-4xx', status: 400, retryable: false });
    expect(err.hint).toMatch(/model name/);
  });

  it('refuses to start without a key', () => {
    const make = () => new ChatOpenAIPort({ baseURL: 'https://api.openai.com/v1', apiKey: undefined });
    expect(make).toThrow(
      expect.objectContaining({ code: 'E_CONFIG', hint: expect.stringContaining('OPENAI_API_KEY') }),
    );
  });
});
