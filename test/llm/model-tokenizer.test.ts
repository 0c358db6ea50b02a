import { describe, expect, it } from 'vitest';
import { estimateTokens, modelEncoding, modelTokenCounter } from '../../src/llm/index.ts';
import { request } from './scripted-port.ts';

describe('modelEncoding', () => {
  it("maps OpenAI chat models to their encodings by js-tiktoken's table", async () => {
    for (const m of ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1-mini', 'o1', 'o3-mini', 'openai:gpt-4o'])
      expect(await modelEncoding(m)).toBe('o200k_base');
    for (const m of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo'])
      expect(await modelEncoding(m)).toBe('cl100k_base');
  });

  it('knows no tokenizer for other models or other providers', async () => {
    for (const m of ['local-echo', 'llama3:8b', 'anthropic:claude-3-5-sonnet-latest', 'anthropic:gpt-4o'])
      expect(await modelEncoding(m)).toBeUndefined();
    expect(await modelTokenCounter('local-echo')).toBeUndefined();
  });
});

describe('modelTokenCounter', () => {
  it("counts a chat request with the model's tokenizer, as OpenAI's cookbook counts messages", async () => {
    const count = await modelTokenCounter('gpt-3.5-turbo');
    if (!count) throw new Error('gpt-3.5-turbo has a known tokenizer');
    // cl100k_base: "hello world" is [15339, 1917], "user" one token; 3 per message, 3 priming the reply
    const hello = request({
      messages: [{ role: 'user', content: 'hello world' }],
      params: { model: 'gpt-3.5-turbo', maxTokens: 0 },
    });
    expect(count(hello)).toBe(3 + 3 + 1 + 2);
    // the reply allowance: maxTokens, or 256 when unset
    expect(count({ ...hello, params: { model: 'gpt-3.5-turbo', maxTokens: 40 } })).toBe(9 + 40);
    expect(count({ ...hello, params: { model: 'gpt-3.5-turbo' } })).toBe(9 + 256);
    // text that looks like a special token is counted as text, not refused
    const special = request({ messages: [{ role: 'user', content: '<|endoftext|>' }] });
    expect(count(special)).toBeGreaterThan(3 + 3 + 1 + 256);
    // differs from the four-characters-per-token fallback on real prompts
    const long = request({
      messages: [{ role: 'user', content: 'Unbelievably, 12345678901234567890 ÜÖÄ '.repeat(20) }],
    });
    expect(count(long)).not.toBe(estimateTokens(long));
  });
});
