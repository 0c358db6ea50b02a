import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { RngStreams } from '../../src/core/index.ts';
import {
  ChatOpenAIPort,
  decideStructured,
  LlmCallError,
  type LlmCallRecord,
  type LlmFlags,
  type LlmRequest,
  type LlmSessionOptions,
  openLlm,
  replayLlm,
  resolveLlmConfig,
} from '../../src/llm/index.ts';
import { startLocalLlmServer } from '../../src/llm-server/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const FAKE_KEY = 'sk-GRAPEVINE-FAKE-KEY-1234';
const noSleep = async () => {};
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function server(opts: Parameters<typeof startLocalLlmServer>[0] = {}) {
  const s = await startLocalLlmServer({ port: 0, ...opts });
  cleanups.push(() => s.close());
  return s;
}

const decisionSchema = {
  type: 'object',
  properties: { action: { type: 'string', enum: ['say', 'wait'] }, text: { type: 'string' } },
  required: ['action', 'text'],
};

/** Eight agents' requests, half of them in JSON schema mode. */
function requests(): LlmRequest[] {
  return ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'].map((name, i) => ({
    caller: name,
    tick: 3,
    purpose: 'decide',
    messages: [
      { role: 'system', content: `Name: ${name}\nPersona: villager ${i}\nGoal: find out what happened` },
      {
        role: 'user',
        content: 'Recent messages:\nBob: the mill burned down\nAllowed actions: say, wait\nWhat now?',
      },
    ],
    params: {
      model: 'grapevine-local',
      temperature: 0.7,
      seed: i,
      ...(i % 2 ? { json: { name: 'decision', schema: decisionSchema } } : {}),
    },
  }));
}

/** A session of an endpoint opened by the one factory, as the CLI opens it (flags, key from env). */
async function live(url: string, flags: LlmFlags = {}, session: Partial<LlmSessionOptions> = {}) {
  const config = resolveLlmConfig({
    flags: { llmBaseUrl: url, llmTimeoutMs: 300, llmConcurrency: 4, ...flags },
    env: { OPENAI_API_KEY: FAKE_KEY, GRAPEVINE_MODEL: 'grapevine-local' },
  });
  const llm = await openLlm(config);
  cleanups.push(() => llm.close());
  return llm.session({ streams: new RngStreams('test'), sleep: noSleep, ...session });
}

describe('the LLM stack over HTTP', () => {
  it('survives a 50% fault rate of every kind and returns the fault-free texts', async () => {
    const clean = await server();
    const reference = new ChatOpenAIPort({ baseURL: clean.url, apiKey: FAKE_KEY });
    const expected = await Promise.all(requests().map(async (r) => (await reference.complete(r)).text));

    // One call at a time, so the server draws its faults in a fixed order: with seed 20 the
    // eight calls meet every fault kind (7 faults in all).
    const noisy = await server({ faultRate: 0.5, retryAfterSeconds: 0.05, seed: 20 });
    const records: LlmCallRecord[] = [];
    // A generous client timeout, so that only injected timeouts time out, even on a busy machine.
    const stack = await live(
      noisy.url,
      { llmConcurrency: 1, llmTimeoutMs: 1000, llmAttempts: 20 },
      { onRecord: (r) => records.push(r) },
    );
    const replies = await Promise.all(requests().map((r) => stack.port.complete(r)));
    expect(replies.map((r) => r.text)).toEqual(expected);

    const faults = noisy.stats().faults;
    expect(faults).toEqual({ '429': 1, '500': 2, timeout: 1, malformed: 1, drop: 2 });
    const failed = replies.flatMap((r) => r.attempts.map((a) => a.error));
    expect(failed.sort()).toEqual([
      'connection',
      'connection',
      'http-429',
      'http-500',
      'http-500',
      'malformed',
      'timeout',
    ]);
    expect(stack.counters).toMatchObject({ calls: 8, failures: 0, retries: 7, cacheHits: 0 });
    expect(stack.counters.tokensIn).toBeGreaterThan(0);
    // one record per call; in completion order (a retry queues again behind the others)
    expect(records.map((r) => r.caller).sort()).toEqual(requests().map((r) => r.caller));
  });

  it('returns the fault-free texts with concurrent calls too', async () => {
    const clean = await server();
    const reference = new ChatOpenAIPort({ baseURL: clean.url, apiKey: FAKE_KEY });
    const expected = await Promise.all(requests().map(async (r) => (await reference.complete(r)).text));
    const noisy = await server({ faultRate: 0.5, retryAfterSeconds: 0.05, seed: 1 });
    const stack = await live(noisy.url, { llmConcurrency: 8, llmTimeoutMs: 1000, llmAttempts: 30 });
    const replies = await Promise.all(requests().map((r) => stack.port.complete(r)));
    expect(replies.map((r) => r.text)).toEqual(expected);
    // every injected fault cost one retry; on a busy machine a clean reply can also miss the
    // client's timeout and be retried, so only timeouts may exceed the server's fault count
    const faults = noisy.stats().faults;
    const failed = replies.flatMap((r) => r.attempts.map((a) => a.error));
    const injected = Object.values(faults).reduce((a, b) => a + b, 0);
    expect(injected).toBeGreaterThan(0);
    expect(stack.counters.retries).toBe(failed.length);
    const notTimeout = failed.filter((e) => e !== 'timeout').length;
    expect(notTimeout).toBe(injected - faults.timeout);
    expect(failed.length).toBeGreaterThanOrEqual(injected);
  });

  it('never shows the API key in errors, hints, causes or records', async () => {
    const probe = await startLocalLlmServer({ port: 0 });
    const deadUrl = probe.url;
    await probe.close(); // nothing listens there now
    const only500 = await server({ faultRate: 1, faultKinds: ['500'] });
    const echo = createServer((req, res) => {
      // A hostile endpoint that echoes the Authorization header into its error.
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `bad key: ${req.headers.authorization}` } }));
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => echo.close(r)));
    const echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`;

    for (const url of [deadUrl, only500.url, echoUrl]) {
      const records: LlmCallRecord[] = [];
      const stack = await live(url, { llmAttempts: 3 }, { onRecord: (r) => records.push(r) });
      const err = await stack.port.complete(requests()[1]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LlmCallError);
      const e = err as LlmCallError;
      const shown = [
        e.message,
        e.hint,
        String(e),
        String(e.stack),
        inspect(e, { depth: 5 }),
        JSON.stringify(records),
      ];
      for (const text of shown) expect(text).not.toContain(FAKE_KEY);
      expect(records).toHaveLength(1);
      expect(records[0].reply).toBeNull();
    }
  });

  it('replays a recorded run with no network at all', async () => {
    const s = await server({ faultRate: 0.3, faultKinds: ['500', 'malformed'], seed: 3 });
    const recorded: LlmCallRecord[] = [];
    const stack = await live(s.url, {}, { onRecord: (r) => recorded.push(r) });
    const Decision = z.object({ action: z.enum(['say', 'wait']), text: z.string() });
    const decide = (port: typeof stack.port, r: LlmRequest) =>
      decideStructured(port, r, Decision, { fallback: { action: 'wait', text: '' } });
    const original = await Promise.all(requests().map((r) => decide(stack.port, r)));
    await s.close();

    const fetchSpy = vi.fn(() => Promise.reject(new Error('network used during replay')));
    vi.stubGlobal('fetch', fetchSpy);
    const replayed: LlmCallRecord[] = [];
    const replay = replayLlm(recorded, { onRecord: (r) => replayed.push(r) });
    // Ask in another order: replies are matched per caller, not by arrival.
    const again = await Promise.all(
      requests()
        .reverse()
        .map((r) => decide(replay.port, r)),
    );
    expect(again.reverse().map((r) => r.value)).toEqual(original.map((r) => r.value));
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(replay.replay.unused()).toEqual([]);
    const strip = (rs: LlmCallRecord[]) =>
      rs.map(({ wall: _wall, ...rest }) => rest).sort((a, b) => a.caller.localeCompare(b.caller));
    expect(strip(replayed)).toEqual(strip(recorded));
    expect(replay.counters).toMatchObject({ calls: stack.counters.calls, tokensIn: stack.counters.tokensIn });
  });

  it('says the budget is spent once the counted tokens reach it, and not before', async () => {
    const s = await server();
    const stack = await live(s.url, { budgetTokens: 150 });
    const [a, b] = requests();
    await stack.port.complete(a);
    const afterOne = stack.counters.tokensIn + stack.counters.tokensOut;
    expect(afterOne).toBeGreaterThan(0);
    expect(afterOne).toBeLessThan(150);
    expect(stack.budgetSpent()).toBeNull();
    await stack.port.complete(b);
    await stack.port.complete(a);
    expect(stack.counters.tokensIn + stack.counters.tokensOut).toBeGreaterThanOrEqual(150);
    expect(stack.budgetSpent()).toBe('budget-exhausted');
  });

  it('serves repeated prompts from the on-disk cache', async () => {
    const dir = tempDir('llm-cache');
    const s = await server();
    const first = await live(s.url, { llmCache: dir });
    const texts = await Promise.all(requests().map(async (r) => (await first.port.complete(r)).text));
    await s.close();
    const second = await live(s.url, { llmCache: dir });
    const cached = await Promise.all(requests().map((r) => second.port.complete(r)));
    expect(cached.map((r) => r.text)).toEqual(texts);
    expect(cached.every((r) => r.cached)).toBe(true);
    expect(second.counters).toMatchObject({ calls: 8, cacheHits: 8, tokensIn: 0, costUsd: 0 });
  });
});

describe('openLlm, the one factory', () => {
  it('without a URL and without a local server to start, is a ConfigError asking for an endpoint', async () => {
    const err = await openLlm(resolveLlmConfig({ env: {} })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_CONFIG', exitCode: 2 });
    expect((err as Error).message).toMatch(/^no LLM endpoint/);
    expect((err as { hint: string }).hint).toMatch(/--llm-base-url/);
  });

  it('without a URL starts the local server it is given, and close() stops it', async () => {
    const llm = await openLlm(resolveLlmConfig({ env: {} }), {
      localServer: () => startLocalLlmServer({ port: 0 }),
    });
    expect(llm.endpoint).toMatch(/^grapevine-local at http:\/\/127\.0\.0\.1:\d+\/v1 .*shipped local server/);
    const session = llm.session({ streams: new RngStreams(1) });
    const reply = await session.port.complete(requests()[0]);
    expect(reply.text.length).toBeGreaterThan(0);
    expect(llm.counters.calls).toBe(1);
    await llm.close();
    const url = /at (http\S+)/.exec(llm.endpoint)?.[1] as string;
    await expect(fetch(`${url}/models`)).rejects.toThrow();
  });

  it('a provider:name model goes through LangChain initChatModel (openai provider, real HTTP)', async () => {
    const s = await server();
    const llm = await openLlm(
      resolveLlmConfig({ flags: { llmBaseUrl: s.url, model: 'openai:grapevine-local' }, env: {} }),
    );
    const records: LlmCallRecord[] = [];
    const session = llm.session({ streams: new RngStreams(1), onRecord: (r) => records.push(r) });
    const request = {
      ...requests()[1],
      params: { ...requests()[1].params, model: 'openai:grapevine-local' },
    };
    const viaProvider = await session.port.complete(request);
    const direct = await new ChatOpenAIPort({ baseURL: s.url, apiKey: FAKE_KEY }).complete(requests()[1]);
    expect(viaProvider.text).toBe(direct.text);
    expect(records[0].params.model).toBe('openai:grapevine-local');
    expect(s.stats().completions).toBe(2);
  });

  it('a provider whose package is not installed is a ConfigError naming the package', async () => {
    const config = resolveLlmConfig({ flags: { model: 'ollama:llama3.2' }, env: {} });
    const err = await openLlm(config).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_CONFIG', exitCode: 2 });
    expect((err as Error).message).toMatch(/needs the package @langchain\/ollama/);
    expect((err as { hint: string }).hint).toBe(
      'Install it next to grapevine: npm install @langchain/ollama',
    );
  });
});
