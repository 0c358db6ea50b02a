import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import { LlmCallError, RetryingPort } from '../../src/llm/index.ts';
import { request, ScriptedPort } from './scripted-port.ts';

const fail = (kind: LlmCallError['kind'], opts: { status?: number; retryAfterMs?: number } = {}) =>
  new LlmCallError(kind, `LLM call failed (${kind})`, opts);

function setup(script: ConstructorParameters<typeof ScriptedPort>[0], maxAttempts = 6) {
  const inner = new ScriptedPort(script);
  const slept: number[] = [];
  const port = new RetryingPort(inner, {
    rng: new SeededStream('test|retry'),
    maxAttempts,
    sleep: async (ms) => {
      slept.push(ms);
    },
  });
  return { inner, port, slept };
}

describe('RetryingPort', () => {
  it('retries transient failures and records each attempt with its back-off', async () => {
    const { port, slept, inner } = setup([
      fail('http-5xx', { status: 500 }),
      fail('timeout'),
      fail('connection'),
      fail('http-429', { status: 429, retryAfterMs: 1500 }),
      'ok',
    ]);
    const reply = await port.complete(request());
    expect(reply.text).toBe('ok');
    expect(reply.attempts.map((a) => a.error)).toEqual(['http-500', 'timeout', 'connection', 'http-429']);
    expect(reply.attempts.map((a) => a.backoffMs)).toEqual(slept);
    expect(inner.requests).toHaveLength(5);
    expect(port.retryCount).toBe(4);
  });

  it('backs off exponentially with equal jitter, capped, and honours retry-after', async () => {
    const { port, slept } = setup([fail('http-5xx', { status: 503 })], 8);
    await expect(port.complete(request())).rejects.toThrow(LlmCallError);
    expect(slept).toHaveLength(7);
    slept.forEach((ms, i) => {
      const exp = Math.min(20_000, 200 * 2 ** i);
      expect(ms).toBeGreaterThanOrEqual(exp / 2);
      expect(ms).toBeLessThanOrEqual(exp);
    });
    const honour = setup([fail('http-429', { status: 429, retryAfterMs: 30_000 }), 'ok']);
    const reply = await honour.port.complete(request());
    expect(reply.attempts[0].backoffMs).toBe(30_000);
  });

  it('draws the same jitter from the same seed', async () => {
    const a = setup([fail('timeout'), fail('timeout'), 'ok']);
    const b = setup([fail('timeout'), fail('timeout'), 'ok']);
    await a.port.complete(request());
    await b.port.complete(request());
    expect(a.slept).toEqual(b.slept);
  });

  it('gives up after maxAttempts with every attempt on the error', async () => {
    const { port, inner } = setup([fail('http-5xx', { status: 502 })], 3);
    const err = await port.complete(request()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmCallError);
    const e = err as LlmCallError;
    expect(e.code).toBe('E_LLM');
    expect(e.kind).toBe('http-5xx');
    expect(e.attempts.map((a) => a.error)).toEqual(['http-502', 'http-502', 'http-502']);
    expect(e.attempts[2].backoffMs).toBe(0);
    expect(e.message).toContain('gave up after 3 attempts');
    expect(inner.requests).toHaveLength(3);
  });

  it('does not retry 4xx', async () => {
    const { port, inner } = setup([fail('http-4xx', { status: 401 }), 'ok']);
    await expect(port.complete(request())).rejects.toMatchObject({
      kind: 'http-4xx',
      attempts: [{ error: 'http-401' }],
    });
    expect(inner.requests).toHaveLength(1);
  });

  it('retries a JSON-mode reply that cannot be parsed, keeping the tokens it cost', async () => {
    const json = { name: 'decision', schema: {} };
    const { port } = setup(['{"action": "sa', '```json\n{"action": "say",}\n```']);
    const reply = await port.complete(request({ params: { model: 'm', json } }));
    expect(reply.text).toContain('"say"');
    expect(reply.attempts).toEqual([
      { error: 'malformed', backoffMs: expect.any(Number), usage: { input: 10, output: 5 } },
    ]);
  });

  it('does not parse plain-text replies', async () => {
    const { port } = setup(['not json at all']);
    expect((await port.complete(request())).attempts).toEqual([]);
  });

  it('passes through errors that are not LLM call errors', async () => {
    const { port, inner } = setup([new TypeError('bug')]);
    await expect(port.complete(request())).rejects.toThrow(TypeError);
    expect(inner.requests).toHaveLength(1);
  });
});
