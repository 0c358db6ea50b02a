import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, canonicalJson } from '../../src/core/index.ts';
import {
  ApiKey,
  CHAT_MODEL_PROVIDERS,
  describeEndpoint,
  parseModelRef,
  redactSecrets,
  resolveLlmConfig,
} from '../../src/llm/index.ts';

const KEY = 'sk-GRAPEVINE-FAKE-KEY-1234';

describe('resolveLlmConfig', () => {
  it('prefers flags over env over defaults', () => {
    const c = resolveLlmConfig({
      flags: { llmBaseUrl: 'http://127.0.0.1:9999/v1/', model: 'flag-model', llmAttempts: '3' },
      env: {
        OPENAI_BASE_URL: 'https://example.com/v1',
        GRAPEVINE_MODEL: 'env-model',
        GRAPEVINE_LLM_ATTEMPTS: '9',
        GRAPEVINE_LLM_RPM: '60',
      },
    });
    expect(c).toMatchObject({
      baseURL: 'http://127.0.0.1:9999/v1',
      model: 'flag-model',
      maxAttempts: 3,
      requestsPerMinute: 60,
      timeoutMs: 60_000,
      concurrency: 16,
      keySource: 'placeholder',
    });
    expect(c.apiKey?.reveal()).toBe('sk-no-key');
  });

  it('without a URL: the shipped local server, whose model is grapevine-local', () => {
    const d = resolveLlmConfig({ env: {} });
    expect(d).toMatchObject({ baseURL: undefined, model: 'grapevine-local', keySource: 'placeholder' });
    expect(describeEndpoint(d)).toBe('grapevine-local at the shipped local server (no key (local))');
    // a provider model goes to its provider, with the provider's own key variable
    const p = resolveLlmConfig({ flags: { model: 'anthropic:claude-sonnet-4-5' } });
    expect(p).toMatchObject({ baseURL: undefined, keySource: 'provider', apiKey: undefined });
    // an Ollama tag is not a provider
    expect(parseModelRef('llama3:8b')).toEqual({ provider: undefined, name: 'llama3:8b' });
    expect(parseModelRef('ollama:llama3:8b')).toEqual({ provider: 'ollama', name: 'llama3:8b' });
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
    // no model named for an endpoint other than OpenAI's: the server's first listed one, asked when opened
    expect(describeEndpoint(c)).toBe(
      'the first model listed at https://example.com/v1 (key from OPENAI_API_KEY)',
    );
  });

  it('rejects bad or empty URLs, numbers and a missing key with a ConfigError naming the setting', () => {
    const bad: Array<[Parameters<typeof resolveLlmConfig>[0], RegExp]> = [
      [{ flags: { llmBaseUrl: 'not a url' } }, /--llm-base-url is not a URL/],
      [{ flags: { llmBaseUrl: 'ftp://x/v1' } }, /http or https/],
      [{ env: { OPENAI_BASE_URL: '' } }, /OPENAI_BASE_URL is set but empty/],
      [{ flags: { llmAttempts: '0' } }, /--llm-attempts must be an integer >= 1, got "0"/],
      [{ flags: { llmTimeoutMs: 'abc' } }, /--llm-timeout-ms must be an integer/],
      [{ flags: { llmRpm: '-5' } }, /--llm-rpm must be an integer >= 1/],
      [{ flags: { budgetUsd: '-1' } }, /--budget-usd must be a number >= 0/],
      [{ flags: { llmConcurrency: '0' } }, /--llm-concurrency must be an integer >= 1/],
      [{ env: { GRAPEVINE_LLM_ATTEMPTS: '0' } }, /GRAPEVINE_LLM_ATTEMPTS must be an integer >= 1/],
      [{ env: { OPENAI_BASE_URL: 'https://example.com/v1' } }, /no API key for https:\/\/example.com\/v1/],
      [{ flags: { model: 'anthropic:' } }, /names a provider but no model/],
    ];
    for (const [input, message] of bad) {
      expect(() => resolveLlmConfig(input)).toThrow(ConfigError);
      expect(() => resolveLlmConfig(input)).toThrow(message);
    }
  });

  it('knows the providers of the installed langchain', async () => {
    const { MODEL_PROVIDER_CONFIG } = await import('langchain/chat_models/universal');
    const installed = Object.fromEntries(
      Object.entries(MODEL_PROVIDER_CONFIG).map(([k, v]) => [k, (v as { package: string }).package]),
    );
    expect(CHAT_MODEL_PROVIDERS).toEqual(installed);
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
