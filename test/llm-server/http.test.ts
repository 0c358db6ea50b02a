import { afterEach, describe, expect, it } from 'vitest';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { assembleStream, conventionBody, jsonOf, postChat, ssePayloads, validatorFor } from './helpers.ts';

let server: LocalLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(opts: Parameters<typeof startLocalLlmServer>[0] = {}): Promise<LocalLlmServer> {
  server = await startLocalLlmServer(opts);
  return server;
}

describe('local LLM server over HTTP', () => {
  it('answers a chat completion in the OpenAI shape, with usage', async () => {
    const s = await start();
    expect(s.url).toBe(`http://127.0.0.1:${s.port}/v1`);
    const res = await postChat(s, conventionBody({ seed: 4 }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = await jsonOf(res);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'grapevine-local',
      choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'stop' }],
    });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(typeof body.choices[0].message.content).toBe('string');
    const { prompt_tokens, completion_tokens, total_tokens } = body.usage;
    expect(prompt_tokens).toBeGreaterThan(50);
    expect(completion_tokens).toBeGreaterThan(0);
    expect(total_tokens).toBe(prompt_tokens + completion_tokens);
    expect(s.stats()).toMatchObject({
      requests: 1,
      completions: 1,
      tokensIn: prompt_tokens,
      tokensOut: completion_tokens,
    });
  });

  it('gives identical bytes for the same body and different content for different messages', async () => {
    const s = await start();
    const a = await (await postChat(s, conventionBody({ seed: 9 }))).text();
    const b = await (await postChat(s, conventionBody({ seed: 9 }))).text();
    expect(a).toBe(b);
    const other = conventionBody({ seed: 9 });
    (other.messages as { content: string }[])[1].content += '\nThe bell rings.';
    const c = await jsonOf(postChat(s, other));
    expect(c.choices[0].message.content).not.toBe(JSON.parse(a).choices[0].message.content);
  });

  it('streams chunks that assemble to the non-streamed content, then usage and [DONE]', async () => {
    const s = await start();
    const plain = await jsonOf(postChat(s, conventionBody({ seed: 5 })));
    const res = await postChat(
      s,
      conventionBody({ seed: 5, stream: true, stream_options: { include_usage: true } }),
    );
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(assembleStream(text)).toBe(plain.choices[0].message.content);
    const payloads = ssePayloads(text);
    expect(payloads.at(-1)).toBe('[DONE]');
    const chunks = payloads.slice(0, -1).map((p) => JSON.parse(p));
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: plain.usage });
  });

  it('streams without a usage chunk unless asked', async () => {
    const s = await start();
    const chunks = ssePayloads(await (await postChat(s, conventionBody({ stream: true }))).text())
      .slice(0, -1)
      .map((p) => JSON.parse(p));
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
  });

  it('answers json_schema requests with JSON valid against the schema', async () => {
    const s = await start();
    const schema = {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['speak', 'dm', 'none'] },
        to: { anyOf: [{ type: 'string', enum: ['Bob', 'Carl'] }, { type: 'null' }] },
        message: { type: 'string' },
        mood: {
          type: 'object',
          properties: { level: { type: 'integer', minimum: 1, maximum: 5 } },
          required: ['level'],
        },
      },
      required: ['action', 'to', 'message', 'mood'],
      additionalProperties: false,
    };
    const validate = validatorFor(schema);
    for (const seed of [1, 2, 3, 4]) {
      const body = conventionBody({
        seed,
        response_format: { type: 'json_schema', json_schema: { name: 'act', schema, strict: true } },
      });
      const json = await jsonOf(postChat(s, body));
      expect(validate.safeParse(JSON.parse(json.choices[0].message.content)).success).toBe(true);
    }
  });

  it('rejects bad bodies with 400 in the OpenAI error shape', async () => {
    const s = await start();
    const bad = await postChat(s, '{"model": ');
    expect(bad.status).toBe(400);
    expect((await jsonOf(bad)).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
    const invalid = await postChat(s, { model: 'm', messages: [{ content: 'no role' }] });
    expect(invalid.status).toBe(400);
    const { error } = await jsonOf(invalid);
    expect(error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_request_body',
      param: 'messages.0.role',
    });
    expect(typeof error.message).toBe('string');
  });

  it('serves /v1/models and /health, and 404/405 for the rest', async () => {
    const s = await start({ model: 'tiny' });
    const models = await jsonOf(fetch(`${s.url}/models`));
    expect(models).toMatchObject({ object: 'list', data: [{ id: 'tiny', object: 'model' }] });
    expect((await fetch(`${s.url}/models/tiny`)).status).toBe(200);
    expect((await fetch(`${s.url}/models/huge`)).status).toBe(404);
    expect(await jsonOf(fetch(`http://127.0.0.1:${s.port}/health`))).toEqual({
      status: 'ok',
      model: 'tiny',
    });
    const missing = await fetch(`${s.url}/audio/speech`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    expect((await jsonOf(missing)).error.code).toBe('unknown_url');
    const wrongMethod = await fetch(`${s.url}/chat/completions`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });
});
