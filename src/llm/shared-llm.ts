import { type Json, RngStreams } from '../core/index.ts';
import type { ConcurrencyLimitPort } from './concurrency-limit-port.ts';
import type { LlmConfig } from './llm-config.ts';
import type { LlmCounters } from './llm-counters.ts';
import { type OpenLlmOptions, openLlm } from './open-llm.ts';
import type { LlmPort } from './port.ts';

/** Where one run's recorded calls go (the run's `InputBuffer`, written at each tick's commit). */
export interface RecordSink {
  push(input: { type: string; caller: string; fields: Record<string, unknown> }): void;
}

/** One run's view of a {@link SharedLlm}: its own recorder, retry stream and counters. */
export interface RunLlm {
  port: LlmPort;
  counters: LlmCounters;
  /** Sum of the run's call latencies in ms (its LLM wall time when its calls are sequential). */
  llmMs(): number;
  /** The error of the first call that failed after all retries (connection, 5xx, timeout...), if any. */
  firstFailure(): string | undefined;
}

/**
 * One LLM endpoint shared by many runs (a study's episodes, a batch): one HTTP client, one
 * concurrency limit and one rate limit for all of them, and per run a recorder feeding that
 * run's buffer.
 */
export interface SharedLlm {
  info: { model: string; [key: string]: Json };
  /** Where the calls go (no key), for the logs' wall-clock header part. */
  endpoint: string;
  /** Totals over every run opened on it. */
  counters: LlmCounters;
  /** The shared concurrency limit (its peak in flight). */
  limit: ConcurrencyLimitPort;
  /** A session for the run with this seed, recording into `sink`. */
  forRun(seed: number, sink: RecordSink): RunLlm;
  close(): Promise<void>;
}

/**
 * Opens an LLM shared by many runs through the one factory (`openLlm`). Each run is one
 * session of it, with its own recorder, counters, and retry jitter from its seed's streams
 * (as `grapevine run` draws it from the run seed's), so a run's log is what `grapevine run
 * --seed <seed>` would write, whatever the other runs do. `options.localServer` starts the
 * local endpoint when `config` names none (see `openLlm`).
 */
export async function openSharedLlm(config: LlmConfig, options: OpenLlmOptions = {}): Promise<SharedLlm> {
  const llm = await openLlm(config, options);
  return {
    info: { model: llm.model },
    endpoint: llm.endpoint,
    counters: llm.counters,
    limit: llm.limit,
    forRun(seed, sink) {
      let llmMs = 0;
      let firstFailure: string | undefined;
      const session = llm.session({
        streams: new RngStreams(seed),
        onRecord: (record) => {
          llmMs += record.wall.latencyMs;
          if (record.reply === null && firstFailure === undefined)
            firstFailure = record.error?.message ?? 'no reply';
          sink.push({
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
