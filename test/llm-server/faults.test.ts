import { afterEach, describe, expect, it } from 'vitest';
import { type FaultKind, type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { conventionBody, jsonOf, postChat, ssePayloads } from './helpers.ts';

let server: LocalLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function withFault(kind: FaultKind, extra: Parameters<typeof startLocalLlmServer>[0] = {}) {
  server = await startLocalLlmServer({ faultRate: 1, faultKinds: [kind], ...extra });
  return server;
}

const jsonBody = (extra: Record<string, unknown> = {}) =>
  conventionBody({ response_format: { type: 'json_object' }, ...extra });

describe('fault injection', () => {
  it('429 carries retry-after and retry-after-ms', async () => {
    const s = await withFault('429', { retryAfterSeconds: 0.05 });
    const res = await postChat(s, conventionBody());
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('0.05');
    expect(res.headers.get('retry-after-ms')).toBe('50');
    expect((await jsonOf(res)).error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
    expect(s.stats().faults['429']).toBe(1);
    expect(s.stats().completions).toBe(0);
  });

  it('500 is an OpenAI-shaped server error', async () => {
    const s = await withFault('500');
    const res = await postChat(s, conventionBody());
    expect(res.status).toBe(500);
    expect((await jsonOf(res)).error.type).toBe('server_error');
  });

  it('drop destroys the socket, so fetch rejects', async () => {
    const s = await withFault('drop');
    await expect(postChat(s, conventionBody())).rejects.toThrow();
    expect(s.stats().faults.drop).toBe(1);
  });

  it('timeout never answers until the client gives up', async () => {
    const s = await withFault('timeout');
    await expect(postChat(s, conventionBody(), { signal: AbortSignal.timeout(200) })).rejects.toThrow(
      /aborted|timeout/i,
    );
    expect(s.stats().faults.timeout).toBe(1);
  });

  it('timeout with faultTimeoutMs drops the request after that long', async () => {
    const s = await withFault('timeout', { faultTimeoutMs: 50 });
    await expect(postChat(s, conventionBody(), { signal: AbortSignal.timeout(5000) })).rejects.toThrow(
      /fetch failed/,
    );
  });

  it('malformed JSON-mode replies are 200 with content that does not parse', async () => {
    const s = await withFault('malformed');
    const res = await postChat(s, jsonBody());
    expect(res.status).toBe(200);
    const content = (await jsonOf(res)).choices[0].message.content;
    expect(content.startsWith('{')).toBe(true);
    expect(() => JSON.parse(content)).toThrow();
    const streamed = ssePayloads(await (await postChat(s, jsonBody({ stream: true }))).text());
    expect(streamed.at(-1)).toBe('[DONE]');
    expect(s.stats().faults.malformed).toBe(2);
  });

  it('malformed plain replies have a broken JSON body or a broken stream event', async () => {
    const s = await withFault('malformed');
    const res = await postChat(s, conventionBody());
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toThrow();
    const events = ssePayloads(await (await postChat(s, conventionBody({ stream: true }))).text());
    expect(() => events.map((e) => JSON.parse(e))).toThrow();
  });

  it('draws the same fault sequence for the same seed', async () => {
    const statuses = async (seed: number) => {
      const s = await startLocalLlmServer({
        seed,
        faultRate: 0.5,
        faultKinds: ['429', '500'],
        retryAfterSeconds: 0,
      });
      const out: number[] = [];
      for (let i = 0; i < 16; i++) out.push((await postChat(s, conventionBody())).status);
      await s.close();
      return out;
    };
    const a = await statuses(7);
    expect(await statuses(7)).toEqual(a);
    expect(new Set(a)).toEqual(new Set([200, 429, 500]));
    expect(await statuses(8)).not.toEqual(a);
  });
});

describe('latency and shutdown', () => {
  it('waits at least latencyMs before answering', async () => {
    server = await startLocalLlmServer({ latencyMs: 80, latencyJitterMs: 20 });
    const started = performance.now();
    expect((await postChat(server, conventionBody())).status).toBe(200);
    // 1 ms of slack: Node timers are scheduled at millisecond granularity.
    expect(performance.now() - started).toBeGreaterThanOrEqual(79);
  });

  it('close() resolves promptly with a request still hanging', async () => {
    const s = await withFault('timeout');
    const pending = postChat(s, conventionBody());
    pending.catch(() => undefined);
    while (s.stats().faults.timeout === 0) await new Promise((r) => setImmediate(r));
    await s.close();
    await expect(pending).rejects.toThrow();
    await s.close();
  });

  it('close() cancels a latency wait in progress', async () => {
    server = await startLocalLlmServer({ latencyMs: 60_000 });
    const pending = postChat(server, conventionBody());
    pending.catch(() => undefined);
    while (server.stats().requests === 0) await new Promise((r) => setImmediate(r));
    await server.close();
    await expect(pending).rejects.toThrow();
  });
});
