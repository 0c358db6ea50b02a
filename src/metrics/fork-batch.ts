import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Json, UsageError } from '../core/index.ts';
import { type ForkChild, readForkChild } from './fork-child.ts';

/** A treated and a control child that share their future seed. */
export interface ChildPair {
  seed: number;
  control: ForkChild;
  treated: ForkChild;
}

/** A folder of fork children read as one experiment: which arm each child is in, and how they pair. */
export interface ForkBatch {
  dir: string;
  /** The parent as the children recorded it (path for display, digest) and the fork tick. */
  parent: string;
  parentDigest: string;
  atTick: number;
  world: { id: string; version: string };
  /** The parent's parameters (the children's before their interventions). */
  params: Record<string, Json>;
  /** The treated children's interventions besides `reseed` (the control children have none). */
  treatment: Json[];
  /** Each arm, in order of future seed (then file name). */
  control: ForkChild[];
  treated: ForkChild[];
  /** The pairs, by seed, when every seed is the future of exactly one child of each arm; else null. */
  pairs: ChildPair[] | null;
  /** Why the children do not pair (set when `pairs` is null). */
  unpaired?: string;
  /** Logs in the folder that are not children of a fork (left out). */
  ignored: string[];
}

const LOG = /\.ndjson(\.gz)?$/;
const MAX_LOGS = 100_000;

function logsIn(dir: string): string[] {
  let names: string[];
  try {
    names = statSync(dir).isDirectory() ? readdirSync(dir) : [];
  } catch {
    names = [];
  }
  const logs = names.filter((f) => LOG.test(f)).sort();
  if (logs.length > MAX_LOGS) throw new UsageError(`${dir} holds more than ${MAX_LOGS} logs`);
  return logs.map((f) => join(dir, f));
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

const bySeed = (a: ForkChild, b: ForkChild) =>
  a.seed - b.seed || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The arms: children whose only intervention is a reseed (control) and one treatment. */
function arms(dir: string, children: readonly ForkChild[]): { control: ForkChild[]; treated: ForkChild[] } {
  const groups = new Map<string, ForkChild[]>();
  for (const c of children) groups.set(c.treatmentKey, [...(groups.get(c.treatmentKey) ?? []), c]);
  const control = groups.get('[]') ?? [];
  groups.delete('[]');
  if (groups.size === 0)
    throw new UsageError(`${dir}: no child has an intervention besides reseed, so there is no treated arm`, {
      hint: 'fork with --intervene FILE (or --set) and --replicates R to write treated and control children',
    });
  if (control.length === 0)
    throw new UsageError(
      `${dir}: every child has an intervention besides reseed, so there is no control arm`,
      {
        hint: 'control children are forks whose only intervention is a reseed (fork --replicates writes them)',
      },
    );
  if (groups.size > 1)
    throw new UsageError(
      `${dir} holds children of ${groups.size} different treatments; a batch compares one treatment with its control`,
      { hint: 'put each treatment with its control children in a folder of its own' },
    );
  return { control: control.sort(bySeed), treated: [...groups.values()][0].sort(bySeed) };
}

/** The pairs by future seed, or why there are none. */
function pairUp(
  control: readonly ForkChild[],
  treated: readonly ForkChild[],
): Pick<ForkBatch, 'pairs' | 'unpaired'> {
  const twice = (xs: readonly ForkChild[]) => xs.find((c, k) => k > 0 && xs[k - 1].seed === c.seed);
  for (const [arm, xs] of [
    ['control', control],
    ['treated', treated],
  ] as const) {
    const dup = twice(xs);
    if (dup) return { pairs: null, unpaired: `seed ${dup.seed} is the future seed of two ${arm} children` };
  }
  const controlSeeds = new Map(control.map((c) => [c.seed, c]));
  const lone = treated.filter((t) => !controlSeeds.has(t.seed)).length;
  if (lone > 0 || control.length !== treated.length)
    return {
      pairs: null,
      unpaired: `treated and control children do not share their future seeds (${lone} of ${treated.length} treated children have no control child with their seed)`,
    };
  return {
    pairs: treated.map((t) => ({ seed: t.seed, control: controlSeeds.get(t.seed) as ForkChild, treated: t })),
  };
}

/**
 * Reads every log in `dir` (not its subfolders) and makes one experiment of the children of
 * a fork among them: the arms from each child's recorded interventions (control: only a
 * `reseed`; treated: one other set of interventions), and the pairs from their future seeds
 * (a treated and a control child with the same seed share their random numbers after the
 * fork: common random numbers). Nothing is taken from file names. Logs that are not a fork's
 * children are listed in `ignored`.
 *
 * @throws UsageError when the folder holds no fork children, children of several forks,
 *   an unfinished child, or not exactly one treatment and its control.
 */
export async function readForkBatch(dir: string, opts: { series?: boolean } = {}): Promise<ForkBatch> {
  const hint = 'make one with: grapevine fork <log> --at T --intervene x.yaml --replicates 20 --out DIR';
  const children: ForkChild[] = [];
  const ignored: string[] = [];
  for (const path of logsIn(dir)) {
    const c = await readForkChild(path, opts);
    if (c) children.push(c);
    else ignored.push(path);
  }
  if (children.length === 0) {
    const atT = subfolders(dir).filter((f) => /^at-\d+$/.test(f));
    throw new UsageError(`${dir} holds no logs of fork children`, {
      hint: atT.length
        ? `a fork at several ticks writes one folder per tick: diff ${join(dir, atT[0])}`
        : hint,
    });
  }
  const points = new Set(children.map((c) => `${c.parentDigest.slice(0, 12)} at tick ${c.atTick}`));
  if (points.size > 1)
    throw new UsageError(`${dir} holds children of ${points.size} fork points (${[...points].join('; ')})`, {
      hint: 'a batch is the children of one parent at one tick: diff each at-T folder of a multi-tick fork alone',
    });
  const unfinished = children.find((c) => !c.complete);
  if (unfinished)
    throw new UsageError(`${unfinished.path} is unfinished (its log has no end line)`, {
      hint: `finish it with grapevine resume ${unfinished.path}, or move it out of ${dir}`,
    });
  const { control, treated } = arms(dir, children);
  const first = children[0];
  return {
    dir,
    parent: first.parent,
    parentDigest: first.parentDigest,
    atTick: first.atTick,
    world: first.world,
    params: first.params,
    treatment: treated[0].treatment,
    control,
    treated,
    ...pairUp(control, treated),
    ignored,
  };
}
