import { existsSync, readFileSync } from 'node:fs';
import { ConfigError, UsageError } from '../../core/index.ts';
import type { LlmCounters, LlmFlags } from '../../llm/index.ts';
import { LogWriter } from '../../replay/index.ts';
import { InputBuffer, type LogLevel, parseAssignments, runWorld } from '../../world/index.ts';
import { openLiveLlm } from '../llm-session.ts';
import { loadWorld } from '../load-world.ts';
import { Progress } from '../progress.ts';
import { reportCommand } from './report.ts';

/** Options of `grapevine run`. */
export interface RunCommandOptions {
  seed?: string;
  set?: string[];
  config?: string;
  ticks?: string;
  out?: string;
  log?: string;
  json?: boolean;
  quiet?: boolean;
  force?: boolean;
  snapshotEvery?: string;
  /** Also write the run's HTML report beside the log and print its path. */
  report?: boolean;
}

/** LLM flags of `run` (used by worlds that need an LLM). */
export type RunLlmOptions = LlmFlags;

/** Parses a non-negative integer flag. */
export function intFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer, got "${value}"`);
  return Number(value);
}

function readConfig(path: string | undefined): {
  params: Record<string, unknown>;
  seed?: number;
  ticks?: number;
} {
  if (!path) return { params: {} };
  if (!existsSync(path))
    throw new ConfigError(`config file not found: ${path}`, { hint: 'check the path given to --config' });
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`config file ${path} is not valid JSON: ${(cause as Error).message}`, {
      cause,
      hint: 'the file must be a JSON object of parameters, or {"params": {...}, "seed": N, "ticks": N}',
    });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ConfigError(`config file ${path} must hold a JSON object`);
  const obj = raw as Record<string, unknown>;
  if ('params' in obj)
    return {
      params: obj.params as Record<string, unknown>,
      seed: obj.seed as number,
      ticks: obj.ticks as number,
    };
  return { params: obj };
}

/** One line of LLM counters for the run summary. */
export function describeCounters(c: LlmCounters): string {
  return `${c.calls} calls, ${c.tokensIn} tokens in / ${c.tokensOut} out, ${c.retries} retries, ${c.failures} failed calls, ${c.fallbacks} fallbacks, $${c.costUsd.toFixed(4)}, ${c.cacheHits} cache hits`;
}

function defaultOut(world: string, seed: number): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return `runs/${world}-s${seed}-${stamp}.ndjson`;
}

/** `grapevine run`: runs a world and writes its replay log. Returns the exit code. */
export async function runCommand(ref: string, opts: RunCommandOptions & RunLlmOptions): Promise<number> {
  const level = (opts.log ?? 'minimal') as LogLevel;
  if (level !== 'minimal' && level !== 'full')
    throw new UsageError(`--log must be minimal or full, got "${opts.log}"`);
  const config = readConfig(opts.config);
  const seed = intFlag('seed', opts.seed) ?? config.seed ?? 1;
  const ticks = intFlag('ticks', opts.ticks) ?? config.ticks;
  const { def, source } = await loadWorld(ref);
  const params = { ...config.params, ...parseAssignments(opts.set ?? []) };
  const out = opts.out ?? defaultOut(def.id, seed);
  if (existsSync(out) && !opts.force)
    throw new UsageError(`${out} already exists`, {
      hint: 'choose another --out, or add --force to overwrite it',
    });
  const inputs = new InputBuffer();
  const llm = def.needsLlm ? await openLiveLlm(opts, process.env, seed, inputs) : undefined;
  const progress = new Progress(def.id, Boolean(opts.quiet) || Boolean(opts.json));
  const started = Date.now();
  const wall = { startedAt: new Date(started).toISOString(), ...(llm ? { llmEndpoint: llm.endpoint } : {}) };
  const result = await runWorld(def, {
    params,
    seed,
    ticks,
    level,
    source,
    snapshotEvery: intFlag('snapshot-every', opts.snapshotEvery) ?? 0,
    openLog: (header) => LogWriter.create(out, { ...header, wall }),
    onTick: (t, max) => progress.tick(t, max),
    ...(llm
      ? {
          llm: llm.port,
          llmInfo: llm.info,
          inputs,
          fallbacks: llm.counters,
          shouldStop: () => llm.shouldStop(),
        }
      : {}),
  }).finally(async () => {
    progress.stop();
    await llm?.close();
  });
  const wallMs = Date.now() - started;
  if (llm && llm.counters.failures > 0) {
    process.stderr.write(
      `grapevine: warning: ${llm.counters.failures} of ${llm.counters.calls} LLM calls failed after all retries; those agents fell back to their default action (see the llm events in the log)\n`,
    );
  }
  const llmSummary = llm
    ? { llm: { ...llm.counters, costUsd: Number(llm.counters.costUsd.toFixed(6)) } }
    : {};
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ ...result, ...llmSummary, log: out, wallMs })}\n`);
  } else if (!opts.quiet) {
    process.stdout.write(
      `${def.id} seed ${seed}: ${result.ticks} ticks (${result.reason}), ${result.size} agents, ${result.steps} steps, ${result.deliveries} deliveries in ${(wallMs / 1000).toFixed(2)} s\n` +
        (llm ? `llm ${describeCounters(llm.counters)} via ${llm.endpoint}\n` : '') +
        `summary ${JSON.stringify(result.summary)}\nlog ${out}\ndigest ${result.digest}\n`,
    );
  }
  if (opts.report) await reportCommand(out, { quiet: opts.quiet || opts.json });
  return 0;
}
