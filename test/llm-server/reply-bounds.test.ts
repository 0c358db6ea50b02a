// `grapevine serve-llm` as its own process against requests whose schema asks for a huge
// reply: a 250-byte request with `"minItems": 100000000` once blocked the server for minutes
// and killed it (heap out of memory). Every schema-filled reply is now bounded by max_tokens
// and a hard cap, and the server answers the next request at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPLY_CHARS } from '../../src/llm-server/fill-context.ts';
import { type ServeLlmChild, startServeLlm } from '../support/serve-llm-child.ts';

let server: ServeLlmChild;

beforeAll(async () => {
  server = await startServeLlm();
});

afterAll(async () => {
  await server?.close();
});

interface Reply {
  choices: {
    finish_reason: string;
    message: { content: string | null; tool_calls?: { function: { arguments: string } }[] };
  }[];
  usage: { completion_tokens: number };
}

async function chat(body: Record<string, unknown>): Promise<{ ms: number; bytes: number; reply: Reply }> {
  const started = Date.now();
  const res = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...body }),
  });
  const text = await res.text();
  expect(res.status, text.slice(0, 200)).toBe(200);
  return { ms: Date.now() - started, bytes: text.length, reply: JSON.parse(text) as Reply };
}

const schemaFormat = (schema: unknown) => ({
  response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
});

describe('serve-llm bounds every schema-filled reply', { timeout: 120_000 }, () => {
  it('the minItems bomb (a 250-byte request) is answered within seconds, within the hard cap', async () => {
    const bomb = schemaFormat({ type: 'array', minItems: 100_000_000, items: { type: 'string' } });
    expect(JSON.stringify(bomb).length).toBeLessThan(250);
    const r = await chat(bomb);
    expect(r.ms).toBeLessThan(5_000);
    expect(r.bytes).toBeLessThan(2 * MAX_REPLY_CHARS);
    expect(r.reply.choices[0].finish_reason).toBe('length');
    const after = await chat({});
    expect(after.reply.choices[0].message.content).toBeTruthy();
  });

  it('a huge minLength is cut to the budget', async () => {
    const r = await chat(
      schemaFormat({ type: 'object', properties: { text: { type: 'string', minLength: 1e9 } } }),
    );
    expect(r.bytes).toBeLessThan(2 * MAX_REPLY_CHARS);
    expect(r.reply.choices[0].finish_reason).toBe('length');
  });

  it('max_tokens bounds a schema reply and a forced tool call', async () => {
    const schema = {
      type: 'array',
      minItems: 5000,
      items: { type: 'object', properties: { reason: { type: 'string' } } },
    };
    const r = await chat({ ...schemaFormat(schema), max_tokens: 20 });
    expect(r.reply.usage.completion_tokens).toBeLessThanOrEqual(20);
    expect(r.reply.choices[0].finish_reason).toBe('length');
    const tool = await chat({
      max_tokens: 20,
      tools: [{ type: 'function', function: { name: 'act', parameters: schema } }],
      tool_choice: { type: 'function', function: { name: 'act' } },
    });
    const args = tool.reply.choices[0].message.tool_calls?.[0].function.arguments ?? '';
    expect(args.length).toBeGreaterThan(0);
    expect(args.length).toBeLessThan(20 * 16);
    expect(tool.reply.choices[0].finish_reason).toBe('length');
  });

  it('a small schema is filled whole, as before', async () => {
    const r = await chat({
      ...schemaFormat({ type: 'array', minItems: 3, items: { type: 'integer' } }),
      max_tokens: 100,
    });
    expect(JSON.parse(r.reply.choices[0].message.content ?? '')).toHaveLength(3);
    expect(r.reply.choices[0].finish_reason).toBe('stop');
  });
});
