import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkBatchSize, type Json, UsageError } from '../../core/index.ts';
import type { LlmFlags } from '../../llm/index.ts';
import type { LlmResponder } from '../../llm-server/index.ts';
import {
  type ChildFactory,
  continueRun,
  dropParentIndex,
  endOfTick,
  parentIndexPath,
  type RecordedRun,
  readRecordedRun,
  removeStalePartials,
  restoreOnce,
} from '../../replay/index.ts';
import {
  type Intervention,
  parseAssignments,
  type RunResult,
  type WorldDefinition,
} from '../../world/index.ts';
import { intFlag, positiveIntFlag } from '../flags.ts';
import { inputFileOptions, loadWorldFromHeader } from '../load-world.ts';
import type { LogWorldOptions } from '../log-world-options.ts';
import { checkOutputFile, discardTemporary, publishOutput, stagingPath } from '../output-file.ts';
import type { ForkBatchOptions } from './fork/fork-batch.ts';
import { checkForkParams } from './fork/fork-params.ts';

// The LLM session, the YAML reader of intervention files and the worker pool are loaded
// only when a fork needs them: a rule world's single fork then compiles ~0.5 MB less of
// the bundle at start-up (about 0.05 CPU s of a ~1.2 s fork at 10^5 agents).
const llmSession = () => import('../llm-session.ts');

/** Options of `grapevine fork`. */
export interface ForkCommandOptions extends LlmFlags, LogWorldOptions {
  at?: string;
  intervene?: string[];
  set?: string[];
  seed?: string;
  out?: string;
  replicates?: string;
  json?: boolean;
  quiet?: boolean;
  force?: boolean;
  /** Copy the parent's past into each child instead of naming the parent (delta child). */
  standalone?: boolean;
  /** Worker threads of a batch (default 1: the children one after another in this thread). */
  workers?: string;
}

interface ForkPlan {
  def: WorldDefinition;
  recorded: RecordedRun;
  path: string;
  atTick: number;
  layout: 'delta' | 'standalone';
  /** Only one child reads `recorded` (see ContinueOptions.ownsRecorded). */
  ownsRecorded?: boolean;
  /** A batch's children of this tick, restored once (see restoreOnce); a rule world only. */
  shared?: ChildFactory;
  /** A world file's responders for the shipped local LLM server. */
  responders?: readonly LlmResponder[];
}

/** Runs one child: recorded replies up to the fork tick, a live LLM after it (when the world needs one). */
async function forkOne(
  plan: ForkPlan,
  out: string,
  interventions: readonly Intervention[],
  flags: LlmFlags,
): Promise<RunResult> {
  const { def, recorded, path, atTick, layout, ownsRecorded } = plan;
  const wall = {
    fork: { parent: path, parentDigest: recorded.digest, atTick, interventions: interventions.length },
  };
  const base = { def, recorded, path, atTick, out, interventions, layout, ownsRecorded };
  if (plan.shared) return plan.shared.fork({ out, interventions, layout, wall });
  if (!def.needsLlm) return continueRun({ ...base, wall });
  const { openContinuationLlm, shippedServerStarter } = await llmSession();
  const llm = await openContinuationLlm(recorded, atTick, flags, process.env, {
    reuseParentTail: interventions.length === 0,
    localServer: shippedServerStarter(plan.responders),
  });
  try {
    return await continueRun({
      ...base,
      wall: { ...wall, llmEndpoint: llm.endpoint } as Record<string, Json>,
      services: { ...llm.services, shouldStop: undefined },
    });
  } finally {
    await llm.close();
  }
}

function checkOut(out: string, force: boolean | undefined): void {
  checkOutputFile(out, force);
}

/** Most children one fork batch may write (each is a log file). */
const MAX_FORK_CHILDREN = 1_000_000;

/** `--at 450` or `--at 100,200,300`: distinct ticks, in the order given. */
function parseTicks(spec: string | undefined): number[] {
  if (spec === undefined)
    throw new UsageError('fork needs --at TICK', { hint: 'or --at T1,T2,... for a batch' });
  const ticks = spec.split(',').map((part) => intFlag('at', part.trim()) as number);
  if (new Set(ticks).size !== ticks.length)
    throw new UsageError(`--at ${spec} names a tick twice`, { hint: 'list each fork tick once' });
  return ticks;
}

/** The children of a batch: path, interventions and labels of each, in run order. */
function batchChildren(
  out: string,
  ticks: readonly number[],
  replicates: number | undefined,
  interventions: readonly Intervention[],
  base: number,
  seed: number | undefined,
): { atTick: number; out: string; ivs: readonly Intervention[]; label: Record<string, Json> }[] {
  const children = [];
  for (const atTick of ticks) {
    const dir = ticks.length > 1 && replicates !== undefined ? join(out, `at-${atTick}`) : out;
    if (replicates === undefined) {
      const ivs =
        seed === undefined
          ? [...interventions]
          : [...interventions, { type: 'reseed', seed } as Intervention];
      children.push({ atTick, out: join(dir, `at-${atTick}.ndjson`), ivs, label: { atTick } });
      continue;
    }
    for (let k = 1; k <= replicates; k++) {
      const reseed = { type: 'reseed', seed: base * 1000 + k } as Intervention;
      for (const [arm, ivs] of [
        ['treated', [...interventions, reseed]],
        ['control', [reseed]],
      ] as const)
        children.push({
          atTick,
          out: join(dir, `${arm}-${k}.ndjson`),
          ivs,
          label: { atTick, arm, replicate: k },
        });
    }
  }
  return children;
}

/**
 * `grapevine fork <log> --at TICK [--intervene file ...] [--set k=v ...] [--seed N] --out child`:
 * rewinds a run to TICK, changes something, and runs on; with `--replicates R`, writes R
 * treated and R control children with different future seeds to the --out directory;
 * with `--at T1,T2,...`, does so after each tick; with `--workers N`, a batch runs on N
 * worker threads (an LLM world's children share one LLM endpoint). Children are delta
 * children (they name the parent and hold only their future) unless `--standalone`, or the
 * parent is unfinished.
 */
export async function forkCommand(path: string, opts: ForkCommandOptions): Promise<number> {
  const ticks = parseTicks(opts.at);
  const workers = positiveIntFlag('workers', opts.workers);
  if (!opts.out)
    throw new UsageError('fork needs --out', {
      hint: 'a log path, or a directory with --replicates or several --at',
    });
  const interventions: Intervention[] = [];
  if (opts.intervene?.length) {
    const { readInterventions } = await import('./fork/interventions-file.ts');
    // one at a time: spreading 200,000 of them as arguments overflows the stack
    for (const file of opts.intervene) for (const iv of readInterventions(file)) interventions.push(iv);
  }
  const set = parseAssignments(opts.set ?? []);
  if (Object.keys(set).length) interventions.push({ type: 'params', set: set as Record<string, Json> });
  const seed = intFlag('seed', opts.seed);
  const replicates = intFlag('replicates', opts.replicates);
  if (replicates !== undefined && replicates < 1)
    throw new UsageError('--replicates must be at least 1', { hint: 'e.g. --replicates 20' });
  if (replicates !== undefined)
    checkBatchSize({
      count: 2 * replicates * ticks.length,
      what: 'fork children',
      from: `--replicates ${replicates} at ${ticks.length} tick${ticks.length === 1 ? '' : 's'}`,
      max: MAX_FORK_CHILDREN,
      bytesEach: 512,
      hint: 'give fewer replicates (each writes a treated and a control child log)',
    });
  const single = replicates === undefined && ticks.length === 1;
  // where the children go is checked before the parent is read (nothing is written on a bad --out)
  if (single) checkOutputFile(opts.out, opts.force);
  else if (existsSync(opts.out) && !statSync(opts.out).isDirectory())
    throw new UsageError(`--out ${opts.out} is a file; a batch writes a directory of children`, {
      hint: 'give a directory path (new or existing) to --out',
    });
  const { recorded, def, responders } = await readAndCheckParent(
    path,
    ticks,
    paramsSetBy(interventions),
    opts,
  );
  const layout = opts.standalone || !recorded.complete ? 'standalone' : 'delta';
  const plan = (atTick: number): ForkPlan => ({ def, recorded, path, atTick, layout, responders });
  if (single) {
    const ivs =
      seed === undefined ? interventions : [...interventions, { type: 'reseed', seed } as Intervention];
    // written beside --out and published in one step: of two forks racing to one --out, one wins
    mkdirSync(dirname(opts.out), { recursive: true });
    removeStalePartials(opts.out); // those of killed forks that wrote to --out itself
    const staging = stagingPath(opts.out);
    let r: Awaited<ReturnType<typeof forkOne>>;
    try {
      r = await forkOne({ ...plan(ticks[0]), ownsRecorded: true }, staging, ivs, opts);
      publishOutput(staging, opts.out, opts.force);
    } finally {
      discardTemporary(staging);
    }
    report({ ...r, log: opts.out, parent: path, atTick: ticks[0], layout }, opts);
    return 0;
  }
  const base = seed ?? (recorded.header.seed as number);
  const todo = batchChildren(opts.out, ticks, replicates, interventions, base, seed);
  for (const c of todo) checkOut(c.out, opts.force);
  for (const c of todo) mkdirSync(dirname(c.out), { recursive: true });
  // with --workers N > 1 the children run on the worker pool; otherwise one after another
  // here: a pool thread costs ~2 CPU s to start (it loads the engine and reads the parent),
  // more than a short child (bench/studies/fork-batch-pool.ts)
  const pooled = Math.min(workers ?? 1, todo.length) > 1;
  const children: Record<string, Json>[] = pooled
    ? await pooledBatch(
        {
          parent: path,
          recorded,
          ticks,
          layout,
          children: todo,
          workers,
          worldFile: opts.world,
          ...inputFileOptions(opts),
        },
        def.needsLlm ? opts : undefined,
        responders,
      )
    : [];
  let shared: ChildFactory | undefined;
  for (const c of pooled ? [] : todo) {
    // the children of one tick are consecutive: the parent is restored once per tick
    const many = todo.filter((d) => d.atTick === c.atTick).length > 1;
    if (!def.needsLlm && shared?.atTick !== c.atTick)
      shared = many ? await restoreOnce(def, recorded, path, c.atTick) : undefined;
    const r = await forkOne({ ...plan(c.atTick), shared }, c.out, c.ivs, opts);
    children.push({ ...c.label, log: c.out, digest: r.digest, ticks: r.ticks, metrics: r.metrics });
  }
  report({ parent: path, at: ticks, replicates, layout, children }, opts);
  return 0;
}

/**
 * A batch on the worker pool; an LLM world's batch first opens its LLM once (the shipped
 * local server when no endpoint is named, the parent's model unless `--model`), and every
 * child's thread opens a client to it.
 */
async function pooledBatch(
  o: ForkBatchOptions,
  flags: LlmFlags | undefined,
  responders: readonly LlmResponder[] | undefined,
): Promise<Record<string, Json>[]> {
  const { runForkBatch } = await import('./fork/fork-batch.ts');
  if (!flags) return runForkBatch(o);
  const { openBatchLlm } = await import('../batch-llm.ts');
  const model = flags.model ?? (o.recorded.header.llm as { model: string }).model;
  const llm = await openBatchLlm({ ...flags, model }, process.env, responders);
  try {
    return await runForkBatch({ ...o, llm: llm.flags });
  } finally {
    await llm.close();
  }
}

function report(result: Record<string, unknown>, opts: ForkCommandOptions): void {
  if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else if (!opts.quiet) {
    const r = result as {
      log?: string;
      digest?: string;
      ticks?: number;
      reason?: string;
      children?: unknown[];
    };
    process.stdout.write(
      r.children
        ? `wrote ${r.children.length} children\n`
        : `fork of ${result.parent} at tick ${result.atTick}: ${r.ticks} ticks (${r.reason})\nlog ${r.log}\ndigest ${r.digest}\n`,
    );
  }
}

/**
 * Reads the parent for forks after `ticks` and checks the fork against it (world, ticks,
 * parameters, the LLM flags of a world that needs an LLM). A verification index that this read created is removed again when a check
 * fails, so a refused fork leaves nothing behind.
 */
/**
 * Every parameter the fork's interventions set (`--set` and `params` interventions of an
 * --intervene file alike): all follow the same rules, so a file cannot record a change the
 * world never applies.
 */
function paramsSetBy(interventions: readonly Intervention[]): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const iv of interventions)
    if (iv.type === 'params')
      for (const [k, v] of Object.entries((iv as { set: Record<string, unknown> }).set)) set[k] = v;
  return set;
}

async function readAndCheckParent(
  path: string,
  ticks: readonly number[],
  set: Record<string, unknown>,
  opts: ForkCommandOptions,
): Promise<{ recorded: RecordedRun; def: WorldDefinition; responders?: readonly LlmResponder[] }> {
  const hadIndex = existsSync(parentIndexPath(path));
  try {
    const recorded = await readRecordedRun(path, { restoreTicks: ticks });
    for (const t of ticks) endOfTick(recorded, t);
    const { def, responders } = await loadWorldFromHeader(recorded.header, {
      worldFile: opts.world,
      logPath: path,
      ...inputFileOptions(opts),
      check: opts.check,
    });
    checkForkParams(
      def,
      recorded.header.params as Record<string, unknown>,
      set,
      recorded.header.seed as number,
    );
    // the LLM flags and variables of a world that needs one, before any child's folder,
    // server or thread exists (a ConfigError, exit 2); each child or batch opens them later
    if (def.needsLlm)
      (await llmSession()).resolveRunLlm({
        ...opts,
        model: opts.model ?? (recorded.header.llm as { model: string }).model,
      });
    return { recorded, def, responders };
  } catch (err) {
    if (!hadIndex) dropParentIndex(path);
    throw err;
  }
}
