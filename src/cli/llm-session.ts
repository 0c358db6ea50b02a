import { type Json, type RngStreams, RunError } from '../core/index.ts';
import {
  type LlmConfig,
  type LlmCounters,
  type LlmFlags,
  type LlmPort,
  openLlm,
  resolveLlmConfig,
} from '../llm/index.ts';
import type { LlmResponder } from '../llm-server/index.ts';
import type { InputBuffer } from '../world/index.ts';
import { shippedServerStarter } from './local-llm.ts';
import { recordInto } from './replay-llm-session.ts';

export { openContinuationLlm } from '../replay/index.ts';
export { shippedServerStarter } from './local-llm.ts';
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
  /** Why the endpoint cannot be reached, once no call ever connected; else undefined. */
  unreachable?(): string | undefined;
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
 * `--llm-base-url` / `OPENAI_BASE_URL`, a `provider:name` model, or the shipped local server
 * (with the contributions' responders and `responders`, a world file's own). `config` comes
 * from {@link resolveRunLlm}, called before anything was opened. Retry jitter comes from the
 * run's streams.
 * The budget is checked at tick boundaries so that a run stops with a complete log.
 */
export async function openLiveLlm(
  config: LlmConfig,
  streams: RngStreams,
  inputs: InputBuffer,
  responders: readonly LlmResponder[] = [],
): Promise<LlmSession> {
  const llm = await openLlm(config, { localServer: shippedServerStarter(responders) });
  const session = llm.session({ streams, onRecord: recordInto(inputs) });
  return {
    port: session.port,
    info: { model: llm.model },
    endpoint: llm.endpoint,
    counters: session.counters,
    shouldStop: () => session.budgetSpent(),
    unreachable: () => session.unreachable?.(),
    close: () => llm.close(),
  };
}

/**
 * Item 12 of the reliability issue: a run in which every LLM call failed (refused
 * connection, 401...) decided nothing: it failed (exit 1), unless the user asked for
 * fallbacks. Some failed calls only warn.
 */
export function checkLlmFailures(
  counters: LlmCounters,
  allowFallbacks: boolean,
  unreachable?: string,
): string | undefined {
  if (counters.failures === 0) return undefined;
  const all = counters.failures === counters.calls;
  if (all && !allowFallbacks)
    throw new RunError(
      unreachable
        ? `every LLM call failed (${counters.failures} of ${counters.calls}): the endpoint cannot be reached, ${unreachable}`
        : `every LLM call failed (${counters.failures} of ${counters.calls}); no agent decided anything`,
      {
        hint: unreachable
          ? 'start the server, or fix --llm-base-url / OPENAI_BASE_URL (or leave both out for the shipped local server); --allow-fallbacks accepts a run of default actions'
          : 'check the endpoint and key (see the llm events in the log for the errors), or pass --allow-fallbacks to accept a run of default actions',
      },
    );
  return `${counters.failures} of ${counters.calls} LLM calls failed after all retries; those agents fell back to their default action (see the llm events in the log)`;
}
