import { type Json, RngStreams } from '../../core/index.ts';
import {
  type LlmCallRecord,
  type LlmFlags,
  type LocalEndpointStarter,
  openLlm,
  ParentTailPort,
  replayLlm,
  resolveLlmConfig,
  SwitchingPort,
} from '../../llm/index.ts';
import { InputBuffer } from '../../world/index.ts';
import type { RecordedRun } from '../read/recorded-run.ts';
import { type ContinueOptions, recordsToReplay } from './continue-run.ts';

/** The LLM of a continued run: what `continueRun` takes, where live calls go, how to close it. */
interface ContinuationLlm {
  services: NonNullable<ContinueOptions['services']>;
  /** Where the live calls go, for the log header's wall-clock part (not hashed). */
  endpoint: string;
  close(): Promise<void>;
}

/**
 * The LLM of a run continued after `atTick` (fork, resume, a fork batch's worker thread): the
 * recorded replies after its restore point up to `atTick`, then a live endpoint (the parent's
 * model unless `flags.model` says; `opts.localServer` starts one unless a URL is given), and with
 * `reuseParentTail` (a fork without intervention) the parent's later calls first (ParentTailPort).
 * Flags and variables are validated (ConfigError) before anything opens; retry jitter is drawn
 * from the run seed's streams, as in `run`. Below the CLI, so that pool threads use it too.
 */
export async function openContinuationLlm(
  recorded: RecordedRun,
  atTick: number,
  flags: LlmFlags,
  env: Record<string, string | undefined> = process.env,
  opts: { reuseParentTail?: boolean; localServer?: LocalEndpointStarter } = {},
): Promise<ContinuationLlm> {
  const info = recorded.header.llm as { model: string; [key: string]: Json };
  const config = resolveLlmConfig({ flags: { ...flags, model: flags.model ?? info.model }, env });
  const inputs = new InputBuffer();
  const onRecord = (record: LlmCallRecord) =>
    inputs.push({ type: 'llm', caller: record.caller, fields: record as unknown as Record<string, unknown> });
  const past = replayLlm(recordsToReplay(recorded, atTick) as unknown as LlmCallRecord[], { onRecord });
  const tail = recorded.llmRecords.filter((r) => (r.tick as number) > atTick) as unknown as LlmCallRecord[];
  const llm = await openLlm(config, { localServer: opts.localServer });
  let live: ReturnType<typeof llm.session>;
  try {
    live = llm.session({ streams: new RngStreams(recorded.header.seed as number), onRecord });
  } catch (err) {
    await llm.close(); // a local server this opened does not outlive a failed session
    throw err;
  }
  const future = opts.reuseParentTail
    ? new ParentTailPort(tail, replayLlm(tail, { onRecord }).port, live.port)
    : live.port;
  return {
    services: {
      llm: new SwitchingPort(past.port, future, atTick),
      llmInfo: info,
      inputs,
      fallbacks: live.counters,
      shouldStop: () => live.budgetSpent(),
    },
    endpoint: llm.endpoint,
    close: () => llm.close(),
  };
}
