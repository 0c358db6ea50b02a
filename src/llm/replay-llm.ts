import type { LlmCounters } from './llm-counters.ts';
import { countCall, zeroCounters } from './llm-counters.ts';
import { DEFAULT_MODEL_PRICES } from './model-prices.ts';
import type { LlmSessionOptions, OpenLlmOptions } from './open-llm.ts';
import type { LlmPort } from './port.ts';
import { type LlmCallRecord, RecordingPort } from './recording-port.ts';
import { ReplayingPort } from './replaying-port.ts';

// Apart from open-llm.ts so that a replay loads no client, server or retry code.

/** A replay: recorded calls only, never a socket. */
export interface LlmReplay {
  port: LlmPort;
  counters: LlmCounters;
  /** The replaying port (to check that every recording was used). */
  replay: ReplayingPort;
}

/**
 * The replay twin of {@link openLlm}: recorder → replaying port, so that a replayed run
 * emits the same records as the original (latency aside) and counts them the same way.
 */
export function replayLlm(
  records: readonly LlmCallRecord[],
  options: Pick<LlmSessionOptions, 'onRecord' | 'now'> & Pick<OpenLlmOptions, 'prices'> = {},
): LlmReplay {
  const prices = { ...DEFAULT_MODEL_PRICES, ...options.prices };
  const counters = zeroCounters();
  const replay = new ReplayingPort(records);
  const sink = (record: LlmCallRecord) => {
    countCall(counters, record, prices);
    options.onRecord?.(record);
  };
  return { port: new RecordingPort(replay, sink, { now: options.now }), counters, replay };
}
