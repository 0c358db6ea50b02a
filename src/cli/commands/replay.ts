import { UsageError } from '../../core/index.ts';
import type { LlmCallRecord } from '../../llm/index.ts';
import { type RecordedRun, type RerunOptions, readRecordedRun, rerunLog } from '../../replay/index.ts';
import { InputBuffer } from '../../world/index.ts';
import { openReplayLlm } from '../llm-session.ts';
import { loadWorldFromHeader } from '../load-world.ts';
import { Progress } from '../progress.ts';

/** Options of `grapevine replay`. */
export interface ReplayCommandOptions {
  verify?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** The recorded LLM replies of a log, served without any network, for worlds that need them. */
export function replayServices(recorded: RecordedRun): RerunOptions['services'] {
  const info = recorded.header.llm as { model: string } | undefined;
  if (!info) return undefined;
  const inputs = new InputBuffer();
  const llm = openReplayLlm(recorded.llmRecords as unknown as LlmCallRecord[], info, inputs);
  return { llm: llm.port, llmInfo: info, inputs, fallbacks: llm.counters };
}

/** `grapevine replay <log> --verify`: reruns a log and proves it reproduces it. */
export async function replayCommand(path: string, opts: ReplayCommandOptions): Promise<number> {
  if (!opts.verify)
    throw new UsageError('replay needs --verify', {
      hint: 'grapevine replay <log> --verify reruns the log and checks it line by line',
    });
  const recorded = await readRecordedRun(path);
  const { def } = await loadWorldFromHeader(recorded.header);
  const progress = new Progress('replay', Boolean(opts.quiet) || Boolean(opts.json));
  const services = replayServices(recorded);
  const result = await rerunLog(recorded, def, {
    onTick: (t, max) => progress.tick(t, max),
    services,
  }).finally(() => progress.stop());
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify({ verified: true, log: path, digest: result.digest, events: result.events, ticks: result.ticks })}\n`,
    );
  } else if (!opts.quiet) {
    process.stdout.write(
      `verified: the rerun reproduces ${path} (${result.events} events, ${result.ticks} ticks)\ndigest ${result.digest}\n`,
    );
  }
  return 0;
}
