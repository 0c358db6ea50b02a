import { chooseExecutor, type ExecutorChoice, type ExecutorKind } from '../agent/index.ts';
import { ConfigError, ENGINE_VERSION, type Json, RngStreams, RunError } from '../core/index.ts';
import type { LlmPort } from '../llm/port.ts';
import type { WorldDefinition, WorldInstance } from './define-world.ts';
import { Engine, type EngineState } from './engine.ts';
import { guardParams } from './guarded-params.ts';
import { InputBuffer } from './input-buffer.ts';
import type { Intervention } from './intervention.ts';
import { resolveParams } from './resolve-params.ts';
import type { LogLevel, RunLog } from './run-log.ts';
import { checkShapeFits } from './run-memory.ts';
import { checkTicksFit } from './tick-budget.ts';
import type { WorldView } from './world-view.ts';

/** How to run a world. */
export interface RunOptions {
  params?: Record<string, unknown>;
  seed?: number;
  /** Maximum ticks (default: the world's `defaultTicks`, else 1000). */
  ticks?: number;
  level?: LogLevel;
  /**
   * Full logs: list each send's addressees and every delivery a visibility rule withheld
   * (default true for `level: 'full'`; reruns of a log follow its header's `addressees`).
   */
  addressees?: boolean;
  /** Where the world came from, recorded so that `replay` can find it again. */
  source?: Record<string, Json>;
  /** Opens the log once the header is known. */
  openLog?: (header: Record<string, unknown>) => RunLog;
  /** Called after every tick (progress bars). */
  onTick?: (tick: number, maxTicks: number, view: WorldView) => unknown;
  /** The LLM handed to worlds that need one (already wrapped by a recorder feeding `inputs`). */
  llm?: LlmPort;
  /** LLM model and endpoint description (no key), recorded in the header. */
  llmInfo?: { model: string; [key: string]: Json };
  /** Counter for fallback decisions, handed to the world. */
  fallbacks?: { fallbacks: number };
  /** Inputs from outside (LLM calls) to write to the log at each tick's commit. */
  inputs?: InputBuffer;
  /** Checked at every tick boundary: a reason to stop (e.g. budget exhausted), or null. */
  shouldStop?: (tick: number) => string | null;
  /** Called once the world is built, before tick 0 (tools subscribe to the bus here). */
  onStart?: (view: WorldView) => void;
  /** Called once tick 0 is set up or the snapshot restored, before the first step. */
  onReady?: (engine: Engine) => void;
  /** Snapshot every this many ticks (0 = only at the end); recorded in the header. */
  snapshotEvery?: number;
  /** Start from this snapshot instead of tick 0 (resume, fork). */
  restore?: EngineState;
  /** Interventions to apply right after a tick's end. */
  interventionsAt?: (tick: number) => readonly Intervention[];
  /**
   * The world version recorded in the log this run reproduces (replay, fork, resume,
   * inspect): `params` are then that version's, migrated by the world's `migrateParams`.
   */
  worldVersion?: string;
  /**
   * The executor of the agents: `xstate` or `columnar` forces it (the command line, or the
   * executor a log's header records); `unrecorded` reruns a log whose header records none (a
   * log from before the executor was chosen for the world), which ran on the executor its
   * world declared, else XState, and whose rerun writes no executor into its header either.
   * Default: the world's declared executor, else the one its agent machine allows
   * ({@link chooseExecutor}), recorded in the header.
   */
  executor?: ExecutorKind | 'unrecorded';
  /** Where a forced `executor` came from, for the reason line (e.g. "--executor"). */
  executorBy?: string;
}

/** What a run reports. */
export interface RunResult {
  world: string;
  seed: number;
  ticks: number;
  events: number;
  digest: string;
  reason: string;
  metrics: Record<string, number>;
  summary: Record<string, Json>;
  steps: number;
  deliveries: number;
  size: number;
  /** The executor that ran the agents, and why it was chosen. */
  executor: ExecutorChoice;
}

/**
 * The executor a log's header asks a rerun of it to use (`unrecorded` when the header names
 * none; see {@link RunOptions.executor}). The header is untrusted: anything but the two
 * names is refused.
 */
export function recordedExecutor(header: Record<string, unknown>): ExecutorKind | 'unrecorded' {
  const e = header.executor;
  if (e === undefined) return 'unrecorded';
  if (e === 'xstate' || e === 'columnar') return e;
  throw new ConfigError(
    `the log header names executor ${JSON.stringify(e).slice(0, 40)}, which is neither "xstate" nor "columnar"`,
    {
      hint: 'the header was damaged or edited; restore the log from a copy',
    },
  );
}

/** The executor a run uses (see {@link RunOptions.executor}). */
export function runExecutor(
  machine: WorldInstance['agents'],
  declared: WorldInstance['executor'],
  opts: RunOptions,
): ExecutorChoice {
  if (opts.executor === 'unrecorded')
    return chooseExecutor(machine, {
      forced: declared ?? 'xstate',
      forcedBy: 'a log that predates executor choice',
    });
  return chooseExecutor(machine, { forced: opts.executor, forcedBy: opts.executorBy, declared });
}

/** Builds the header of a run's log (everything needed to rerun it, but the wall clock). */
export function runHeader(
  def: WorldDefinition,
  params: Record<string, unknown>,
  seed: number,
  maxTicks: number,
  opts: RunOptions,
): Record<string, unknown> {
  const version = opts.worldVersion && def.migrateParams ? opts.worldVersion : def.version;
  return {
    engine: ENGINE_VERSION,
    world: { id: def.id, version, source: opts.source ?? { kind: 'builtin' } },
    params,
    seed,
    ticks: maxTicks,
    level: opts.level ?? 'minimal',
    ...(addressed(opts) ? { addressees: true } : {}),
    ...(opts.snapshotEvery ? { snapshotEvery: opts.snapshotEvery } : {}),
    ...(opts.llmInfo ? { llm: opts.llmInfo } : {}),
  };
}

function addressed(opts: RunOptions): boolean {
  return opts.level === 'full' && (opts.addressees ?? true);
}

class NullLog implements RunLog {
  seq = 0;
  append(): number {
    return ++this.seq;
  }
  flush(): void {}
  close(): string {
    return '';
  }
}

/**
 * Resolves parameters recorded by version `fromVersion` of a world: when the world has a
 * `migrateParams` hook and the version differs, the run gets the migrated parameters and
 * `recorded` is what its log keeps recording (the old parameter set).
 */
export function migrateParams(
  def: WorldDefinition,
  raw: Record<string, unknown>,
  fromVersion: string | undefined,
): { params: Record<string, unknown>; recorded?: Record<string, unknown> } {
  if (fromVersion === undefined || fromVersion === def.version || !def.migrateParams)
    return { params: resolveParams(def, raw) };
  const migrated = def.migrateParams({ ...raw }, fromVersion);
  for (const key of Object.keys(raw))
    if (migrated[key] !== raw[key])
      throw new ConfigError(`world "${def.id}": migrateParams may only add parameters, it changed "${key}"`);
  const params = resolveParams(def, migrated);
  const recorded: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) recorded[key] = params[key];
  return { params, recorded };
}

/** Runs a world to its end (or continues it from a snapshot) and returns its summary. */
export async function runWorld(def: WorldDefinition, opts: RunOptions = {}): Promise<RunResult> {
  const seed = opts.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new RunError(`seed must be an integer, got ${seed}`);
  const { params, recorded } = migrateParams(def, opts.params ?? {}, opts.worldVersion);
  const maxTicks = opts.ticks ?? def.defaultTicks ?? 1000;
  checkTicksFit(maxTicks);
  const rng = new RngStreams(seed);
  if (def.needsLlm && !opts.llm) {
    throw new ConfigError(`world "${def.id}" needs an LLM`, {
      hint: 'run it with the grapevine CLI (which starts the local server) or pass an llm port',
    });
  }
  // what the world's code reads: refuses undeclared keys (the header records the plain object)
  const live = guardParams(def.id, params, Object.keys(def.params.shape));
  const instance = def.create({
    params: live,
    seed,
    rng,
    llm: opts.llm,
    model: opts.llmInfo?.model,
    fallbacks: opts.fallbacks,
  }) as WorldInstance<unknown>;
  const executor = runExecutor(instance.agents, instance.executor, opts);
  // before the agents are built and the log opened: a run that cannot fit is one line, not a crash
  checkShapeFits({
    size: instance.size,
    executor: executor.kind,
    networkBytes: instance.network?.byteLength ?? 0,
    llm: Boolean(def.needsLlm),
    ticks: maxTicks,
  });
  const header = {
    ...runHeader(def, recorded ?? params, seed, maxTicks, opts),
    size: instance.size,
    ...(opts.executor === 'unrecorded' ? {} : { executor: executor.kind }),
    ...(instance.inputs ? { inputs: instance.inputs } : {}),
  };
  const log = opts.openLog ? opts.openLog(header) : new NullLog();
  const engine = new Engine(
    def,
    instance,
    live,
    rng,
    opts.level ?? 'minimal',
    log,
    opts.inputs ?? new InputBuffer(),
    recorded ? Object.keys(recorded) : undefined,
    addressed(opts),
    executor.kind,
  );
  const hooks = {
    onTick: opts.onTick,
    shouldStop: opts.shouldStop,
    interventionsAt: opts.interventionsAt,
    snapshotEvery: opts.snapshotEvery,
  };
  try {
    opts.onStart?.(engine.view);
    if (opts.restore) {
      engine.importState(opts.restore);
      for (const iv of opts.interventionsAt?.(opts.restore.tick) ?? []) engine.intervene(iv);
    } else engine.start(hooks);
    opts.onReady?.(engine);
    const r = await engine.run(maxTicks, hooks);
    return { world: def.id, seed, size: instance.size, ...r, executor };
  } finally {
    engine.dispose();
  }
}
