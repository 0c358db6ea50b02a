import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, canonicalJson } from '../../src/core/index.ts';
import { ApiKey, describeEndpoint, redactSecrets, resolveLlmConfig } from '../../src/llm/index.ts';

const KEY = 'sk-GRAPEVINE-FAKE-KEY-1234';

describe('resolveLlmConfig', () => {
  it('prefers flags over env over defaults', () => {
    const c = resolveLlmConfig({
      flags: { llmBaseUrl: 'http://127.0.0.1:9999/v1/', model: 'flag-model', temperature: '0.5' },
      env: {
        OPENAI_BASE_URL: 'https://example.com/v1',
        GRAPEVINE_MODEL: 'env-model',
        GRAPEVINE_MAX_TOKENS: '300',
      },
    });
    expect(c).toMatchObject({
      baseURL: 'http://127.0.0.1:9999/v1',
      model: 'flag-model',
      temperature: 0.5,
      maxTokens: 300,
      timeoutMs: 60_000,
      concurrency: 16,
      keySource: 'placeholder',
    });
    expect(c.apiKey?.reveal()).toBe('sk-no-key');
    const d = resolveLlmConfig({ env: {} });
    expect(d).toMatchObject({
      baseURL: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      keySource: 'missing',
    });
    expect(d.apiKey).toBeUndefined();
  });

  it('reads the key from OPENAI_API_KEY only and never shows it', () => {
    const c = resolveLlmConfig({
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'https://user:pw@example.com/v1?k=1' },
    });
    expect(c.apiKey?.reveal()).toBe(KEY);
    for (const shown of [JSON.stringify(c), inspect(c), String(c.apiKey), describeEndpoint(c)])
      expect(shown).not.toContain(KEY);
    // canonical JSON refuses class instances rather than serialising the key
    expect(() => canonicalJson({ ...c })).toThrow(/ApiKey/);
    expect(describeEndpoint(c)).toBe('gpt-4o-mini at https://example.com/v1 (key from OPENAI_API_KEY)');
  });

  it('rejects bad URLs and numbers with a ConfigError', () => {
    expect(() => resolveLlmConfig({ flags: { llmBaseUrl: 'not a url' } })).toThrow(ConfigError);
    expect(() => resolveLlmConfig({ flags: { llmBaseUrl: 'ftp://x/v1' } })).toThrow(/http or https/);
    expect(() => resolveLlmConfig({ flags: { maxTokens: '1.5' } })).toThrow(
      /--max-tokens must be an integer/,
    );
    expect(() => resolveLlmConfig({ env: { GRAPEVINE_TEMPERATURE: 'hot' } })).toThrow(/--temperature/);
  });
});

describe('redactSecrets', () => {
  it('removes the given secrets and anything shaped like a key or bearer token', () => {
    expect(redactSecrets(`key ${KEY} and Bearer abc.def-123 and sk-proj-abcdefgh`, [KEY])).toBe(
      'key sk-*** and Bearer sk-*** and sk-***',
    );
    expect(new ApiKey(KEY).toJSON()).toBe('sk-***');
  });
});
