import { ConfigError } from '../core/index.ts';
import { ApiKey } from './api-key.ts';

/** Where the key of an {@link LlmConfig} came from. */
export type KeySource = 'env' | 'placeholder' | 'missing';

/** Everything needed to talk to one OpenAI-compatible endpoint, resolved from flags and env. */
export interface LlmConfig {
  baseURL: string;
  model: string;
  /** From `OPENAI_API_KEY` only; serialises as `sk-***`. Undefined when missing for a remote URL. */
  apiKey: ApiKey | undefined;
  keySource: KeySource;
  temperature: number | undefined;
  maxTokens: number | undefined;
  seed: number | undefined;
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
  llmBaseUrl?: string;
  model?: string;
  temperature?: string | number;
  maxTokens?: string | number;
  llmSeed?: string | number;
  llmTimeoutMs?: string | number;
  llmConcurrency?: string | number;
  llmRpm?: string | number;
  llmTpm?: string | number;
  budgetTokens?: string | number;
  budgetUsd?: string | number;
  llmCache?: string;
  llmAttempts?: string | number;
}

/** Default endpoint when neither `--llm-base-url` nor `OPENAI_BASE_URL` is given. */
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** Default model when neither `--model` nor `GRAPEVINE_MODEL` is given. */
export const DEFAULT_MODEL = 'gpt-4o-mini';
/** Key sent to local endpoints when `OPENAI_API_KEY` is not set (they ignore it). */
export const PLACEHOLDER_KEY = 'sk-no-key';

type Env = Record<string, string | undefined>;

/**
 * Resolves the LLM configuration: a flag wins over its environment variable, which wins over
 * the default. The key is read from `OPENAI_API_KEY` only (never a flag: flags end up in shell
 * history and in the log header); a local base URL without a key gets {@link PLACEHOLDER_KEY}.
 * Throws {@link ConfigError} on an invalid URL or number.
 */
export function resolveLlmConfig(input: { flags?: LlmFlags; env?: Env } = {}): LlmConfig {
  const flags = input.flags ?? {};
  const env = input.env ?? {};
  const baseURL = checkUrl(flags.llmBaseUrl ?? nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_BASE_URL);
  const key = nonEmpty(env.OPENAI_API_KEY);
  const local = isLocalUrl(baseURL);
  const num = (flag: string | number | undefined, envName: string, name: string, min: number, int = true) =>
    parseNumber(flag ?? nonEmpty(env[envName]), name, min, int);
  return {
    baseURL,
    model: flags.model ?? nonEmpty(env.GRAPEVINE_MODEL) ?? DEFAULT_MODEL,
    apiKey: key !== undefined ? new ApiKey(key) : local ? new ApiKey(PLACEHOLDER_KEY) : undefined,
    keySource: key !== undefined ? 'env' : local ? 'placeholder' : 'missing',
    temperature: num(flags.temperature, 'GRAPEVINE_TEMPERATURE', '--temperature', 0, false),
    maxTokens: num(flags.maxTokens, 'GRAPEVINE_MAX_TOKENS', '--max-tokens', 1),
    seed: num(flags.llmSeed, 'GRAPEVINE_LLM_SEED', '--llm-seed', 0),
    timeoutMs: num(flags.llmTimeoutMs, 'GRAPEVINE_LLM_TIMEOUT_MS', '--llm-timeout-ms', 1) ?? 60_000,
    concurrency: num(flags.llmConcurrency, 'GRAPEVINE_LLM_CONCURRENCY', '--llm-concurrency', 1) ?? 16,
    requestsPerMinute: num(flags.llmRpm, 'GRAPEVINE_LLM_RPM', '--llm-rpm', 1),
    tokensPerMinute: num(flags.llmTpm, 'GRAPEVINE_LLM_TPM', '--llm-tpm', 1),
    budgetTokens: num(flags.budgetTokens, 'GRAPEVINE_BUDGET_TOKENS', '--budget-tokens', 0),
    budgetUsd: num(flags.budgetUsd, 'GRAPEVINE_BUDGET_USD', '--budget-usd', 0, false),
    cacheDir: flags.llmCache ?? nonEmpty(env.GRAPEVINE_LLM_CACHE),
    maxAttempts: num(flags.llmAttempts, 'GRAPEVINE_LLM_ATTEMPTS', '--llm-attempts', 1) ?? 6,
  };
}

/**
 * A one-line description of the endpoint that is safe for logs and the run header: model,
 * URL without credentials or query string, and where the key came from (never the key).
 */
export function describeEndpoint(config: Pick<LlmConfig, 'baseURL' | 'model' | 'keySource'>): string {
  const key =
    config.keySource === 'env'
      ? 'key from OPENAI_API_KEY'
      : config.keySource === 'placeholder'
        ? 'no key (local)'
        : 'no key';
  return `${config.model} at ${safeUrl(config.baseURL)} (${key})`;
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

function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`invalid LLM base URL ${JSON.stringify(safeUrl(url))}`, {
      hint: 'Pass an http(s) URL such as http://127.0.0.1:8080/v1 with --llm-base-url or OPENAI_BASE_URL.',
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`LLM base URL must be http or https, got ${parsed.protocol}`, {
      hint: 'Pass an http(s) URL with --llm-base-url or OPENAI_BASE_URL.',
    });
  return url.replace(/\/+$/, '');
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s.trim() === '' ? undefined : s.trim();
}

function parseNumber(raw: string | number | undefined, name: string, min: number, int: boolean) {
  if (raw === undefined) return undefined;
  const n = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(n) || n < min || (int && !Number.isInteger(n)))
    throw new ConfigError(
      `${name} must be ${int ? 'an integer' : 'a number'} >= ${min}, got ${JSON.stringify(raw)}`,
      {
        hint: `Fix ${name} (or its environment variable).`,
      },
    );
  return n;
}
