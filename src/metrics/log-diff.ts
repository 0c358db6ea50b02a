import { type Json, LogFormatError } from '../core/index.ts';
import { readLog } from '../replay/index.ts';

/** What one log holds for a diff: its lines' hashes, tick metrics and final agent states. */
export interface DiffSide {
  path: string;
  hashes: string[];
  lines: { seq: number; t: number; type: string; event: Record<string, unknown> }[];
  metrics: Map<number, Record<string, number>>;
  finalStates: Map<number, Record<string, string>> | null;
}

/** The first event where two logs differ. */
export interface FirstDifference {
  seq: number;
  tick: number;
  a: { type: string; fields: string[] } | null;
  b: { type: string; fields: string[] } | null;
}

/** The result of comparing two runs. */
export interface RunDiff {
  identical: boolean;
  first: FirstDifference | null;
  /** Per metric: final value in A and B, B − A, and the first tick at which they differ. */
  metrics: Record<
    string,
    { a: number | null; b: number | null; delta: number | null; firstTick: number | null }
  >;
  /** Agents whose statechart states differ at the end (first 50), and how many in all. */
  agents: {
    differing: number;
    sample: { agent: number; a: Record<string, string>; b: Record<string, string> }[];
  } | null;
}

function regionValues(state: Json): Map<number, Record<string, string>> | null {
  const ex = (state as { executor?: Record<string, Json> }).executor;
  if (!ex) return null;
  if (ex.kind === 'xstate') {
    const out = new Map<number, Record<string, string>>();
    for (const [i, snap] of ex.agents as [number, { value: Record<string, string> }][])
      out.set(i, snap.value);
    return out;
  }
  const regions = (ex.regions as string[]).map((b) => Buffer.from(b, 'base64'));
  const out = new Map<number, Record<string, string>>();
  for (let i = 0; i < (ex.size as number); i++)
    out.set(i, Object.fromEntries(regions.map((r, k) => [String(k), String(r[i])])));
  return out;
}

/** Reads one side of a diff. */
export async function readDiffSide(path: string): Promise<DiffSide> {
  const side: DiffSide = { path, hashes: [], lines: [], metrics: new Map(), finalStates: null };
  let lastSnapshot: Json | null = null;
  for await (const line of readLog(path)) {
    side.hashes.push(line.raw.slice(-18, -2));
    side.lines.push({ seq: line.seq, t: line.t, type: line.type, event: line.event });
    if (line.type === 'tick') side.metrics.set(line.t, line.event.metrics as Record<string, number>);
    if (line.type === 'snapshot') lastSnapshot = line.event.state as Json;
  }
  if (side.hashes.length === 0) throw new LogFormatError(`${path} is empty`);
  side.finalStates = lastSnapshot ? regionValues(lastSnapshot) : null;
  return side;
}

function differingFields(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== 'wall').sort();
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** Compares two runs: the first differing event, metrics over time, and agents whose final state differs. */
export function diffRuns(a: DiffSide, b: DiffSide): RunDiff {
  let first: FirstDifference | null = null;
  const n = Math.max(a.hashes.length, b.hashes.length);
  for (let seq = 1; seq < n && !first; seq++) {
    if (a.hashes[seq] === b.hashes[seq]) continue;
    const la = a.lines[seq];
    const lb = b.lines[seq];
    const fields = la && lb ? differingFields(la.event, lb.event) : [];
    first = {
      seq,
      tick: (la ?? lb).t,
      a: la ? { type: la.type, fields } : null,
      b: lb ? { type: lb.type, fields } : null,
    };
  }
  const metrics: RunDiff['metrics'] = {};
  const ticks = [...new Set([...a.metrics.keys(), ...b.metrics.keys()])].sort((x, y) => x - y);
  const lastA = a.metrics.get(Math.max(...a.metrics.keys())) ?? {};
  const lastB = b.metrics.get(Math.max(...b.metrics.keys())) ?? {};
  for (const key of [...new Set([...Object.keys(lastA), ...Object.keys(lastB)])].sort()) {
    const firstTick = ticks.find((t) => a.metrics.get(t)?.[key] !== b.metrics.get(t)?.[key]) ?? null;
    const va = lastA[key] ?? null;
    const vb = lastB[key] ?? null;
    metrics[key] = { a: va, b: vb, delta: va === null || vb === null ? null : vb - va, firstTick };
  }
  let agents: RunDiff['agents'] = null;
  if (a.finalStates && b.finalStates) {
    const sample: NonNullable<RunDiff['agents']>['sample'] = [];
    let differing = 0;
    const ids = [...new Set([...a.finalStates.keys(), ...b.finalStates.keys()])].sort((x, y) => x - y);
    for (const i of ids) {
      const sa = a.finalStates.get(i) ?? {};
      const sb = b.finalStates.get(i) ?? {};
      if (JSON.stringify(sa) === JSON.stringify(sb)) continue;
      differing++;
      if (sample.length < 50) sample.push({ agent: i, a: sa, b: sb });
    }
    agents = { differing, sample };
  }
  return { identical: first === null && a.hashes.length === b.hashes.length, first, metrics, agents };
}
