import { ConfigError, type Json, RngStreams } from '../core/index.ts';
import { type LatinHypercube, rangeValues, type SweepSpec } from './sweep-spec.ts';

/** One parameter point of a sweep: the swept parameters' values (not the `set` ones). */
export type SweepPoint = Record<string, Json>;

/** Most points a sweep may have. */
export const MAX_POINTS = 1_000_000;

/**
 * A Latin hypercube sample (McKay, Beckman & Conover 1979): each parameter's interval is
 * cut into `samples` equal strata; each stratum is used by exactly one sample, the
 * strata of each parameter are matched by an independent random permutation, and each
 * value is uniform within its stratum. Draws come from the stream `sweep-lhs` of the
 * sweep seed, parameters in sorted-name order, so the sample is a function of the seed.
 */
export function latinHypercube(lhs: LatinHypercube, seed: number): SweepPoint[] {
  const rng = new RngStreams(seed).stream('sweep-lhs');
  const n = lhs.samples;
  const points: SweepPoint[] = Array.from({ length: n }, () => ({}));
  for (const name of Object.keys(lhs.params).sort()) {
    const [lo, hi] = lhs.params[name];
    const strata = Array.from({ length: n }, (_, i) => i);
    rng.shuffle(strata);
    for (let i = 0; i < n; i++) points[i][name] = lo + ((hi - lo) * (strata[i] + rng.next())) / n;
  }
  return points;
}

function cross(points: SweepPoint[], name: string, values: readonly Json[]): SweepPoint[] {
  return points.flatMap((p) => values.map((v) => ({ ...p, [name]: v })));
}

/**
 * The points of a sweep, in a fixed order: the full factorial of the grid and range
 * values (keys in the order given, the last key varying fastest), each crossed with the
 * Latin hypercube samples when there are some. A sweep with nothing swept has one point.
 */
export function sweepPoints(spec: SweepSpec): SweepPoint[] {
  let points: SweepPoint[] = [{}];
  const axes: [string, readonly Json[]][] = [
    ...Object.entries(spec.grid),
    ...Object.entries(spec.ranges).map(([k, r]) => [k, rangeValues(k, r)] as [string, Json[]]),
  ];
  const size = axes.reduce((n, [, v]) => n * v.length, 1) * (spec.lhs?.samples ?? 1);
  if (size > MAX_POINTS)
    throw new ConfigError(`the sweep has ${size} points, more than ${MAX_POINTS}`, {
      hint: 'sweep fewer values',
    });
  for (const [name, values] of axes) points = cross(points, name, values);
  if (!spec.lhs) return points;
  const samples = latinHypercube(spec.lhs, spec.seed);
  return points.flatMap((p) => samples.map((s) => ({ ...p, ...s })));
}
