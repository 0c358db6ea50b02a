import type { Json } from '../core/index.ts';
import { runSeed } from './run-seed.ts';
import { type SweepPoint, sweepPoints } from './sweep-points.ts';
import type { SweepSpec } from './sweep-spec.ts';

/** One run of a sweep: which point, which replicate, its seed and its log (relative to the sweep folder). */
export interface PlannedRun {
  /** Position in the plan (point-major, then replicate). */
  index: number;
  /** `p<point>-r<replicate>`, zero-padded. */
  id: string;
  point: number;
  replicate: number;
  seed: number;
  /** The run's parameters: the sweep's `set` overlaid with the point's values. */
  params: Record<string, Json>;
  /** The log path relative to the sweep folder: `runs/<id>.ndjson`. */
  log: string;
}

/** A sweep's points and runs. */
export interface SweepPlan {
  points: SweepPoint[];
  runs: PlannedRun[];
}

/** Sets `path` (dotted) in a copy of `obj`: a point's `a.b` reaches a nested parameter. */
function setPath(obj: Record<string, Json>, path: string, value: Json): Record<string, Json> {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return { ...obj, [head]: value };
  const inner = obj[head];
  const base = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? inner : {};
  return { ...obj, [head]: setPath(base, rest.join('.'), value) };
}

/**
 * Plans every (point, replicate) run of a sweep, with its seed (see `runSeed`): with
 * `seeds: 'shared'`, replicate r of every point gets the seed that replicate r of a sweep with
 * nothing swept gets, so the runs of one replicate pair up across the points.
 */
export function planSweep(spec: SweepSpec): SweepPlan {
  const points = sweepPoints(spec);
  const pw = String(Math.max(0, points.length - 1)).length;
  const rw = String(Math.max(0, spec.replicates - 1)).length;
  const runs: PlannedRun[] = [];
  points.forEach((point, p) => {
    let params = spec.set;
    for (const [k, v] of Object.entries(point)) params = setPath(params, k, v);
    for (let r = 0; r < spec.replicates; r++) {
      const id = `p${String(p).padStart(pw, '0')}-r${String(r).padStart(rw, '0')}`;
      runs.push({
        index: runs.length,
        id,
        point: p,
        replicate: r,
        seed: runSeed(spec.seed, spec.seeds === 'shared' ? {} : point, r),
        params,
        log: `runs/${id}.ndjson`,
      });
    }
  });
  return { points, runs };
}
