import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferedFetch } from '../../src/llm/buffered-fetch.ts';
import { ChatOpenAIPort, type LlmCallError, type LlmRequest } from '../../src/llm/index.ts';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';

const request = (seed: number, schema = false): LlmRequest => ({
  caller: 'alice',
  tick: 1,
  purpose: 'decide',
  messages: [
    { role: 'system', content: 'Name: Alice\nPersona: a baker' },
    { role: 'user', content: 'Bob: the mill burned down\nAllowed actions: say, wait\nWhat now?' },
  ],
  params: {
    model: 'grapevine-local',
    temperature: 0,
    seed,
    ...(schema
      ? {
          json: {
            name: 'act',
            schema: {
              type: 'object',
              properties: { action: { type: 'string', enum: ['say', 'wait'] } },
              required: ['action'],
            },
          },
        }
      : {}),
  },
});

/** The port on the shipped `fetch` and on the default (buffered) one, same endpoint. */
const ports = (baseURL: string, timeoutMs?: number) => ({
  global: new ChatOpenAIPort({ baseURL, apiKey: 'sk-test', timeoutMs, fetch: globalThis.fetch }),
  buffered: new ChatOpenAIPort({ baseURL, apiKey: 'sk-test', timeoutMs }),
});

const failureOf = (p: Promise<unknown>): Promise<LlmCallError> =>
  p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: LlmCallError) => err,
  );

/** A plain HTTP server answering every request with `handler`. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

let local: LocalLlmServer;
beforeAll(async () => {
  local = await startLocalLlmServer({ port: 0 });
});
afterAll(async () => {
  await local.close();
});

describe('ChatOpenAIPort on the buffered fetch gives what it gives on the global fetch', () => {
  it('the same replies, plain and with a JSON schema', async () => {
    const { global, buffered } = ports(local.url);
    for (const [seed, schema] of [
      [1, false],
      [2, true],
      [3, true],
    ] as const) {
      const a = await global.complete(request(seed, schema));
      const b = await buffered.complete(request(seed, schema));
      expect(b).toEqual(a);
      expect(b.text.length).toBeGreaterThan(0);
    }
  });

  it.each(['429', '500', 'malformed', 'drop'] as const)('the same error for a %s fault', async (kind) => {
    const faulty = await startLocalLlmServer({ port: 0, faultRate: 1, faultKinds: [kind] });
    try {
      const { global, buffered } = ports(faulty.url);
      const a = await failureOf(global.complete(request(1)));
      const b = await failureOf(buffered.complete(request(1)));
      expect(b.kind).toBe(a.kind);
      expect(b.message).toBe(a.message);
      expect(b.status).toBe(a.status);
      expect(b.retryAfterMs).toBe(a.retryAfterMs);
    } finally {
      await faulty.close();
    }
  });

  it('the same timeout error when the server holds the request', async () => {
    const faulty = await startLocalLlmServer({
      port: 0,
      faultRate: 1,
      faultKinds: ['timeout'],
      faultTimeoutMs: 5_000,
    });
    try {
      const { global, buffered } = ports(faulty.url, 200);
      const a = await failureOf(global.complete(request(1)));
      const b = await failureOf(buffered.complete(request(1)));
      expect(a.kind).toBe('timeout');
      expect(b.message).toBe(a.message);
    } finally {
      await faulty.close();
    }
  });

  it('the same error for a refused connection', async () => {
    const { url, server } = await serve((_req, res) => res.end());
    await close(server); // the port is now closed
    const { global, buffered } = ports(url);
    const a = await failureOf(global.complete(request(1)));
    const b = await failureOf(buffered.complete(request(1)));
    expect(a.kind).toBe('connection');
    expect(b.message).toBe(a.message);
    expect(b.message).toMatch(/ECONNREFUSED/);
  });

  it('the same error for a body that breaks off after the headers', async () => {
    const { url, server } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"id":"x","choices":[');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    try {
      const { global, buffered } = ports(url);
      const a = await failureOf(global.complete(request(1)));
      const b = await failureOf(buffered.complete(request(1)));
      expect(a.kind).toBe('connection');
      expect(b.message).toBe(a.message);
      expect(b.message).toMatch(/terminated/);
    } finally {
      await close(server);
    }
  });
});

describe('bufferedFetch', () => {
  it('decodes the body as Response.text() does: a leading BOM dropped, bad bytes replaced', async () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"a":"é'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    const { url, server } = await serve((_req, res) => {
      res.writeHead(201, {
        'content-type': 'application/json',
        'x-request-id': 'r1',
        'set-cookie': ['a=1', 'b=2'],
      });
      res.end(body);
    });
    try {
      const f = bufferedFetch(undici);
      const a = await globalThis.fetch(url, { method: 'POST', body: '{}' });
      const b = await f(url, { method: 'POST', body: '{}' });
      expect(await b.text()).toBe(await a.text());
      expect([b.ok, b.status, b.headers.get('x-request-id')]).toEqual([
        a.ok,
        a.status,
        a.headers.get('x-request-id'),
      ]);
      expect(b.headers.get('set-cookie')).toBe('a=1, b=2');
    } finally {
      await close(server);
    }
  });

  it('sends the method, headers and body it is given', async () => {
    let seen: { method?: string; auth?: string; body: string } = { body: '' };
    const { url, server } = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen = { method: req.method, auth: req.headers.authorization, body };
        res.end('{"ok":true}');
      });
    });
    try {
      const res = await bufferedFetch(undici)(url, {
        method: 'POST',
        headers: new Headers({ authorization: 'Bearer k', 'content-type': 'application/json' }),
        body: '{"q":1}',
      });
      expect(await res.json()).toEqual({ ok: true });
      expect(seen).toEqual({ method: 'POST', auth: 'Bearer k', body: '{"q":1}' });
    } finally {
      await close(server);
    }
  });

  it('rejects with the abort reason when its signal aborts', async () => {
    const { url, server } = await serve(() => {}); // never answers
    try {
      const controller = new AbortController();
      const pending = bufferedFetch(undici)(url, { method: 'POST', body: '{}', signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      const err = await pending.catch((e: unknown) => e);
      expect(err).toBe(controller.signal.reason);
      expect((err as Error).name).toBe('AbortError');
    } finally {
      server.closeAllConnections();
      await close(server);
    }
  });
});
