import { type Json, RngStreams, RunError } from '../core/index.ts';
import {
  type LlmCallRecord,
  type LlmConfig,
  type LlmCounters,
  type LlmFlags,
  type LlmPort,
  openLlm,
  ParentTailPort,
  resolveLlmConfig,
  SwitchingPort,
} from '../llm/index.ts';
import { type ContinueOptions, type RecordedRun, recordsToReplay } from '../replay/index.ts';
import { InputBuffer } from '../world/index.ts';
import { openReplayLlm, recordInto } from './replay-llm-session.ts';

export { openReplayLlm } from './replay-llm-session.ts';

/** An LLM wired into a run: the recorded port, header info, counters, a budget check. */
export interface LlmSession {
  port: LlmPort;
  info: { model: string; [key: string]: Json };
  /** Where the calls go, for the log header's wall-clock part (not hashed: it differs between machines). */
  endpoint: string;
  counters: LlmCounters;
  /** A reason to stop at a tick boundary (budget spent), or null. */
  shouldStop(): string | null;
  close(): Promise<void>;
}

/**
 * Validates every LLM flag and variable (a ConfigError, exit 2), touching nothing: call it
 * before opening anything that must be closed.
 */
export function resolveRunLlm(
  flags: LlmFlags,
  env: Record<string, string | undefined> = process.env,
): LlmConfig {
  return resolveLlmConfig({ flags, env });
}

/**
 * Opens the LLM for a live run through the one factory (`openLlm`): the endpoint from
 * `--llm-base-url` / `OPENAI_BASE_URL`, a `provider:name` model, or the shipped local server.
 * `config` comes from {@link resolveRunLlm}, called before anything was opened. Retry jitter
 * comes from the run's streams.
 * The budget is checked at tick boundaries so that a run stops with a complete log.
 */
export async function openLiveLlm(
  config: LlmConfig,
  streams: RngStreams,
  inputs: InputBuffer,
): Promise<LlmSession> {
  const llm = await openLlm(config);
  const session = llm.session({ streams, onRecord: recordInto(inputs) });
  return {
    port: session.port,
    info: { model: config.model },
    endpoint: llm.endpoint,
    counters: session.counters,
    shouldStop: () => session.budgetSpent(),
    close: () => llm.close(),
  };
}

/**
 * The LLM of a run continued after `atTick` (fork, resume): the recorded replies after its
 * restore point up to `atTick`, then a live endpoint (the local server unless a URL is
 * given, the parent's model unless `--model` is given). Flags and variables are validated
 * before anything opens. Retry jitter is drawn from the run seed's streams, as in `run`.
 */
export async function openContinuationLlm(
  recorded: RecordedRun,
  atTick: number,
  flags: LlmFlags,
  env: Record<string, string | undefined> = process.env,
  opts: { reuseParentTail?: boolean } = {},
): Promise<{ services: NonNullable<ContinueOptions['services']>; endpoint: string; close(): Promise<void> }> {
  const info = recorded.header.llm as { model: string };
  const config = resolveRunLlm({ ...flags, model: flags.model ?? info.model }, env);
  const inputs = new InputBuffer();
  const past = openReplayLlm(recordsToReplay(recorded, atTick) as unknown as LlmCallRecord[], info, inputs);
  const live = await openLiveLlm(config, new RngStreams(recorded.header.seed as number), inputs);
  // A fork without intervention replays the parent's later calls too (see ParentTailPort).
  const tail = recorded.llmRecords.filter((r) => (r.tick as number) > atTick) as unknown as LlmCallRecord[];
  const future = opts.reuseParentTail
    ? new ParentTailPort(tail, openReplayLlm(tail, info, inputs).port, live.port)
    : live.port;
  return {
    services: {
      llm: new SwitchingPort(past.port, future, atTick),
      llmInfo: info,
      inputs,
      fallbacks: live.counters,
      shouldStop: () => live.shouldStop(),
    },
    endpoint: live.endpoint,
    close: () => live.close(),
  };
}

/**
 * Item 12 of the reliability issue: a run in which every LLM call failed (refused
 * connection, 401...) decided nothing: it failed (exit 1), unless the user asked for
 * fallbacks. Some failed calls only warn.
 */
export function checkLlmFailures(counters: LlmCounters, allowFallbacks: boolean): string | undefined {
  if (counters.failures === 0) return undefined;
  const all = counters.failures === counters.calls;
  if (all && !allowFallbacks)
    throw new RunError(
      `every LLM call failed (${counters.failures} of ${counters.calls}); no agent decided anything`,
      {
        hint: 'check the endpoint and key (see the llm events in the log for the errors), or pass --allow-fallbacks to accept a run of default actions',
      },
    );
  return `${counters.failures} of ${counters.calls} LLM calls failed after all retries; those agents fell back to their default action (see the llm events in the log)`;
}
