import { type Rng, SeededStream } from '../core/index.ts';
import { BudgetPort } from './budget-port.ts';
import { CachePort } from './cache-port.ts';
import { ChatOpenAIPort } from './chat-openai-port.ts';
import { ConcurrencyLimitPort } from './concurrency-limit-port.ts';
import type { LlmConfig } from './llm-config.ts';
import { costOf, DEFAULT_MODEL_PRICES, type ModelPrice, priceForCall } from './model-prices.ts';
import type { LlmPort } from './port.ts';
import { RateLimitPort } from './rate-limit-port.ts';
import { type LlmCallRecord, RecordingPort } from './recording-port.ts';
import { ReplayingPort } from './replaying-port.ts';
import { RetryingPort, type RetryOptions } from './retrying-port.ts';

/** A live stack: the endpoint and its limits (a spread `resolveLlmConfig` result fits). */
export type LiveStackConfig = { mode: 'live' } & Pick<LlmConfig, 'baseURL' | 'apiKey' | 'timeoutMs'> &
  Partial<
    Pick<
      LlmConfig,
      'concurrency' | 'requestsPerMinute' | 'tokensPerMinute' | 'budgetTokens' | 'budgetUsd' | 'cacheDir'
    >
  > & {
    /** Prices merged over the defaults, for the budget and the cost counter. */
    prices?: Record<string, ModelPrice>;
    retry?: Pick<RetryOptions, 'maxAttempts' | 'baseDelayMs' | 'maxDelayMs'>;
  };

/** A replay stack: recorded calls only, no network. */
export interface ReplayStackConfig {
  mode: 'replay';
  records: readonly LlmCallRecord[];
  prices?: Record<string, ModelPrice>;
}

/** Configuration of {@link createLlmStack}. */
export type LlmStackConfig = LiveStackConfig | ReplayStackConfig;

/** What the stack reports to the engine and lets tests replace. */
export interface LlmStackHooks {
  /** Receives every call record as it settles (completion order; the engine reorders). */
  onRecord?: (record: LlmCallRecord) => void;
  /** Seeded stream for retry jitter (default: a stream seeded `grapevine|llm-retry`). */
  rng?: Rng;
  /** Waits `ms` (retry back-off, rate limit). Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds from a fixed origin (rate limit, latency). Default: `performance.now`. */
  now?: () => number;
}

/** Counters for the run summary. `fallbacks` is incremented by `decideStructured`. */
export interface LlmCounters {
  calls: number;
  /** Calls that failed after all retries. */
  failures: number;
  tokensIn: number;
  tokensOut: number;
  retries: number;
  fallbacks: number;
  costUsd: number;
  cacheHits: number;
}

/** A composed LLM stack. */
export interface LlmStack {
  /** The port agents call. */
  port: LlmPort;
  /** Live counters; pass them as `counters` to `decideStructured`. */
  counters: LlmCounters;
  /** The replaying port in replay mode (to check that every recording was used). */
  replay?: ReplayingPort;
  /** The budget layer in live mode. */
  budget?: BudgetPort;
}

/**
 * Composes the LLM layers. Live: record → cache (when `cacheDir`) → budget → rate limit
 * (when limits are set) → concurrency → retry → ChatOpenAI. Replay: record → replaying port,
 * so a replayed run emits the same records as the original (latency aside).
 */
export function createLlmStack(config: LlmStackConfig, hooks: LlmStackHooks = {}): LlmStack {
  const prices = { ...DEFAULT_MODEL_PRICES, ...config.prices };
  const counters = zeroCounters();
  const sink = (record: LlmCallRecord) => {
    countCall(counters, record, prices);
    hooks.onRecord?.(record);
  };
  if (config.mode === 'replay') {
    const replay = new ReplayingPort(config.records);
    return { port: new RecordingPort(replay, sink, { now: hooks.now }), counters, replay };
  }
  const base = new ChatOpenAIPort({
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
  });
  const retry = new RetryingPort(base, {
    ...config.retry,
    rng: hooks.rng ?? new SeededStream('grapevine|llm-retry'),
    sleep: hooks.sleep,
  });
  let port: LlmPort = new ConcurrencyLimitPort(retry, config.concurrency ?? 16);
  if (config.requestsPerMinute || config.tokensPerMinute)
    port = new RateLimitPort(port, {
      requestsPerMinute: config.requestsPerMinute,
      tokensPerMinute: config.tokensPerMinute,
      now: hooks.now,
      sleep: hooks.sleep,
    });
  const budget = new BudgetPort(port, {
    maxTokens: config.budgetTokens,
    maxCostUsd: config.budgetUsd,
    prices,
  });
  port = config.cacheDir ? new CachePort(budget, { dir: config.cacheDir }) : budget;
  return { port: new RecordingPort(port, sink, { now: hooks.now }), counters, budget };
}

/** Adds one record to the counters. Cached replies cost nothing. */
/** Counters of a run that has made no call yet. */
export function zeroCounters(): LlmCounters {
  return {
    calls: 0,
    failures: 0,
    tokensIn: 0,
    tokensOut: 0,
    retries: 0,
    fallbacks: 0,
    costUsd: 0,
    cacheHits: 0,
  };
}

/** Adds one call record to run counters: calls, failures, retries, tokens (failed attempts included), cost, cache hits. */
export function countCall(
  counters: LlmCounters,
  record: LlmCallRecord,
  prices: Record<string, ModelPrice>,
): void {
  counters.calls++;
  if (record.reply === null) counters.failures++;
  counters.retries +=
    record.reply === null ? Math.max(0, record.attempts.length - 1) : record.attempts.length;
  if (record.cached) {
    counters.cacheHits++;
    return;
  }
  let tokensIn = record.reply?.usage.input ?? 0;
  let tokensOut = record.reply?.usage.output ?? 0;
  for (const a of record.attempts) {
    tokensIn += a.usage?.input ?? 0;
    tokensOut += a.usage?.output ?? 0;
  }
  counters.tokensIn += tokensIn;
  counters.tokensOut += tokensOut;
  counters.costUsd += costOf(
    tokensIn,
    tokensOut,
    priceForCall(record.reply?.model, record.params.model, prices),
  );
}
