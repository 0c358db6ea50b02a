import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  ConfigError,
  checkJsonShape,
  formatNumber,
  isGrapevineError,
  RngStreams,
  UsageError,
} from '../../core/index.ts';
import type { LlmFlags } from '../../llm/index.ts';
import { GuardedLog, holdLogLock, LogWriter } from '../../replay/index.ts';
import {
  checkNetworkParamsApplied,
  InputBuffer,
  type LogLevel,
  parseAssignments,
  resolveParams,
  runWorld,
} from '../../world/index.ts';
import { costKnown, describeCounters } from '../describe-counters.ts';
import { checkFileDrivenParams } from '../file-driven-params.ts';
import { configInt, intFlag } from '../flags.ts';
import { reportInterrupted, StopOnSignal } from '../interrupt.ts';
import { loadWorld } from '../load-world.ts';
import { checkOutputFile } from '../output-file.ts';
import { Progress } from '../progress.ts';

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
  /** `--executor xstate|columnar`: force the agents' executor (default: chosen for the world). */
  executor?: string;
  /** False with `--no-check`: a world file is not type-checked first. */
  check?: boolean;
}

/** LLM flags of `run` (used by worlds that need an LLM). */
export type RunLlmOptions = LlmFlags & { allowFallbacks?: boolean };

function readConfig(path: string | undefined): {
  params: Record<string, unknown>;
  seed?: number;
  ticks?: number;
} {
  if (!path) return { params: {} };
  if (!existsSync(path) || !statSync(path).isFile())
    throw new ConfigError(`config file not found: ${path}`, { hint: 'check the path given to --config' });
  if (statSync(path).size > MAX_CONFIG_BYTES)
    throw new ConfigError(`config file ${path} is larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`config file ${path} is not valid JSON: ${(cause as Error).message}`, {
      cause,
      hint: 'the file must be a JSON object of parameters, or {"params": {...}, "seed": N, "ticks": N}',
    });
  }
  checkJsonShape(raw, `config file ${path}`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ConfigError(`config file ${path} must hold a JSON object`, {
      hint: 'the file must be a JSON object of parameters, or {"params": {...}, "seed": N, "ticks": N}',
    });
  const obj = raw as Record<string, unknown>;
  if (!('params' in obj)) return { params: obj };
  const params = obj.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw new ConfigError(`config file ${path}: params must be a JSON object`);
  const extra = Object.keys(obj).filter((k) => !['params', 'seed', 'ticks'].includes(k));
  if (extra.length)
    throw new ConfigError(`config file ${path}: unknown field ${extra.join(', ')}`, {
      hint: 'a config file is {"params": {...}, "seed": N, "ticks": N}, or an object of parameters',
    });
  return {
    params: params as Record<string, unknown>,
    seed: configInt('seed', obj.seed, `config file ${path}`),
    ticks: configInt('ticks', obj.ticks, `config file ${path}`),
  };
}

const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** `--executor`: absent (chosen for the world), `xstate` or `columnar`. */
function executorFlag(value: string | undefined): 'xstate' | 'columnar' | undefined {
  if (value === undefined || value === 'xstate' || value === 'columnar') return value;
  throw new UsageError(`--executor must be xstate or columnar, got "${value}"`, {
    hint: 'leave it out to let grapevine choose for the world',
  });
}

function defaultOut(world: string, seed: number): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return `replays/${world}-s${seed}-${stamp}.ndjson`;
}

/** A JSON replacer for text output: fractions to 4 significant digits, as every printed number. */
const readable = (_key: string, v: unknown) =>
  typeof v === 'number' && !Number.isInteger(v) && Number.isFinite(v) ? Number(formatNumber(v)) : v;

/** `grapevine run`: runs a world and writes its replay log. Returns the exit code. */
export async function runCommand(ref: string, opts: RunCommandOptions & RunLlmOptions): Promise<number> {
  const level = (opts.log ?? 'minimal') as LogLevel;
  if (level !== 'minimal' && level !== 'full')
    throw new UsageError(`--log must be minimal or full, got "${opts.log}"`);
  const config = readConfig(opts.config);
  const seed = intFlag('seed', opts.seed) ?? config.seed ?? 1;
  const ticks = intFlag('ticks', opts.ticks) ?? config.ticks;
  const snapshotEvery = intFlag('snapshot-every', opts.snapshotEvery) ?? 0;
  const params = { ...config.params, ...parseAssignments(opts.set ?? []) };
  const { def, source, responders } = await loadWorld(ref, { check: opts.check });
  const out = opts.out ?? defaultOut(def.id, seed);
  checkOutputFile(out, opts.force);
  // --force replaces a symlink itself: the log is never written through it
  if (opts.force && lstatSync(out, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(out);
  checkNetworkParamsApplied(def, params, resolveParams(def, params));
  const inputs = new InputBuffer();
  // loaded only for LLM worlds: a rule world's run then loads no LLM client or local server
  const session = def.needsLlm ? await import('../llm-session.ts') : undefined;
  const llmConfig = session?.resolveRunLlm(opts); // validated before anything opens
  const llm = llmConfig
    ? await session?.openLiveLlm(llmConfig, new RngStreams(seed), inputs, responders)
    : undefined;
  const progress = new Progress(def.id, Boolean(opts.quiet) || Boolean(opts.json));
  const signals = new StopOnSignal();
  const started = Date.now();
  const wall = { startedAt: new Date(started).toISOString(), ...(llm ? { llmEndpoint: llm.endpoint } : {}) };
  let result: Awaited<ReturnType<typeof runWorld>>;
  let log: GuardedLog | undefined;
  let release = () => {};
  try {
    result = await runWorld(def, {
      params,
      seed,
      ticks,
      level,
      source,
      snapshotEvery,
      executor: executorFlag(opts.executor),
      executorBy: '--executor',
      openLog: (header) => {
        checkFileDrivenParams(def, params, header.params as Record<string, unknown>, header.size as number);
        // held while this process writes the log: a `resume` of it, or another run forced onto
        // it, is refused meanwhile; taken before the file is created, so a forced run never
        // truncates a log a live process is writing
        mkdirSync(dirname(out), { recursive: true });
        release = holdLogLock(out);
        log = new GuardedLog(
          LogWriter.create(out, { ...header, wall }, { exclusive: !opts.force, index: true }),
        );
        return log;
      },
      onTick: (t, max) => {
        progress.tick(t, max);
        return signals.onTick(t);
      },
      ...(llm
        ? {
            llm: llm.port,
            llmInfo: llm.info,
            inputs,
            fallbacks: llm.counters,
            shouldStop: () => llm.shouldStop(),
          }
        : {}),
    });
  } catch (err) {
    progress.stop();
    const code = reportInterrupted(
      err,
      `the log ${out} holds every tick up to it: continue with: grapevine resume ${out}`,
    );
    if (code !== undefined) return code;
    // bad input found once the log was open, before its first tick (a world's tick-0 check):
    // leave no log behind; a log with a complete tick is kept, whatever stopped it
    if (log && !log.ticked && isGrapevineError(err) && err.exitCode === 2) rmSync(out, { force: true });
    throw err;
  } finally {
    release();
    signals.dispose();
    progress.stop();
    await llm?.close();
  }
  const wallMs = Date.now() - started;
  const llmWarning = llm
    ? session?.checkLlmFailures(llm.counters, Boolean(opts.allowFallbacks), llm.unreachable?.())
    : undefined;
  if (llmWarning) process.stderr.write(`grapevine: warning: ${llmWarning}\n`);
  const llmSummary = llm
    ? {
        llm: {
          ...llm.counters,
          costUsd: Number(llm.counters.costUsd.toFixed(6)),
          model: llm.info.model,
          ...(costKnown(llm.info.model) ? {} : { costKnown: false }),
        },
      }
    : {};
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ ...result, ...llmSummary, log: out, wallMs })}\n`);
  } else if (!opts.quiet) {
    process.stdout.write(
      `${def.id} seed ${seed}: ${result.ticks} ticks (${result.reason}), ${result.size} agents, ${result.steps} steps, ${result.deliveries} deliveries in ${formatNumber(wallMs / 1000, 3)} s\n` +
        (llm ? `llm ${describeCounters(llm.counters, llm.info.model)} via ${llm.endpoint}\n` : '') +
        `executor ${result.executor.kind}: ${result.executor.reason}\n` +
        `summary ${JSON.stringify(result.summary, readable)}\nlog ${out}\ndigest ${result.digest}\n`,
    );
  }
  // loaded only for --report: the report's figures and their libraries cost a rule run ~0.1 CPU s at start-up
  if (opts.report)
    await (await import('../run-report.ts')).reportCommand(out, {
      quiet: opts.quiet || opts.json,
      force: opts.force,
    });
  return 0;
}
