import type { LlmCallRecord } from '../llm/index.ts';
import type { RecordedRun, RerunOptions } from '../replay/index.ts';
import { InputBuffer } from '../world/index.ts';
import { openReplayLlm } from './replay-llm-session.ts';

/** The recorded LLM replies of a log, served without any network, for worlds that need them. */
export function replayServices(recorded: RecordedRun): RerunOptions['services'] {
  const info = recorded.header.llm as { model: string } | undefined;
  if (!info) return undefined;
  const inputs = new InputBuffer();
  const llm = openReplayLlm(recorded.llmRecords as unknown as LlmCallRecord[], info, inputs);
  return { llm: llm.port, llmInfo: info, inputs, fallbacks: llm.counters };
}
