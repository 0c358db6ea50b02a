import type { Json } from '../core/index.ts';
import { RngStreams } from '../core/index.ts';
import {
  createLlmStack,
  describeEndpoint,
  type LlmCallRecord,
  type LlmCounters,
  type LlmFlags,
  type LlmPort,
  ParentTailPort,
  resolveLlmConfig,
  SwitchingPort,
  startLocalLlmServer,
} from '../llm/index.ts';
import { type ContinueOptions, type RecordedRun, recordsToReplay } from '../replay/index.ts';
import { InputBuffer } from '../world/index.ts';

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

function recordInto(inputs: InputBuffer): (record: LlmCallRecord) => void {
  return (record) =>
    inputs.push({ type: 'llm', caller: record.caller, fields: record as unknown as Record<string, unknown> });
}

/**
 * Opens the LLM for a live run: the endpoint from `--llm-base-url` / `OPENAI_BASE_URL`, or,
 * when neither is given, the shipped local server started on a free loopback port. The
 * budget is enforced at tick boundaries so that a run stops with a complete log.
 */
export async function openLiveLlm(
  flags: LlmFlags,
  env: Record<string, string | undefined>,
  seed: number,
  inputs: InputBuffer,
): Promise<LlmSession> {
  const explicit = flags.llmBaseUrl ?? env.OPENAI_BASE_URL;
  const server = explicit ? undefined : await startLocalLlmServer({ port: 0 });
  const config = resolveLlmConfig({
    flags: {
      ...flags,
      llmBaseUrl: explicit ?? server!.url,
      model: flags.model ?? (server ? 'grapevine-local' : undefined),
    },
    env,
  });
  const stack = createLlmStack(
    {
      mode: 'live',
      ...config,
      budgetTokens: undefined,
      budgetUsd: undefined,
      retry: { maxAttempts: config.maxAttempts },
    },
    { onRecord: recordInto(inputs), rng: new RngStreams(seed).stream('llm-retry') },
  );
  return {
    port: stack.port,
    info: { model: config.model },
    endpoint: describeEndpoint(config) + (server ? ' (shipped local server)' : ''),
    counters: stack.counters,
    shouldStop: () => {
      const c = stack.counters;
      if (config.budgetTokens !== undefined && c.tokensIn + c.tokensOut >= config.budgetTokens)
        return 'budget-exhausted';
      if (config.budgetUsd !== undefined && c.costUsd >= config.budgetUsd) return 'budget-exhausted';
      return null;
    },
    close: async () => {
      await server?.close();
    },
  };
}

/** Opens the LLM for a replay: recorded replies only, never a socket. */
export function openReplayLlm(
  records: LlmCallRecord[],
  info: { model: string; [key: string]: Json },
  inputs: InputBuffer,
): LlmSession {
  const stack = createLlmStack({ mode: 'replay', records }, { onRecord: recordInto(inputs) });
  return {
    port: stack.port,
    info,
    endpoint: 'replay (no network)',
    counters: stack.counters,
    shouldStop: () => null,
    close: async () => {},
  };
}

/**
 * The LLM of a run continued after `atTick` (fork, resume): the recorded replies after its
 * restore point up to `atTick`, then a live endpoint (the local server unless a URL is given).
 */
export async function openContinuationLlm(
  recorded: RecordedRun,
  atTick: number,
  flags: LlmFlags,
  opts: { reuseParentTail?: boolean } = {},
): Promise<{ services: NonNullable<ContinueOptions['services']>; endpoint: string; close(): Promise<void> }> {
  const inputs = new InputBuffer();
  const info = recorded.header.llm as { model: string };
  const past = openReplayLlm(recordsToReplay(recorded, atTick) as unknown as LlmCallRecord[], info, inputs);
  const live = await openLiveLlm(
    { ...flags, model: flags.model ?? info.model },
    process.env,
    recorded.header.seed as number,
    inputs,
  );
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
