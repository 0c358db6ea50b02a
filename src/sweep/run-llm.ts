import { type Json, RngStreams, RunError } from '../core/index.ts';
import {
  type LlmCallRecord,
  type LlmCounters,
  type LlmFlags,
  openLlm,
  resolveLlmConfig,
} from '../llm/index.ts';
import { InputBuffer, type RunOptions } from '../world/index.ts';

/** The LLM of one run in a worker thread: what `runWorld` takes, and how to close it. */
export interface RunLlm {
  services: Pick<RunOptions, 'llm' | 'llmInfo' | 'inputs' | 'fallbacks' | 'shouldStop'>;
  counters: LlmCounters;
  close(): Promise<void>;
}

/**
 * Opens the LLM of one run of a batch from the batch's LLM flags, through the one factory
 * (`openLlm`), as `grapevine run` opens it: its calls are recorded into the run's log (so
 * the log replays offline) and retry jitter comes from the run seed's streams. The flags
 * name an endpoint (or several: an endpoint pool); the caller that had none started the
 * shipped local server once for the whole batch and passes its URL and model here.
 */
export async function openRunLlm(flags: LlmFlags, seed: number): Promise<RunLlm> {
  const config = resolveLlmConfig({ flags, env: process.env });
  const endpoint = await openLlm(config);
  const inputs = new InputBuffer();
  const onRecord = (record: LlmCallRecord) =>
    inputs.push({ type: 'llm', caller: record.caller, fields: record as unknown as Record<string, unknown> });
  const session = endpoint.session({ streams: new RngStreams(seed), onRecord });
  return {
    services: {
      llm: session.port,
      llmInfo: { model: endpoint.model } as { model: string; [key: string]: Json },
      inputs,
      fallbacks: session.counters,
      // the budget of the flags (`budgetTokens`, `budgetUsd`), checked at tick boundaries as in `run`
      shouldStop: () => session.budgetSpent(),
    },
    counters: session.counters,
    close: () => endpoint.close(),
  };
}

/**
 * A run in which every LLM call failed decided nothing (the rule of `grapevine run`
 * without `--allow-fallbacks`): calls `onFailed` (the caller removes the run's log), then
 * @throws RunError naming the failures.
 */
export function checkRunLlm(counters: LlmCounters, onFailed: () => void): void {
  if (counters.calls === 0 || counters.failures < counters.calls) return;
  onFailed();
  throw new RunError(`every LLM call failed (${counters.failures} of ${counters.calls})`, {
    hint: 'check the endpoint (--llm-base-url) and key; the failed calls are in the run log',
  });
}
