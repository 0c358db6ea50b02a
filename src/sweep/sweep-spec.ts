import { z } from 'zod';
import { ConfigError, type Json } from '../core/index.ts';

/** An evenly spaced range of values: from, from + step, ... up to `to` (inclusive). */
export interface SweepRange {
  from: number;
  to: number;
  step: number;
}

/** A seeded Latin hypercube over continuous parameters (McKay, Beckman & Conover 1979). */
export interface LatinHypercube {
  /** Number of sample points. */
  samples: number;
  /** Parameter name → [low, high]. */
  params: Record<string, [number, number]>;
}

/** A sweep: which world, which parameter points, how many replicates, which seeds. */
export interface SweepSpec {
  /** A built-in world id or the path of a world file. */
  world: string;
  /** Base seed S of the sweep (run seeds derive from it: see `runSeed`). */
  seed: number;
  /** Runs per parameter point. */
  replicates: number;
  /**
   * `shared`: replicate r of every point runs with the same seed (common random numbers, so
   * the points' runs pair up by replicate); absent: each (point, replicate) has its own seed.
   */
  seeds?: 'shared';
  /** Maximum ticks of each run (default: the world's). */
  ticks?: number;
  /** Parameters every run gets (a point's values win). */
  set: Record<string, Json>;
  /** Parameter name → the values it takes (a full factorial over all grid and range keys). */
  grid: Record<string, Json[]>;
  /** Parameter name → evenly spaced values (joins the factorial). */
  ranges: Record<string, SweepRange>;
  /** Sampled points, crossed with the factorial. */
  lhs?: LatinHypercube;
}

const json: z.ZodType<Json> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(json), z.record(z.string(), json)]),
);
const count = z.number().int().min(1);

/** The schema of a sweep file (YAML or JSON). Unknown fields are errors. */
export const SWEEP_FILE_SCHEMA = z
  .object({
    world: z.string().min(1).optional(),
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    replicates: count.optional(),
    seeds: z.enum(['shared', 'per-point']).optional(),
    ticks: z.number().int().min(0).optional(),
    set: z.record(z.string(), json).optional(),
    grid: z.record(z.string(), z.array(json).min(1)).optional(),
    ranges: z
      .record(z.string(), z.strictObject({ from: z.number(), to: z.number(), step: z.number().positive() }))
      .optional(),
    lhs: z
      .strictObject({
        samples: count,
        params: z.record(z.string(), z.tuple([z.number(), z.number()])),
      })
      .optional(),
  })
  .strict();

/** What a sweep file holds, before the command line is merged in. */
export type SweepFile = z.infer<typeof SWEEP_FILE_SCHEMA>;

/** Most values one range may expand to (a typo in `step` should not plan a billion runs). */
export const MAX_RANGE_VALUES = 10_000;

/** Values of a range: from + k·step for k = 0, 1, ... while ≤ to (rounded to 12 significant digits). */
export function rangeValues(name: string, r: SweepRange): number[] {
  if (r.to < r.from) throw new ConfigError(`range ${name}: to (${r.to}) is below from (${r.from})`);
  const n = Math.floor((r.to - r.from) / r.step + 1e-9) + 1;
  if (n > MAX_RANGE_VALUES)
    throw new ConfigError(`range ${name} has ${n} values, more than ${MAX_RANGE_VALUES}`, {
      hint: 'use a larger step',
    });
  return Array.from({ length: n }, (_, k) => Number((r.from + k * r.step).toPrecision(12)));
}

/**
 * Checks a sweep's parameter names: no name swept in two places (grid, ranges,
 * lhs), every LHS interval with low < high.
 *
 * @throws ConfigError naming the first problem.
 */
export function checkSweepSpec(spec: SweepSpec): void {
  const seen = new Map<string, string>();
  const add = (name: string, where: string) => {
    const before = seen.get(name);
    if (before)
      throw new ConfigError(`parameter ${name} is swept twice (in ${before} and in ${where})`, {
        hint: 'give each swept parameter in one place only',
      });
    seen.set(name, where);
  };
  for (const name of Object.keys(spec.grid)) add(name, 'grid');
  for (const [name, r] of Object.entries(spec.ranges)) {
    add(name, 'ranges');
    rangeValues(name, r);
  }
  for (const [name, [lo, hi]] of Object.entries(spec.lhs?.params ?? {})) {
    add(name, 'lhs');
    if (!(lo < hi)) throw new ConfigError(`lhs parameter ${name}: low (${lo}) must be below high (${hi})`);
  }
  if (spec.lhs && Object.keys(spec.lhs.params).length === 0)
    throw new ConfigError('lhs names no parameter', { hint: 'lhs: { samples: 10, params: { p: [0, 1] } }' });
}
