import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Json, UsageError } from '../../core/index.ts';
import type { LlmFlags } from '../../llm/index.ts';
import { continueRun, endOfTick, type RecordedRun, readRecordedRun } from '../../replay/index.ts';
import {
  type Intervention,
  parseAssignments,
  type RunResult,
  type WorldDefinition,
} from '../../world/index.ts';
import { checkOutPath, intFlag } from '../flags.ts';
import { checkForkParams } from '../fork-params.ts';
import { readInterventions } from '../interventions-file.ts';
import { openContinuationLlm } from '../llm-session.ts';
import { loadWorldFromHeader } from '../load-world.ts';

/** Options of `grapevine fork`. */
export interface ForkCommandOptions extends LlmFlags {
  at?: string;
  intervene?: string[];
  set?: string[];
  seed?: string;
  out?: string;
  replicates?: string;
  json?: boolean;
  quiet?: boolean;
  force?: boolean;
  /** The world file that wrote the log (never taken from the log itself). */
  world?: string;
}

interface ForkPlan {
  def: WorldDefinition;
  recorded: RecordedRun;
  path: string;
  atTick: number;
}

/** Runs one child: recorded replies up to the fork tick, a live LLM after it (when the world needs one). */
async function forkOne(
  plan: ForkPlan,
  out: string,
  interventions: readonly Intervention[],
  flags: LlmFlags,
): Promise<RunResult> {
  const { def, recorded, path, atTick } = plan;
  const wall = {
    fork: { parent: path, parentDigest: recorded.digest, atTick, interventions: interventions.length },
  };
  if (!def.needsLlm) return continueRun({ def, recorded, path, atTick, out, interventions, wall });
  const llm = await openContinuationLlm(recorded, atTick, flags, process.env, {
    reuseParentTail: interventions.length === 0,
  });
  try {
    return await continueRun({
      def,
      recorded,
      path,
      atTick,
      out,
      interventions,
      wall: { ...wall, llmEndpoint: llm.endpoint } as Record<string, Json>,
      services: { ...llm.services, shouldStop: undefined },
    });
  } finally {
    await llm.close();
  }
}

function checkOut(out: string, force: boolean | undefined): void {
  if (existsSync(out) && !force)
    throw new UsageError(`${out} already exists`, { hint: 'choose another --out, or add --force' });
}

/**
 * `grapevine fork <log> --at TICK [--intervene file ...] [--set k=v ...] [--seed N] --out child`:
 * rewinds a run to TICK, changes something, and runs on; with `--replicates R`, writes R
 * treated and R control children with different future seeds to the --out directory.
 */
export async function forkCommand(path: string, opts: ForkCommandOptions): Promise<number> {
  const at = intFlag('at', opts.at);
  if (at === undefined) throw new UsageError('fork needs --at TICK');
  if (!opts.out)
    throw new UsageError('fork needs --out', { hint: 'a log path, or a directory with --replicates' });
  const interventions = (opts.intervene ?? []).flatMap((f) => readInterventions(f));
  const set = parseAssignments(opts.set ?? []);
  if (Object.keys(set).length) interventions.push({ type: 'params', set: set as Record<string, Json> });
  const seed = intFlag('seed', opts.seed);
  const recorded = await readRecordedRun(path);
  endOfTick(recorded, at);
  const { def } = await loadWorldFromHeader(recorded.header, { worldFile: opts.world });
  const parentParams = recorded.header.params as Record<string, unknown>;
  checkForkParams(def, parentParams, set, recorded.header.seed as number);
  const plan = { def, recorded, path, atTick: at };
  const replicates = intFlag('replicates', opts.replicates);
  if (replicates === undefined) {
    checkOutPath(opts.out);
    checkOut(opts.out, opts.force);
    const ivs =
      seed === undefined ? interventions : [...interventions, { type: 'reseed', seed } as Intervention];
    const r = await forkOne(plan, opts.out, ivs, opts);
    report({ ...r, log: opts.out, parent: path, atTick: at }, opts);
    return 0;
  }
  if (replicates < 1) throw new UsageError('--replicates must be at least 1');
  if (existsSync(opts.out) && !statSync(opts.out).isDirectory())
    throw new UsageError(`--out ${opts.out} is a file; --replicates writes a directory of children`, {
      hint: 'give a directory path (new or existing) to --out',
    });
  for (let k = 1; k <= replicates; k++)
    for (const arm of ['treated', 'control']) checkOut(join(opts.out, `${arm}-${k}.ndjson`), opts.force);
  mkdirSync(opts.out, { recursive: true });
  const base = seed ?? (recorded.header.seed as number);
  const children: Record<string, Json>[] = [];
  for (let k = 1; k <= replicates; k++) {
    const reseed = { type: 'reseed', seed: base * 1000 + k } as Intervention;
    for (const [arm, ivs] of [
      ['treated', [...interventions, reseed]],
      ['control', [reseed]],
    ] as const) {
      const out = join(opts.out, `${arm}-${k}.ndjson`);
      checkOut(out, opts.force);
      const r = await forkOne(plan, out, ivs, opts);
      children.push({ arm, replicate: k, log: out, digest: r.digest, ticks: r.ticks, metrics: r.metrics });
    }
  }
  report({ parent: path, atTick: at, replicates, children }, opts);
  return 0;
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
