import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Json, redactUrlCredentials, UsageError } from '../../core/index.ts';
import type { LlmFlags } from '../../llm/index.ts';
import {
  objectStoreBucket,
  openNatsQueue,
  type RunLimits,
  RunLogStore,
  redactQueueUrl,
  runQueueWorker,
  WorkerWorlds,
} from '../../sweep/index.ts';
import { batchBudget, openBatchLlm } from '../batch-llm.ts';
import type { CliContribution } from '../cli-contribution.ts';
import { type CommandOutput, PROCESS_OUTPUT } from '../command-output.ts';
import { positiveIntFlag } from '../flags.ts';
import { contributionSources, runWorldData } from '../sweep-world-loader.ts';
import { builtinWorldIds } from '../world-catalog.ts';
import { discoverWorldModules } from '../world-type-gate.ts';

/** Options of `grapevine worker` (the LLM flags serve the runs of worlds that need an LLM). */
export interface WorkerCommandOptions extends LlmFlags {
  queue?: string;
  concurrency?: string;
  logs?: string;
  ackWait?: string;
  ackWaitMs?: string;
  quiet?: boolean;
  /** World files this worker may run (repeatable); built-in worlds need none. */
  world?: string[];
  /** Data files (networks, tables) a spec's parameters may name (repeatable). */
  inputFile?: string[];
  maxRunSeconds?: string;
  maxRunEvents?: string;
}

/** A run's wall-clock limit on a worker when `--max-run-seconds` is not given. */
export const DEFAULT_MAX_RUN_SECONDS = 6 * 3600;
/** A run's log-line limit on a worker when `--max-run-events` is not given (a few GB of log). */
export const DEFAULT_MAX_RUN_EVENTS = 50_000_000;

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
  const limits: RunLimits = {
    maxRunMs: (positiveIntFlag('max-run-seconds', opts.maxRunSeconds) ?? DEFAULT_MAX_RUN_SECONDS) * 1000,
    maxEvents: positiveIntFlag('max-run-events', opts.maxRunEvents) ?? DEFAULT_MAX_RUN_EVENTS,
  };
  const worlds = WorkerWorlds.open(builtinWorldIds(), opts.world ?? []);
  const shown = redactQueueUrl(opts.queue);
  const bucket = objectStoreBucket(opts.logs);
  const budget = batchBudget(opts);
  const logs = bucket ? mkdtempSync(join(tmpdir(), 'grapevine-worker-')) : resolve(opts.logs ?? 'sweep-logs');
  // validated before the queue opens; with no endpoint named, the shipped local server serves this worker's runs
  const llm = await openBatchLlm(opts);
  const opened = await openWithStore(opts.queue, ackWaitMs, bucket).catch(async (err) => {
    await llm.close();
    if (bucket) rmSync(logs, { recursive: true, force: true });
    throw err;
  });
  const { queue, store } = opened;
  const stop = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (stop.signal.aborted) process.exit(sig === 'SIGINT' ? 130 : 143);
    io.err(
      `grapevine worker: ${sig} received: ending the runs under way (their specs go back to the queue); again to quit now\n`,
    );
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const loaderUrl = new URL(`../sweep-world-loader${ext}`, import.meta.url).href;
  // each world file's local modules, found once here: its runs' threads check them, never look again
  const dataOf = new Map<string, Json>();
  for (const f of worlds.allowedFiles)
    dataOf.set(
      f.path,
      runWorldData(contributions, {
        kind: 'file',
        modules: await discoverWorldModules(f.path),
      }) as unknown as Json,
    );
  const data = contributionSources(contributions) as unknown as Json;
  if (!opts.quiet)
    io.err(
      `grapevine worker: pulling runs from ${shown} (${concurrency} at once), logs in ${bucket ? `the object store ${bucket}` : logs}, LLM ${llm.model} via ${redactUrlCredentials(llm.endpoint)}; worlds: built-in${worlds.allowedFiles.map((f) => `, ${f.path}`).join('')}\n`,
    );
  let spent = false;
  try {
    spent = await runQueueWorker({
      ...(budget ? { budget } : {}),
      queue,
      concurrency,
      logs,
      worlds,
      limits,
      inputFiles: (opts.inputFile ?? []).map((f) => resolve(f)),
      ...(store ? { store } : {}),
      locate: (ref) => ({ loaderUrl, ref, data: dataOf.get(ref) ?? data }),
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
    if (bucket) rmSync(logs, { recursive: true, force: true });
  }
  if (!spent) return 0;
  io.err(
    "grapevine: this worker's LLM budget is spent: it stopped taking runs (the run it stopped went back to the queue)\n",
  );
  return 1;
}

/** The queue, and the object store bucket when `--logs nats-obj://BUCKET` names one (created if missing). */
async function openWithStore(
  url: string,
  ackWaitMs: number,
  bucket: string | undefined,
): Promise<{ queue: Awaited<ReturnType<typeof openNatsQueue>>; store?: RunLogStore }> {
  const queue = await openNatsQueue(url, ackWaitMs);
  if (!bucket) return { queue };
  try {
    return { queue, store: await RunLogStore.open(queue.js, bucket) };
  } catch (cause) {
    await queue.nc.close();
    throw new UsageError(
      `cannot open the object store ${bucket} at ${redactQueueUrl(url)}: ${(cause as Error).message}`,
      {
        cause,
        hint: 'the server needs JetStream with room for the logs (docs/DISTRIBUTED.md)',
      },
    );
  }
}
