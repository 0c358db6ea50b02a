import { ConfigError, type Json, RngStreams } from '../core/index.ts';
import {
  ChatOpenAIPort,
  ConcurrencyLimitPort,
  countCall,
  DEFAULT_MODEL_PRICES,
  describeEndpoint,
  type LlmConfig,
  type LlmCounters,
  type LlmFlags,
  type LlmPort,
  type LocalLlmServer,
  RateLimitPort,
  RecordingPort,
  RetryingPort,
  resolveLlmConfig,
  safeUrl,
  startLocalLlmServer,
  zeroCounters,
} from '../llm/index.ts';
import type { InputBuffer } from '../world/index.ts';

/** The LLM flags of `grapevine study` (those of `run` but the budget and the cache). */
export type StudyLlmFlags = Pick<
  LlmFlags,
  'llmBaseUrl' | 'model' | 'llmConcurrency' | 'llmRpm' | 'llmTpm' | 'llmTimeoutMs' | 'llmAttempts'
>;

/** The endpoint a study will use, resolved without touching the network. */
export interface StudyLlmTarget {
  /** The explicit endpoint (`--llm-base-url` / `OPENAI_BASE_URL`), or undefined: the shipped local server. */
  baseUrl: string | undefined;
  model: string;
}

/**
 * Resolves the endpoint and model as `grapevine run` does (`openLiveLlm`): without
 * `--llm-base-url` and `OPENAI_BASE_URL` the shipped local server, model `grapevine-local`.
 * Validates every LLM flag (a {@link ConfigError} for a bad URL or number).
 */
export function resolveStudyLlm(
  flags: StudyLlmFlags,
  env: Record<string, string | undefined>,
): StudyLlmTarget {
  const explicit = flags.llmBaseUrl ?? env.OPENAI_BASE_URL;
  const config = resolveLlmConfig({
    flags: {
      ...flags,
      // any loopback URL stands for the local server, whose port is not known yet
      llmBaseUrl: explicit || 'http://127.0.0.1:8787/v1',
      model: flags.model ?? (explicit ? undefined : 'grapevine-local'),
    },
    env,
  });
  if (config.apiKey === undefined)
    throw new ConfigError(`no API key for the LLM endpoint ${safeUrl(config.baseURL)}`, {
      hint: 'Set OPENAI_API_KEY, or point --llm-base-url at a local server (which needs no key).',
    });
  return { baseUrl: explicit || undefined, model: config.model };
}

/** One episode's view of the shared LLM: its own recorder, retry stream and counters. */
export interface EpisodeLlm {
  port: LlmPort;
  counters: LlmCounters;
  /** Sum of the episode's call latencies in ms (its calls are sequential: its LLM wall time). */
  llmMs(): number;
  /** The error of the first call that failed after all retries (connection, 5xx, timeout...), if any. */
  firstFailure(): string | undefined;
}

/**
 * The LLM of a whole study: one HTTP client, one concurrency limit and one rate limit for
 * every episode, and per episode a recorder feeding that episode's {@link InputBuffer}.
 */
export interface StudyLlm {
  info: { model: string; [key: string]: Json };
  /** Where the calls go (no key), for the logs' wall-clock header part. */
  endpoint: string;
  /** Totals over every episode of this invocation. */
  counters: LlmCounters;
  /** The shared concurrency limit (its peak in flight). */
  limit: ConcurrencyLimitPort;
  forEpisode(seed: number, inputs: InputBuffer): EpisodeLlm;
  close(): Promise<void>;
}

/**
 * Opens the study's LLM. Why not one `createLlmStack` for all episodes: its recorder sits
 * on top and hands records to one `onRecord` sink, and a record does not say which episode
 * made it (callers are `0`, `1`, `judge` in every episode), so a shared stack cannot feed
 * per-episode input buffers. Nor one `openLiveLlm` per episode: each would have its own
 * concurrency and rate limits (and start its own local server). So the layers are
 * composed here: shared = [rate limit] → concurrency limit → ChatOpenAI (one client, one
 * local server); per episode = recorder (into the episode's buffer) → retry (jitter from
 * the episode seed's `llm-retry` stream, as `openLiveLlm` seeds it) → shared. An episode's
 * log is thus what `grapevine run sotopia --seed <episode seed>` would write, whatever
 * the other episodes do. Retries re-enter the shared queue, and count against the rate
 * limit, attempt by attempt.
 */
export async function openStudyLlm(
  flags: StudyLlmFlags,
  env: Record<string, string | undefined>,
): Promise<StudyLlm> {
  const target = resolveStudyLlm(flags, env);
  const server: LocalLlmServer | undefined = target.baseUrl
    ? undefined
    : await startLocalLlmServer({ port: 0 });
  let config: LlmConfig;
  try {
    config = resolveLlmConfig({
      flags: { ...flags, llmBaseUrl: target.baseUrl ?? server!.url, model: target.model },
      env,
    });
  } catch (err) {
    await server?.close();
    throw err;
  }
  const base = new ChatOpenAIPort({
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
  });
  const limit = new ConcurrencyLimitPort(base, config.concurrency);
  const shared: LlmPort =
    config.requestsPerMinute || config.tokensPerMinute
      ? new RateLimitPort(limit, {
          requestsPerMinute: config.requestsPerMinute,
          tokensPerMinute: config.tokensPerMinute,
        })
      : limit;
  const counters = zeroCounters();
  return {
    info: { model: config.model },
    endpoint: describeEndpoint(config) + (server ? ' (shipped local server)' : ''),
    counters,
    limit,
    forEpisode(seed, inputs) {
      const own = zeroCounters();
      let llmMs = 0;
      let firstFailure: string | undefined;
      const retry = new RetryingPort(shared, {
        maxAttempts: config.maxAttempts,
        rng: new RngStreams(seed).stream('llm-retry'),
      });
      const port = new RecordingPort(retry, (record) => {
        countCall(own, record, DEFAULT_MODEL_PRICES);
        countCall(counters, record, DEFAULT_MODEL_PRICES);
        llmMs += record.wall.latencyMs;
        if (record.reply === null && firstFailure === undefined)
          firstFailure = record.error?.message ?? 'no reply';
        inputs.push({
          type: 'llm',
          caller: record.caller,
          fields: record as unknown as Record<string, unknown>,
        });
      });
      return {
        port,
        counters: own,
        llmMs: () => llmMs,
        firstFailure: () => firstFailure,
      };
    },
    close: async () => {
      await server?.close();
    },
  };
}
