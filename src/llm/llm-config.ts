import { ConfigError, redactUrlCredentials } from '../core/index.ts';
import { ApiKey } from './api-key.ts';
import { DEFAULT_ATTEMPTS, DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS } from './llm-defaults.ts';
import { parseModelRef } from './model-ref.ts';

/**
 * Where the key of an {@link LlmConfig} came from: `OPENAI_API_KEY`, a placeholder for a
 * loopback endpoint, or the provider package's own variable (`anthropic:...` reads
 * `ANTHROPIC_API_KEY` itself).
 */
export type KeySource = 'env' | 'placeholder' | 'provider';

/**
 * Everything needed to open an LLM, resolved from flags and environment and fully
 * validated: opening it (see `openLlm`) can no longer fail on configuration.
 */
export interface LlmConfig {
  /** OpenAI-compatible endpoint, or undefined: the shipped local server (plain model) or the provider's own endpoint (`provider:name`). */
  baseURL: string | undefined;
  /**
   * Every endpoint when several were given (`--llm-base-url a,b` or the flag repeated):
   * calls are spread over them by an endpoint pool; `baseURL` is the first.
   */
  baseURLs?: readonly string[];
  /** A plain model name, or `provider:name` (e.g. `anthropic:claude-sonnet-4-5`, `ollama:llama3.2`). */
  model: string;
  /**
   * `listed` when no model was named for an endpoint that is not OpenAI's: the model is the
   * first the server lists at `GET /models` (empty until `withServerModel` asked it).
   */
  modelFrom?: 'listed';
  /** From `OPENAI_API_KEY` only; serialises as `sk-***`. Undefined for provider models. */
  apiKey: ApiKey | undefined;
  keySource: KeySource;
  /** Timeout of one attempt, in ms. */
  timeoutMs: number;
  /** Maximum calls in flight. */
  concurrency: number;
  requestsPerMinute: number | undefined;
  tokensPerMinute: number | undefined;
  budgetTokens: number | undefined;
  budgetUsd: number | undefined;
  /** Directory of the opt-in response cache. */
  cacheDir: string | undefined;
  /** Attempts per call, first try included (retries on 429, 5xx, timeouts, drops, malformed). */
  maxAttempts: number;
}

/** Command-line flags as commander camel-cases them (`--llm-base-url` -> `llmBaseUrl`). */
export interface LlmFlags {
  /** One URL, several separated by commas, or the flag repeated. */
  llmBaseUrl?: string | readonly string[];
  model?: string;
  llmTimeoutMs?: string | number;
  llmConcurrency?: string | number;
  llmRpm?: string | number;
  llmTpm?: string | number;
  budgetTokens?: string | number;
  budgetUsd?: string | number;
  llmCache?: string;
  llmAttempts?: string | number;
}

/** Model of the shipped local server, used when neither a URL nor a model is given. */
export const LOCAL_MODEL = 'grapevine-local';
/** Model used with OpenAI's own endpoint (`--llm-base-url https://api.openai.com/v1`) when no model is given. */
export const DEFAULT_MODEL = 'gpt-4o-mini';
/** The host whose endpoint gets {@link DEFAULT_MODEL}; any other asks the server (`GET /models`). */
export const OPENAI_HOST = 'api.openai.com';
/** Key sent to local endpoints when `OPENAI_API_KEY` is not set (they ignore it). */
export const PLACEHOLDER_KEY = 'sk-no-key';
export { DEFAULT_ATTEMPTS, DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS } from './llm-defaults.ts';

type Env = Record<string, string | undefined>;

/**
 * Resolves and validates the LLM configuration, touching neither the network nor a port: a
 * flag wins over its environment variable, which wins over the default. Without a URL a
 * plain model runs on the shipped local server (model {@link LOCAL_MODEL} unless one is
 * given). The key is read from `OPENAI_API_KEY` only (never a flag: flags end up in shell
 * history); a loopback URL without a key gets {@link PLACEHOLDER_KEY}. Throws
 * {@link ConfigError} (exit 2) on an empty or invalid URL, a bad number, or a remote URL
 * without a key.
 */
export function resolveLlmConfig(input: { flags?: LlmFlags; env?: Env } = {}): LlmConfig {
  const flags = input.flags ?? {};
  const env = input.env ?? {};
  const urls = resolveUrls(flags.llmBaseUrl, env.OPENAI_BASE_URL);
  const baseURL = urls?.[0];
  const model = checkModel(flags.model, env.GRAPEVINE_MODEL, baseURL);
  const listed = model === '' ? { modelFrom: 'listed' as const } : {};
  const num = (flag: string | number | undefined, envName: string, name: string, min: number, int = true) =>
    parseNumber(flag ?? env[envName], flag === undefined ? envName : name, min, int);
  return {
    baseURL,
    ...(urls && urls.length > 1 ? { baseURLs: urls } : {}),
    model,
    ...listed,
    ...resolveKey(urls, model, nonEmpty(env.OPENAI_API_KEY)),
    timeoutMs:
      num(flags.llmTimeoutMs, 'GRAPEVINE_LLM_TIMEOUT_MS', '--llm-timeout-ms', 1) ?? DEFAULT_TIMEOUT_MS,
    concurrency:
      num(flags.llmConcurrency, 'GRAPEVINE_LLM_CONCURRENCY', '--llm-concurrency', 1) ?? DEFAULT_CONCURRENCY,
    requestsPerMinute: num(flags.llmRpm, 'GRAPEVINE_LLM_RPM', '--llm-rpm', 1),
    tokensPerMinute: num(flags.llmTpm, 'GRAPEVINE_LLM_TPM', '--llm-tpm', 1),
    budgetTokens: num(flags.budgetTokens, 'GRAPEVINE_BUDGET_TOKENS', '--budget-tokens', 0),
    budgetUsd: num(flags.budgetUsd, 'GRAPEVINE_BUDGET_USD', '--budget-usd', 0, false),
    cacheDir: resolveCache(flags.llmCache, env.GRAPEVINE_LLM_CACHE),
    maxAttempts: num(flags.llmAttempts, 'GRAPEVINE_LLM_ATTEMPTS', '--llm-attempts', 1) ?? DEFAULT_ATTEMPTS,
  };
}

/**
 * A one-line description of the endpoint that is safe for logs and the run header: model,
 * URL without credentials or query string, and where the key came from (never the key).
 */
export function describeEndpoint(
  config: Pick<LlmConfig, 'baseURL' | 'baseURLs' | 'model' | 'keySource' | 'modelFrom'>,
): string {
  const key =
    config.keySource === 'env'
      ? 'key from OPENAI_API_KEY'
      : config.keySource === 'placeholder'
        ? 'no key (local)'
        : "the provider's key variable";
  const where = config.baseURLs
    ? `a pool of ${config.baseURLs.map(safeUrl).join(', ')}`
    : config.baseURL
      ? safeUrl(config.baseURL)
      : parseModelRef(config.model).provider
        ? "the provider's endpoint"
        : 'the shipped local server';
  const model =
    config.model === '' && config.modelFrom === 'listed' ? 'the first model listed' : config.model;
  return `${model} at ${where} (${key})`;
}

/** True for loopback endpoints (localhost, 127.x.x.x, ::1, 0.0.0.0). */
export function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    /^127\./.test(host)
  );
}

/** The URL without user info, query or fragment: safe to show and log. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}

const URL_HINT =
  'Pass an http(s) URL such as http://127.0.0.1:8080/v1 with --llm-base-url or OPENAI_BASE_URL, or unset both to use the shipped local server.';

/** The endpoint URLs: the flag's (repeatable) else the variable's, each a comma-separated list. */
function resolveUrls(
  flag: string | readonly string[] | undefined,
  envValue: string | undefined,
): string[] | undefined {
  const [raw, name] = flag !== undefined ? [flag, '--llm-base-url'] : [envValue, 'OPENAI_BASE_URL'];
  if (raw === undefined) return undefined;
  const parts = (typeof raw === 'string' ? [raw] : raw).flatMap((r) => r.split(','));
  const urls = parts.map((part) => resolveUrl(part, name));
  if (new Set(urls).size !== urls.length)
    throw new ConfigError(`${name} names the same endpoint twice`, { hint: URL_HINT });
  return urls;
}

function resolveUrl(raw: string, name: string): string {
  if (raw.trim() === '') throw new ConfigError(`${name} is set but empty`, { hint: URL_HINT });
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} is not a URL: ${JSON.stringify(safeUrl(raw))}`, { hint: URL_HINT });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(
      `${name} must be an http or https URL, got ${JSON.stringify(redactUrlCredentials(raw.trim()))}`,
      // `localhost:11434` parses as scheme `localhost:`: the user most likely meant http://
      {
        hint: /^[\w.-]+:\d+$/.test(raw.trim())
          ? `give the scheme and path: http://${raw.trim()}/v1 (an OpenAI-compatible server's base URL)`
          : URL_HINT,
      },
    );
  return raw.trim().replace(/\/+$/, '');
}

function checkModel(flag: string | undefined, envValue: string | undefined, baseURL: string | undefined) {
  const [model, name] = flag !== undefined ? [flag, '--model'] : [envValue, 'GRAPEVINE_MODEL'];
  // an endpoint other than OpenAI's names its models itself: asked when the LLM opens
  if (model === undefined)
    return baseURL ? (new URL(baseURL).hostname === OPENAI_HOST ? DEFAULT_MODEL : '') : LOCAL_MODEL;
  if (model.trim() === '')
    throw new ConfigError(`${name} is set but empty`, { hint: 'Name a model, e.g. --model gpt-4o-mini.' });
  const ref = parseModelRef(model.trim());
  if (ref.provider !== undefined && ref.name === '')
    throw new ConfigError(`${name} ${JSON.stringify(model)} names a provider but no model`, {
      hint: 'Write provider:model, e.g. anthropic:claude-sonnet-4-5.',
    });
  return model.trim();
}

function resolveKey(
  urls: readonly string[] | undefined,
  model: string,
  key: string | undefined,
): Pick<LlmConfig, 'apiKey' | 'keySource'> {
  const provider = parseModelRef(model).provider;
  if (provider !== undefined && provider !== 'openai') return { apiKey: undefined, keySource: 'provider' };
  if (key !== undefined) return { apiKey: new ApiKey(key), keySource: 'env' };
  if (urls === undefined && provider === undefined)
    return { apiKey: new ApiKey(PLACEHOLDER_KEY), keySource: 'placeholder' };
  const remote = urls?.find((u) => !isLocalUrl(u));
  if (urls !== undefined && remote === undefined)
    return { apiKey: new ApiKey(PLACEHOLDER_KEY), keySource: 'placeholder' };
  throw new ConfigError(`no API key for ${remote ? safeUrl(remote) : model}`, {
    hint: 'Set OPENAI_API_KEY, or point --llm-base-url at a local server (which needs no key).',
  });
}

function resolveCache(flag: string | undefined, envValue: string | undefined): string | undefined {
  const [raw, name] = flag !== undefined ? [flag, '--llm-cache'] : [envValue, 'GRAPEVINE_LLM_CACHE'];
  if (raw === undefined) return undefined;
  if (raw.trim() === '')
    throw new ConfigError(`${name} is set but empty`, { hint: 'Name a directory for the response cache.' });
  return raw;
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s.trim() === '' ? undefined : s.trim();
}

/** A number from a flag or variable; `name` is what the user set (the flag or the variable). */
function parseNumber(raw: string | number | undefined, name: string, min: number, int: boolean) {
  if (raw === undefined) return undefined;
  const n = typeof raw === 'number' ? raw : raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(n) || n < min || (int && !Number.isInteger(n)))
    throw new ConfigError(
      `${name} must be ${int ? 'an integer' : 'a number'} >= ${min}, got ${JSON.stringify(raw)}`,
      { hint: `Fix ${name}, or leave it out for the default.` },
    );
  return n;
}
