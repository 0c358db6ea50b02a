import type { Json } from '../core/index.ts';
import type { ExportColumn, ExportTable } from '../report/index.ts';
import type { RunOutcome } from './run-task.ts';
import type { PlannedRun } from './sweep-plan.ts';
import type { SweepPoint } from './sweep-points.ts';

/** A finished run of a sweep: its plan and its outcome. */
export interface SweepRow {
  run: PlannedRun;
  point: SweepPoint;
  outcome: RunOutcome;
}

type Cell = number | string | null;

/** A column's cells and storage type: numbers stay numbers; anything else is text (JSON unless a string). */
function column(name: string, values: readonly (Json | undefined)[]): { col: ExportColumn; cells: Cell[] } {
  const numeric = values.every((v) => v === undefined || v === null || typeof v === 'number');
  const cells = values.map((v): Cell => {
    if (v === undefined || v === null) return null;
    if (numeric) return Number.isFinite(v) ? (v as number) : null;
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
  return { col: { name, type: numeric ? 'double' : 'string' }, cells };
}

function keysOf(records: readonly Record<string, unknown>[]): string[] {
  const keys = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) keys.add(k);
  return [...keys].sort();
}

/** Nested plain objects as dotted keys (`{fact: {reach: 1}}` → `fact.reach`); arrays stay values. */
export function flattenJson(obj: Readonly<Record<string, Json>>, prefix = ''): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      Object.assign(out, flattenJson(v, `${prefix}${k}.`));
    else out[`${prefix}${k}`] = v;
  }
  return out;
}

/**
 * The outcome columns of a sweep's rows: `metric.<name>` (the last tick's metrics) and
 * `summary.<name>` (the world's summary, nested objects flattened to dotted names), each
 * sorted by name.
 */
export function outcomeColumns(rows: readonly SweepRow[]): { name: string; value: (r: SweepRow) => Json }[] {
  const summaries = new Map(rows.map((r) => [r, flattenJson(r.outcome.summary)]));
  const metricKeys = keysOf(rows.map((r) => r.outcome.metrics));
  const summaryKeys = keysOf([...summaries.values()]);
  return [
    ...metricKeys.map((k) => ({ name: `metric.${k}`, value: (r: SweepRow) => r.outcome.metrics[k] ?? null })),
    ...summaryKeys.map((k) => ({
      name: `summary.${k}`,
      value: (r: SweepRow) => summaries.get(r)?.[k] ?? null,
    })),
  ];
}

/**
 * The results table of a sweep, one row per run in plan order: `run`, `point`,
 * `replicate`, the swept parameters (`param.<name>`, in the points' key order), `seed`,
 * `digest`, `ticks`, `reason`, then the outcome columns. It depends on the runs only, not
 * on how many workers ran them or in which order they finished.
 */
export function resultsTable(rows: readonly SweepRow[]): ExportTable {
  const sorted = [...rows].sort((a, b) => a.run.index - b.run.index);
  const paramKeys = [...new Set(sorted.flatMap((r) => Object.keys(r.point)))];
  const cols: { col: ExportColumn; cells: Cell[] }[] = [
    column(
      'run',
      sorted.map((r) => r.run.id),
    ),
    column(
      'point',
      sorted.map((r) => r.run.point),
    ),
    column(
      'replicate',
      sorted.map((r) => r.run.replicate),
    ),
    ...paramKeys.map((k) =>
      column(
        `param.${k}`,
        sorted.map((r) => r.point[k]),
      ),
    ),
    column(
      'seed',
      sorted.map((r) => r.run.seed),
    ),
    column(
      'digest',
      sorted.map((r) => r.outcome.digest),
    ),
    column(
      'ticks',
      sorted.map((r) => r.outcome.ticks),
    ),
    column(
      'reason',
      sorted.map((r) => r.outcome.reason),
    ),
    ...outcomeColumns(sorted).map((o) => column(o.name, sorted.map(o.value))),
  ];
  async function* tableRows() {
    for (let i = 0; i < sorted.length; i++) yield cols.map((c) => c.cells[i]);
  }
  return { columns: cols.map((c) => c.col), rows: tableRows() };
}
