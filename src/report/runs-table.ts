import { readLog } from '../replay/index.ts';
import type { ExportColumn, ExportTable } from './export-tables.ts';

/** One run of a batch to tabulate: its log, the id it gets, and its group (e.g. treated). */
export interface BatchRun {
  id: string;
  path: string;
  group?: string;
  /** The seed to list (default: the header's), e.g. a fork child's future seed, which pairs share. */
  seed?: number;
}

/** What one run's log gives the table: its seed and parameters, and its metrics per tick. */
interface RunSeries {
  run: BatchRun;
  seed: number | null;
  params: Record<string, string | number | null>;
  ticks: number[];
  metrics: Map<string, (number | null)[]>;
}

/** A parameter value as one cell: numbers and strings as they are, anything else as JSON text. */
function cell(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string') return v;
  return JSON.stringify(v);
}

async function readSeries(run: BatchRun): Promise<RunSeries> {
  const out: RunSeries = { run, seed: run.seed ?? null, params: {}, ticks: [], metrics: new Map() };
  for await (const line of readLog(run.path)) {
    if (line.type === 'header') {
      const h = line.event as Record<string, unknown>;
      if (run.seed === undefined) out.seed = typeof h.seed === 'number' ? h.seed : null;
      for (const [k, v] of Object.entries((h.params ?? {}) as Record<string, unknown>))
        out.params[k] = cell(v);
    } else if (line.type === 'tick') {
      const j = out.ticks.length;
      out.ticks.push(line.t);
      for (const [k, v] of Object.entries((line.event.metrics ?? {}) as Record<string, unknown>)) {
        let col = out.metrics.get(k);
        if (!col) {
          col = new Array<number | null>(j).fill(null);
          out.metrics.set(k, col);
        }
        col[j] = typeof v === 'number' ? v : null;
      }
    }
  }
  return out;
}

/** The value of a metric at `tick`: the last one recorded at or before it (forward-filled), null before the first. */
function filledAt(
  s: RunSeries,
  col: (number | null)[] | undefined,
  tick: number,
  from: { j: number; v: number | null },
): number | null {
  while (from.j < s.ticks.length && s.ticks[from.j] <= tick) {
    const v = col?.[from.j];
    if (v !== undefined && v !== null) from.v = v;
    from.j++;
  }
  return from.v;
}

/**
 * One tidy table across the runs of a sweep or a fork batch, the shape a data-frame user
 * expects (Mesa's `batch_run`): a row per (run, tick) with the run's id, group, seed and
 * every parameter as columns, then one column per metric. Runs are put on a common tick
 * range (every tick any run recorded): a run's value at a tick is its last recorded value at
 * or before it, so a run that stopped early keeps its final value. Every log is verified
 * while it is read.
 */
export async function runsTable(runs: readonly BatchRun[]): Promise<ExportTable> {
  const series: RunSeries[] = [];
  for (const run of runs) series.push(await readSeries(run));
  const params = [...new Set(series.flatMap((s) => Object.keys(s.params)))].sort();
  const metrics = [...new Set(series.flatMap((s) => [...s.metrics.keys()]))].sort();
  const ticks = [...new Set(series.flatMap((s) => s.ticks))].sort((a, b) => a - b);
  const grouped = runs.some((r) => r.group !== undefined);
  const numeric = (k: string) =>
    series.every((s) => s.params[k] === null || s.params[k] === undefined || typeof s.params[k] === 'number');
  const columns: ExportColumn[] = [
    { name: 'run', type: 'string' },
    ...(grouped ? [{ name: 'group', type: 'string' as const }] : []),
    { name: 'seed', type: 'double' },
    ...params.map((k) => ({ name: k, type: numeric(k) ? ('double' as const) : ('string' as const) })),
    { name: 'tick', type: 'double' },
    ...metrics.map((k) => ({ name: k, type: 'double' as const })),
  ];
  async function* rows() {
    for (const s of series) {
      const cursors = metrics.map(() => ({ j: 0, v: null as number | null }));
      const fixed = [
        s.run.id,
        ...(grouped ? [s.run.group ?? null] : []),
        s.seed,
        ...params.map((k) => s.params[k] ?? null),
      ];
      for (const t of ticks)
        yield [...fixed, t, ...metrics.map((k, m) => filledAt(s, s.metrics.get(k), t, cursors[m]))];
    }
  }
  return { columns, rows: rows() };
}
