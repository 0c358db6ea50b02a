import type { Json } from '../core/index.ts';
import { type LlmCallRecord, replayLlm } from '../llm/index.ts';
import type { InputBuffer } from '../world/index.ts';
import type { LlmSession } from './llm-session.ts';

// Apart from llm-session.ts so that replaying a log loads no LLM client or local server.

/** A sink that puts each settled LLM call record into the run's input buffer. */
export function recordInto(inputs: InputBuffer): (record: LlmCallRecord) => void {
  return (record) =>
    inputs.push({ type: 'llm', caller: record.caller, fields: record as unknown as Record<string, unknown> });
}

/** Opens the LLM for a replay: recorded replies only, never a socket. */
export function openReplayLlm(
  records: LlmCallRecord[],
  info: { model: string; [key: string]: Json },
  inputs: InputBuffer,
): LlmSession {
  const stack = replayLlm(records, { onRecord: recordInto(inputs) });
  return {
    port: stack.port,
    info,
    endpoint: 'replay (no network)',
    counters: stack.counters,
    shouldStop: () => null,
    close: async () => {},
  };
}
