import { canonicalJson, type Json, LogFormatError } from '../core/index.ts';
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
  /**
   * Agents whose statechart states or memory differ at the end (first 50, with only the
   * differing fields: `state.<region>`, `mem.<name or column>`), and how many in all.
   */
  agents: {
    differing: number;
    sample: { agent: number; a: Record<string, string>; b: Record<string, string> }[];
  } | null;
}

function columnValue(col: Buffer, size: number, i: number): string {
  const width = size > 0 ? col.length / size : 0;
  if (width === 8) return String(col.readDoubleLE(i * 8));
  if (width === 4) return String(col.readInt32LE(i * 4));
  if (width === 2) return String(col.readUInt16LE(i * 2));
  return String(col[i]);
}

/** Each agent's final statechart state (`state.<region>`) and memory (`mem.<name>`), as strings. */
function agentValues(state: Json): Map<number, Record<string, string>> | null {
  const ex = (state as { executor?: Record<string, Json> }).executor;
  if (!ex) return null;
  const out = new Map<number, Record<string, string>>();
  if (ex.kind === 'xstate') {
    for (const [i, snap] of ex.agents as [
      number,
      { value: Record<string, string>; context?: { mem?: Json } },
    ][]) {
      const fields: Record<string, string> = {};
      for (const [r, v] of Object.entries(snap.value ?? {})) fields[`state.${r}`] = String(v);
      const mem = (snap.context?.mem ?? {}) as Record<string, Json>;
      for (const [k, v] of Object.entries(mem)) fields[`mem.${k}`] = canonicalJson(v);
      out.set(i, fields);
    }
    return out;
  }
  const size = ex.size as number;
  const regions = (ex.regions as string[]).map((b) => Buffer.from(b, 'base64'));
  const columns = ((ex.columns as string[] | undefined) ?? []).map((b) => Buffer.from(b, 'base64'));
  for (let i = 0; i < size; i++) {
    const fields: Record<string, string> = {};
    regions.forEach((r, k) => {
      fields[`state.${k}`] = String(r[i]);
    });
    columns.forEach((c, k) => {
      fields[`mem.${k}`] = columnValue(c, size, i);
    });
    out.set(i, fields);
  }
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
  side.finalStates = lastSnapshot ? agentValues(lastSnapshot) : null;
  return side;
}

function body(event: Record<string, unknown>): string {
  const { wall: _w, ...rest } = event;
  return canonicalJson(rest);
}

function differingFields(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== 'wall').sort();
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** Compares two runs: the first differing event, metrics over time, and agents whose final state differs. */
export function diffRuns(a: DiffSide, b: DiffSide): RunDiff {
  let first: FirstDifference | null = null;
  const n = Math.max(a.hashes.length, b.hashes.length);
  // Compare line bodies (wall-clock fields aside), not hashes: once the header differs every
  // hash differs, though later lines may be the same.
  for (let seq = 0; seq < n && !first; seq++) {
    const la = a.lines[seq];
    const lb = b.lines[seq];
    if (la && lb && body(la.event) === body(lb.event)) continue;
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
      const keys = [...new Set([...Object.keys(sa), ...Object.keys(sb)])].filter((k) => sa[k] !== sb[k]);
      if (keys.length === 0) continue;
      differing++;
      if (sample.length < 50)
        sample.push({
          agent: i,
          a: Object.fromEntries(keys.map((k) => [k, sa[k]])),
          b: Object.fromEntries(keys.map((k) => [k, sb[k]])),
        });
    }
    agents = { differing, sample };
  }
  return { identical: first === null && a.lines.length === b.lines.length, first, metrics, agents };
}
