import { canonicalJson, type Json, SeededStream } from '../core/index.ts';
import {
  type PairedComparison,
  pairedComparison,
  type WelchTTestResult,
  welchTTest,
} from '../stats/index.ts';
import { numericOutcomes } from './point-summary.ts';
import type { SweepRow } from './results-table.ts';
import type { SweepPoint } from './sweep-points.ts';
import type { SweepSpec } from './sweep-spec.ts';

/** How a sweep's runs relate across its points, read from the runs' seeds. */
export interface SweepDesign {
  /** The one swept parameter of a grid or range sweep; null with none, several, or a Latin hypercube. */
  factor: string | null;
  /** Whether every seed is the seed of exactly one run at every point (common random numbers). */
  paired: boolean;
  /** Why the runs pair or not, in one sentence. */
  why: string;
}

/** One level of the factor against the first, for one outcome. */
export interface LevelContrast {
  outcome: string;
  factor: string;
  baseline: Json;
  level: Json;
  /** Means at the baseline and at the level. */
  baselineMean: number;
  levelMean: number;
  /** Paired by seed when the design pairs, else null. */
  paired: PairedComparison | null;
  welch: WelchTTestResult;
}

/** Random sign vectors per contrast when there are more than 16 pairs. */
const DRAWS = 9999;

function runsByPoint(rows: readonly SweepRow[], points: number): SweepRow[][] {
  const by: SweepRow[][] = Array.from({ length: points }, () => []);
  for (const r of rows) by[r.run.point]?.push(r);
  for (const g of by) g.sort((a, b) => a.run.seed - b.run.seed || a.run.index - b.run.index);
  return by;
}

/**
 * The design of a sweep as its runs show it: the factor (one parameter swept by a grid or a
 * range), and whether the runs pair across points, decided from the seeds the runs used
 * (each run's log header holds its seed; a resumed run is reused only with the planned one):
 * paired when each point's runs have distinct seeds and every point has the same set.
 */
export function sweepDesign(
  spec: SweepSpec,
  rows: readonly SweepRow[],
  points: readonly SweepPoint[],
): SweepDesign {
  const keys = [...Object.keys(spec.grid), ...Object.keys(spec.ranges)];
  const factor = keys.length === 1 && !spec.lhs && points.length > 1 ? keys[0] : null;
  const seeds = runsByPoint(rows, points.length).map((g) => g.map((r) => r.run.seed));
  const distinct = seeds.every((s) => s.every((x, k) => k === 0 || x !== s[k - 1]));
  const same = seeds.every((s) => canonicalJson(s) === canonicalJson(seeds[0]));
  const paired = points.length > 1 && rows.length > 0 && distinct && same;
  const why = paired
    ? `replicate r of every point ran with the same seed (${seeds[0].length} seeds shared by the ${points.length} points): runs pair up across points`
    : points.length < 2
      ? 'one point: nothing to compare'
      : spec.seeds === 'shared'
        ? 'the seeds are shared, but some runs are missing (failed or not yet done), so the points do not pair'
        : 'each run has its own seed (the seed formula hashes the point), so the points are independent samples';
  return { factor, paired, why };
}

function flipStream(spec: SweepSpec, outcome: string, level: Json): () => number {
  const s = new SeededStream(`grapevine-sign-flips|sweep|${spec.seed}|${outcome}|${canonicalJson(level)}`);
  return () => s.next();
}

/**
 * For a sweep of one factor: every other level of it against the first (in point order),
 * for every numeric outcome that varies over the runs: paired by seed (paired t, sign-flip
 * interval, correlation, variance ratio) when the design pairs, and Welch always.
 */
export function sweepContrasts(
  spec: SweepSpec,
  rows: readonly SweepRow[],
  points: readonly SweepPoint[],
  design: SweepDesign,
): LevelContrast[] {
  const factor = design.factor;
  if (factor === null) return [];
  const by = runsByPoint(rows, points.length);
  const outcomes = numericOutcomes(rows).filter((o) => new Set(rows.map(o.value)).size > 1);
  return outcomes.flatMap((o) =>
    points.slice(1).map((point, k) => {
      const base = by[0].map(o.value);
      const at = by[k + 1].map(o.value);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const paired = design.paired
        ? pairedComparison(base, at, { rng: flipStream(spec, o.name, point[factor]), draws: DRAWS })
        : null;
      return {
        outcome: o.name,
        factor,
        baseline: points[0][factor],
        level: point[factor],
        baselineMean: mean(base),
        levelMean: mean(at),
        paired,
        welch: welchTTest(base, at),
      };
    }),
  );
}
