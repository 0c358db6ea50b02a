import { ConfigError, type RngStreams } from '../core/index.ts';
import { CachePort } from './cache-port.ts';
import { ChatModelPort } from './chat-model-port.ts';
import { ChatOpenAIPort } from './chat-openai-port.ts';
import { ConcurrencyLimitPort } from './concurrency-limit-port.ts';
import { EndpointPoolPort } from './endpoint-pool-port.ts';
import { describeEndpoint, type LlmConfig, LOCAL_MODEL, safeUrl } from './llm-config.ts';
import { budgetSpent, countCall, type LlmCounters, zeroCounters } from './llm-counters.ts';
import { DEFAULT_MODEL_PRICES, hasPrice, type ModelPrice } from './model-prices.ts';
import { parseModelRef } from './model-ref.ts';
import { modelTokenCounter } from './model-tokenizer.ts';
import type { LlmPort } from './port.ts';
import { RateLimitPort } from './rate-limit-port.ts';
import { type LlmCallRecord, RecordingPort } from './recording-port.ts';
import { RetryingPort, type RetryOptions } from './retrying-port.ts';
import { withServerModel } from './server-model.ts';

/** Name of the run's random stream that retry jitter is drawn from. */
export const LLM_RETRY_STREAM = 'llm-retry';

/** One run's (or one study episode's) use of an {@link LlmEndpoint}. */
export interface LlmSessionOptions {
  /** The run's random streams: retry jitter is drawn from its {@link LLM_RETRY_STREAM} stream. */
  streams: RngStreams;
  /** Receives every call record as it settles (completion order; the engine reorders). */
  onRecord?: (record: LlmCallRecord) => void;
  /** Waits `ms` (retry back-off, rate limit). Default: a timer. Tests pass a fake. */
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds from a fixed origin (latency). Default: `performance.now`. */
  now?: () => number;
  /** Back-off shape (tests shorten it). */
  retry?: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>;
}

/** The port a run's agents call, with what it has spent. */
export interface LlmSession {
  port: LlmPort;
  /** This session's counters; pass them as `counters` to `decideStructured`. */
  counters: LlmCounters;
  /** `budget-exhausted` once this session reached `--budget-tokens` / `--budget-usd`, else null. */
  budgetSpent(): string | null;
  /** Why the endpoint cannot be reached, once no call ever connected (see `RetryingPort.unreachable`). */
  unreachable?(): string | undefined;
}

/** An opened LLM: one client, one concurrency limit, one rate limit, shared by its sessions. */
export interface LlmEndpoint {
  /** The model calls ask for (`provider:name` or a plain name). */
  model: string;
  /** Where calls go, for the log's wall-clock header part (never the key). */
  endpoint: string;
  /** Totals over every session. */
  counters: LlmCounters;
  /** The shared concurrency limit (its peak in flight). */
  limit: ConcurrencyLimitPort;
  /** The endpoint pool when several base URLs were given (its per-endpoint counts). */
  pool?: EndpointPoolPort;
  /** A session: record → cache (with `--llm-cache`) → retry → the shared limits and client. */
  session(options: LlmSessionOptions): LlmSession;
  /** Stops the local server if one was started. Idempotent. */
  close(): Promise<void>;
}

/** An OpenAI-compatible endpoint started on this machine (the shipped local server). */
export interface LocalEndpoint {
  /** Base URL ending in `/v1`. */
  readonly url: string;
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * Starts a local endpoint for a configuration that names none. The CLI passes one that
 * starts the shipped local server (`startLocalLlmServer`) with the responders of its worlds;
 * the engine never starts a server itself.
 */
export type LocalEndpointStarter = () => Promise<LocalEndpoint>;

/** Options of {@link openLlm}. */
export interface OpenLlmOptions {
  /** Prices merged over the defaults, for the budget and the cost counter. */
  prices?: Record<string, ModelPrice>;
  /** Waits `ms` in the rate limit. Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Starts the local endpoint when `config` names no endpoint and no `provider:name` model. */
  localServer?: LocalEndpointStarter;
}

/** True when `config` names no endpoint and no `provider:name` model: its calls go to the shipped local server. */
export function needsLocalServer(config: LlmConfig): boolean {
  return config.baseURL === undefined && parseModelRef(config.model).provider === undefined;
}

/**
 * The one place where LLM configuration becomes a model stack (concordia's
 * `language_model_setup`). `config` comes from `resolveLlmConfig`, already validated, so
 * nothing here fails on user input once a server was started. Without a base URL a plain
 * model runs on the local endpoint that `options.localServer` starts (stopped by `close`;
 * without one, a ConfigError asking for an endpoint); a
 * `provider:name` model goes through LangChain's `initChatModel`. Shared by every session:
 * [rate limit] → concurrency limit → client, or → endpoint pool → one client per URL when
 * several base URLs were given. Per session (a run, or one study episode):
 * recorder → [cache] → retry, so that retries re-enter the shared queue and count against
 * the rate limit attempt by attempt, and each session's records and counters are its own.
 */
export async function openLlm(named: LlmConfig, options: OpenLlmOptions = {}): Promise<LlmEndpoint> {
  // no model named for an endpoint other than OpenAI's: the server's first listed model
  const config = await withServerModel(named);
  const prices = { ...DEFAULT_MODEL_PRICES, ...options.prices };
  checkBudgetPriced(config, prices);
  const server = needsLocalServer(config) ? await startLocal(options.localServer) : undefined;
  try {
    const resolved = { ...config, baseURL: config.baseURL ?? server?.url };
    const pool = config.baseURLs ? await poolFor(resolved, config.baseURLs) : undefined;
    // with a pool, --llm-concurrency is per endpoint
    const limit = pool
      ? new ConcurrencyLimitPort(pool, config.concurrency * (config.baseURLs?.length ?? 1))
      : new ConcurrencyLimitPort(await clientFor(resolved), config.concurrency);
    const shared: LlmPort =
      config.requestsPerMinute || config.tokensPerMinute
        ? new RateLimitPort(limit, {
            requestsPerMinute: config.requestsPerMinute,
            tokensPerMinute: config.tokensPerMinute,
            sleep: options.sleep,
            // the model's tokenizer when it is known; the character estimate otherwise
            estimate: config.tokensPerMinute ? await modelTokenCounter(config.model) : undefined,
          })
        : limit;
    const counters = zeroCounters();
    return {
      model: config.model,
      endpoint:
        describeEndpoint(resolved) +
        (server ? ' (shipped local server)' : '') +
        (config.modelFrom === 'listed' ? ' (the model the server lists first; name one with --model)' : ''),
      counters,
      limit,
      ...(pool ? { pool } : {}),
      session: (s) => openSession(shared, config, prices, counters, s),
      close: async () => {
        await server?.close();
      },
    };
  } catch (err) {
    await server?.close();
    throw err;
  }
}

/** A dollar budget is kept only for a model with a known price (the shipped local server's costs nothing). */
function checkBudgetPriced(config: LlmConfig, prices: Readonly<Record<string, ModelPrice>>): void {
  if (config.budgetUsd === undefined || config.model === LOCAL_MODEL || hasPrice(config.model, prices))
    return;
  throw new ConfigError(
    `--budget-usd: the cost of ${config.model} is unknown (no price for it), so the budget cannot be kept`,
    {
      hint: 'cap the run with --budget-tokens instead',
    },
  );
}

async function startLocal(start: LocalEndpointStarter | undefined): Promise<LocalEndpoint> {
  if (start) return start();
  throw new ConfigError(
    'no LLM endpoint: no --llm-base-url (or OPENAI_BASE_URL) and no provider:name model',
    {
      hint: 'name an endpoint with --llm-base-url URL, or start the shipped one with `grapevine serve-llm` and pass its URL',
    },
  );
}

/** One client per URL, behind an {@link EndpointPoolPort}. */
async function poolFor(config: LlmConfig, urls: readonly string[]): Promise<EndpointPoolPort> {
  const members = [];
  for (const url of urls)
    members.push({ name: safeUrl(url), port: await clientFor({ ...config, baseURL: url }) });
  return new EndpointPoolPort(members);
}

/** The client for the configured model: ChatOpenAI for plain names, `initChatModel` for `provider:name`. */
async function clientFor(config: LlmConfig): Promise<LlmPort> {
  if (parseModelRef(config.model).provider === undefined)
    return new ChatOpenAIPort({
      baseURL: config.baseURL as string,
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs,
    });
  const port = new ChatModelPort(config.model, {
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
  });
  await port.check();
  return port;
}

function openSession(
  shared: LlmPort,
  config: LlmConfig,
  prices: Record<string, ModelPrice>,
  totals: LlmCounters,
  options: LlmSessionOptions,
): LlmSession {
  const counters = zeroCounters();
  const retrying = new RetryingPort(shared, {
    ...options.retry,
    maxAttempts: config.maxAttempts,
    rng: options.streams.stream(LLM_RETRY_STREAM),
    sleep: options.sleep,
  });
  let port: LlmPort = retrying;
  if (config.cacheDir) port = new CachePort(port, { dir: config.cacheDir });
  const recorder = new RecordingPort(
    port,
    (record) => {
      countCall(counters, record, prices);
      countCall(totals, record, prices);
      options.onRecord?.(record);
    },
    { now: options.now },
  );
  return {
    port: recorder,
    counters,
    budgetSpent: () => budgetSpent(counters, config),
    unreachable: () => retrying.unreachable,
  };
}
