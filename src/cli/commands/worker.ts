import { resolve } from 'node:path';
import { type Json, UsageError } from '../../core/index.ts';
import type { LlmFlags } from '../../llm/index.ts';
import { openNatsQueue, runQueueWorker } from '../../sweep/index.ts';
import { openBatchLlm } from '../batch-llm.ts';
import type { CliContribution } from '../cli-contribution.ts';
import { type CommandOutput, PROCESS_OUTPUT } from '../command-output.ts';
import { positiveIntFlag } from '../flags.ts';
import { contributionSources } from '../sweep-world-loader.ts';

/** Options of `grapevine worker` (the LLM flags serve the runs of worlds that need an LLM). */
export interface WorkerCommandOptions extends LlmFlags {
  queue?: string;
  concurrency?: string;
  logs?: string;
  ackWait?: string;
  ackWaitMs?: string;
  quiet?: boolean;
}

/** `grapevine worker`: runs the specs of sweeps published on a NATS JetStream queue until stopped. */
export async function workerCommand(
  opts: WorkerCommandOptions,
  contributions: readonly CliContribution[],
  io: CommandOutput = PROCESS_OUTPUT,
): Promise<number> {
  if (!opts.queue)
    throw new UsageError('worker needs --queue nats://HOST:PORT', { hint: 'docs/DISTRIBUTED.md' });
  const concurrency = positiveIntFlag('concurrency', opts.concurrency) ?? 1;
  if (opts.ackWait !== undefined && opts.ackWaitMs !== undefined)
    throw new UsageError('give --ack-wait or --ack-wait-ms, not both', { hint: '--ack-wait-ms 500' });
  const ackWaitMs =
    positiveIntFlag('ack-wait-ms', opts.ackWaitMs) ??
    (positiveIntFlag('ack-wait', opts.ackWait) ?? 30) * 1000;
  const logs = resolve(opts.logs ?? 'sweep-logs');
  // validated before the queue opens; with no endpoint named, the shipped local server serves this worker's runs
  const llm = await openBatchLlm(opts);
  const queue = await openNatsQueue(opts.queue, ackWaitMs).catch(async (err) => {
    await llm.close();
    throw err;
  });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const loaderUrl = new URL(`../sweep-world-loader${ext}`, import.meta.url).href;
  const data = contributionSources(contributions) as unknown as Json;
  if (!opts.quiet)
    io.err(
      `grapevine worker: pulling runs from ${opts.queue} (${concurrency} at once), logs in ${logs}, LLM ${llm.model} via ${llm.endpoint}\n`,
    );
  try {
    await runQueueWorker({
      queue,
      concurrency,
      logs,
      locate: (ref) => ({ loaderUrl, ref, data }),
      signal: stop.signal,
      llm: llm.flags,
      onReused: (run) => {
        if (!opts.quiet) io.err(`grapevine worker: ${run.sweep} ${run.id} reused (its log verifies here)\n`);
      },
      onStart: (run) => {
        if (!opts.quiet) io.err(`grapevine worker: ${run.sweep} ${run.id} started\n`);
      },
      onResult: (r) => {
        if (!opts.quiet)
          io.err(
            `grapevine worker: ${r.sweep} ${r.id} ${'error' in r ? `failed: ${r.error.message}` : r.digest}\n`,
          );
      },
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await queue.nc.close();
    await llm.close();
  }
  return 0;
}
