import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError, checkJsonShape, formatNumber, type Json, UsageError } from '../../core/index.ts';
import type { LlmFlags } from '../../llm/index.ts';
import {
  type BudgetLimits,
  checkSweepSpec,
  openNatsQueue,
  planSweep,
  runSweep,
  SWEEP_FILE_SCHEMA,
  type SweepFile,
  type SweepSpec,
} from '../../sweep/index.ts';
import {
  checkNetworkParamsApplied,
  parseAssignments,
  parseSetValue,
  resolveParams,
} from '../../world/index.ts';
import { type BatchLlm, batchBudget, openBatchLlm } from '../batch-llm.ts';
import type { CliContribution } from '../cli-contribution.ts';
import { type CommandOutput, PROCESS_OUTPUT } from '../command-output.ts';
import { checkPlannedParams } from '../file-driven-params.ts';
import { intFlag, positiveIntFlag } from '../flags.ts';
import { loadWorld } from '../load-world.ts';
import { Progress } from '../progress.ts';
import { runWorldData } from '../sweep-world-loader.ts';

/** Options of `grapevine sweep` (the LLM flags serve worlds that need an LLM). */
export interface SweepCommandOptions extends LlmFlags {
  /** False with `--no-check`: a world file is not type-checked first. */
  check?: boolean;
  grid?: string[];
  set?: string[];
  replicates?: string;
  seed?: string;
  /** Replicate r of every point runs with the same seed (common random numbers). */
  sharedSeeds?: boolean;
  ticks?: string;
  out?: string;
  workers?: string;
  queue?: string;
  json?: boolean;
  quiet?: boolean;
}

const SWEEP_FILE = /\.(ya?ml|json)$/i;
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** Reads and checks a sweep file (YAML or JSON). @throws ConfigError naming the first problem. */
function readSweepFile(path: string): SweepFile {
  if (!existsSync(path) || !statSync(path).isFile())
    throw new ConfigError(`sweep file not found: ${path}`, { hint: 'check the path' });
  if (statSync(path).size > MAX_FILE_BYTES) throw new ConfigError(`sweep file ${path} is larger than 4 MiB`);
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(path, 'utf8'));
  } catch (cause) {
    const first = String((cause as Error).message).split('\n')[0];
    throw new ConfigError(`sweep file ${path} is not valid YAML/JSON: ${first}`, {
      cause,
      hint: 'check the indentation and quoting at that line (docs/SWEEPS.md shows a sweep file)',
    });
  }
  // before the schema: zod would drop a __proto__ key silently, and recurse on deep nesting
  checkJsonShape(raw ?? {}, `sweep file ${path}`);
  const parsed = SWEEP_FILE_SCHEMA.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? issue.path.join('.') : '(top level)';
    throw new ConfigError(`sweep file ${path}: ${where}: ${issue.message}`, {
      hint: 'fields: world, seed, replicates, seeds, ticks, set, grid, ranges, lhs (docs/SWEEPS.md)',
    });
  }
  return parsed.data;
}

/** `--grid key=v1,v2,...`: each value parsed as `--set` parses one (JSON, else text). */
function parseGrid(pairs: readonly string[]): Record<string, Json[]> {
  const grid: Record<string, Json[]> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1)
      throw new UsageError(`--grid expects key=v1,v2,..., got "${pair}"`, {
        hint: 'e.g. --grid p=0.1,0.2,0.4',
      });
    parseAssignments([`${pair.slice(0, eq)}=0`]); // the name's checks
    grid[pair.slice(0, eq)] = pair
      .slice(eq + 1)
      .split(',')
      .map((v) => parseSetValue(v) as Json);
  }
  return grid;
}

/** The sweep the command line (and the file, when one is given) describes. */
function sweepSpec(target: string, opts: SweepCommandOptions): SweepSpec {
  const file: SweepFile = SWEEP_FILE.test(target) ? readSweepFile(target) : { world: target };
  if (!file.world)
    throw new ConfigError(`sweep file ${target} names no world`, {
      hint: 'add world: rumor (or a world file path)',
    });
  const spec: SweepSpec = {
    world: file.world,
    seed: intFlag('seed', opts.seed) ?? file.seed ?? 1,
    replicates: positiveIntFlag('replicates', opts.replicates) ?? file.replicates ?? 1,
    set: { ...(file.set ?? {}), ...(parseAssignments(opts.set ?? []) as Record<string, Json>) },
    grid: { ...(file.grid ?? {}), ...parseGrid(opts.grid ?? []) },
    ranges: file.ranges ?? {},
    ...(file.lhs ? { lhs: file.lhs } : {}),
    // recorded only when shared, so the sweep.json of a sweep with per-point seeds stays as it was
    ...(opts.sharedSeeds || file.seeds === 'shared' ? { seeds: 'shared' as const } : {}),
  };
  const ticks = intFlag('ticks', opts.ticks) ?? file.ticks;
  if (ticks !== undefined) spec.ticks = ticks;
  checkSweepSpec(spec);
  return spec;
}

/** The sweep's LLM budget ({@link batchBudget}); refused with --queue (each worker's runs are its own). */
function sweepBudget(opts: SweepCommandOptions): BudgetLimits | undefined {
  const budget = batchBudget(opts);
  if (budget && opts.queue)
    throw new UsageError('a budget (--budget-tokens, --budget-usd) is for local sweeps, not with --queue', {
      hint: 'give the budget to each worker (grapevine worker --budget-tokens), or drop --queue',
    });
  return budget;
}

/** Checks early that the sweep folder can be created: it and its nearest existing ancestor are folders. */
function checkOutDir(out: string): void {
  let dir = resolve(out);
  while (!existsSync(dir)) dir = dirname(dir);
  if (!statSync(dir).isDirectory())
    throw new UsageError(`--out ${out} cannot be a folder: ${dir} is a file`, {
      hint: 'choose another --out',
    });
}

/** `grapevine sweep`: a grid (or sample) of parameters × replicates, run on worker threads. */
export async function sweepCommand(
  target: string,
  opts: SweepCommandOptions,
  contributions: readonly CliContribution[],
  io: CommandOutput = PROCESS_OUTPUT,
): Promise<number> {
  if (!opts.out) throw new UsageError('sweep needs --out DIR', { hint: 'e.g. --out sweeps/rumor-p' });
  checkOutDir(opts.out);
  const spec = sweepSpec(target, opts);
  const workers = positiveIntFlag('workers', opts.workers);
  const budget = sweepBudget(opts);
  const { def, source, responders } = await loadWorld(spec.world, { check: opts.check });
  const plan = planSweep(spec);
  for (const run of plan.runs.filter((r) => r.replicate === 0)) {
    const resolved = resolveParams(def, run.params);
    checkNetworkParamsApplied(def, run.params, resolved, `sweep point ${JSON.stringify(run.params)}: `);
    checkPlannedParams(def, run.params, resolved, run.seed);
  }
  const ref = source.kind === 'file' ? String(source.path) : spec.world;
  const queue = opts.queue ? await openNatsQueue(opts.queue) : undefined;
  // queue workers open their LLM from their own flags (docs/DISTRIBUTED.md)
  const llm: BatchLlm | undefined =
    def.needsLlm && !queue ? await openBatchLlm(opts, process.env, responders) : undefined;
  const progress = new Progress('sweep', Boolean(opts.quiet || opts.json), { unit: 'run', eta: true });
  const started = Date.now();
  const result = await runSweep({
    spec: { ...spec, world: ref },
    dir: opts.out,
    world: {
      loaderUrl: new URL(
        `../sweep-world-loader${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
        import.meta.url,
      ).href,
      ref,
      data: runWorldData(contributions, source) as unknown as Json,
    },
    worldInfo: { id: def.id, version: def.version, source },
    ...(workers === undefined ? {} : { workers }),
    onProgress: (p) => progress.tick(p.done, p.total),
    ...(queue ? { queue } : {}),
    ...(llm ? { llm: { flags: llm.flags, model: llm.model } } : {}),
    ...(budget && llm ? { budget } : {}),
  }).finally(async () => {
    progress.stop();
    await queue?.nc.close();
    await llm?.close();
  });
  const wallMs = Date.now() - started;
  for (const f of result.failures)
    io.err(`grapevine: run ${f.run.id} (seed ${f.run.seed}) failed: ${f.error.message}\n`);
  const summary = {
    runs: plan.runs.length,
    ran: plan.runs.length - result.skipped - result.failures.length - result.stopped,
    reused: result.skipped,
    failed: result.failures.length,
    ...(result.stopped ? { stopped: result.stopped } : {}),
    ...(result.spent ? { llmSpent: result.spent } : {}),
    out: resolve(opts.out),
    files: result.files,
    wallMs,
  };
  if (opts.json) io.out(`${JSON.stringify(summary)}\n`);
  else if (!opts.quiet)
    io.out(
      `sweep ${def.id}: ${summary.runs} runs (${plan.points.length} points × ${spec.replicates} replicates): ${summary.ran} run, ${summary.reused} reused, ${summary.failed} failed in ${formatNumber(wallMs / 1000, 3)} s\n` +
        `tables ${summary.out}/results.csv, results.parquet, summary.csv; report ${summary.out}/report.html\n`,
    );
  if (result.stopped)
    io.err(
      `grapevine: the sweep's LLM budget is spent (${result.spent}): ${result.stopped} of ${summary.runs} runs not done; rerun the same sweep to do them\n`,
    );
  return result.failures.length || result.stopped ? 1 : 0;
}
