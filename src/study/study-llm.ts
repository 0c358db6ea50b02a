import { type Json, RngStreams } from '../core/index.ts';
import {
  type ConcurrencyLimitPort,
  type LlmConfig,
  type LlmCounters,
  type LlmFlags,
  type LlmPort,
  openLlm,
  resolveLlmConfig,
} from '../llm/index.ts';
import type { InputBuffer } from '../world/index.ts';
/** The LLM flags of `grapevine study` (those of `run` but the budget and the cache). */
export type StudyLlmFlags = Pick<
  LlmFlags,
  'llmBaseUrl' | 'model' | 'llmConcurrency' | 'llmRpm' | 'llmTpm' | 'llmTimeoutMs' | 'llmAttempts'
>;

/**
 * Resolves and validates the study's LLM flags and variables as `grapevine run` does
 * (`resolveLlmConfig`: without `--llm-base-url` and `OPENAI_BASE_URL` the shipped local
 * server, model `grapevine-local`), touching nothing. A {@link ConfigError} for a bad URL,
 * number or missing key. The result goes to {@link openStudyLlm}: resolved once.
 */
export function resolveStudyLlm(flags: StudyLlmFlags, env: Record<string, string | undefined>): LlmConfig {
  return resolveLlmConfig({ flags, env });
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
 * Opens the study's LLM through the one factory (`openLlm`): the endpoint's client and
 * limits are shared by every episode; each episode is one session of it, with its own
 * recorder (into the episode's buffer), counters, and retry jitter from the episode seed's
 * streams (as `run` draws it from the run seed's). An episode's log is thus what
 * `grapevine run sotopia --seed <episode seed>` would write, whatever the other episodes do.
 */
export async function openStudyLlm(config: LlmConfig): Promise<StudyLlm> {
  const llm = await openLlm(config);
  return {
    info: { model: llm.model },
    endpoint: llm.endpoint,
    counters: llm.counters,
    limit: llm.limit,
    forEpisode(seed, inputs) {
      let llmMs = 0;
      let firstFailure: string | undefined;
      const session = llm.session({
        streams: new RngStreams(seed),
        onRecord: (record) => {
          llmMs += record.wall.latencyMs;
          if (record.reply === null && firstFailure === undefined)
            firstFailure = record.error?.message ?? 'no reply';
          inputs.push({
            type: 'llm',
            caller: record.caller,
            fields: record as unknown as Record<string, unknown>,
          });
        },
      });
      return {
        port: session.port,
        counters: session.counters,
        llmMs: () => llmMs,
        firstFailure: () => firstFailure,
      };
    },
    close: () => llm.close(),
  };
}
