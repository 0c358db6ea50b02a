import type { ExportTable } from '../report/index.ts';
import { type MeanCi, meanCi } from '../stats/index.ts';
import { outcomeColumns, type SweepRow } from './results-table.ts';
import type { SweepPoint } from './sweep-points.ts';

/** One outcome at one point of a sweep, over its replicates. */
export interface PointOutcome {
  point: number;
  params: SweepPoint;
  outcome: string;
  stats: MeanCi;
}

/** The numeric outcomes of a sweep's rows (ticks and numeric metric and summary columns). */
export function numericOutcomes(
  rows: readonly SweepRow[],
): { name: string; value: (r: SweepRow) => number }[] {
  const all = [
    { name: 'ticks', value: (r: SweepRow) => r.outcome.ticks as unknown },
    ...outcomeColumns(rows).map((o) => ({ name: o.name, value: (r: SweepRow) => o.value(r) as unknown })),
  ];
  return all
    .filter((o) => rows.every((r) => typeof o.value(r) === 'number'))
    .map((o) => ({ name: o.name, value: (r: SweepRow) => o.value(r) as number }));
}

/**
 * Mean, sample SD and 95% Student t confidence interval (src/stats `meanCi`) of every
 * numeric outcome at every point, over the point's replicates, in point order.
 */
export function pointSummaries(rows: readonly SweepRow[], points: readonly SweepPoint[]): PointOutcome[] {
  const byPoint = new Map<number, SweepRow[]>();
  for (const r of rows) byPoint.set(r.run.point, [...(byPoint.get(r.run.point) ?? []), r]);
  const outcomes = numericOutcomes(rows);
  const out: PointOutcome[] = [];
  points.forEach((params, p) => {
    const group = (byPoint.get(p) ?? []).sort((a, b) => a.run.index - b.run.index);
    for (const o of outcomes)
      out.push({ point: p, params, outcome: o.name, stats: meanCi(group.map(o.value)) });
  });
  return out;
}

const num = (x: number) => (Number.isFinite(x) ? x : null);

/** The per-point summary as a table: point, parameters (JSON), outcome, n, mean, sd, ci_low, ci_high. */
export function summaryTable(summaries: readonly PointOutcome[]): ExportTable {
  async function* rows() {
    for (const s of summaries)
      yield [
        s.point,
        JSON.stringify(s.params),
        s.outcome,
        s.stats.n,
        num(s.stats.mean),
        num(s.stats.sd),
        num(s.stats.lo),
        num(s.stats.hi),
      ];
  }
  return {
    columns: [
      { name: 'point', type: 'double' },
      { name: 'params', type: 'string' },
      { name: 'outcome', type: 'string' },
      { name: 'n', type: 'double' },
      { name: 'mean', type: 'double' },
      { name: 'sd', type: 'double' },
      { name: 'ci_low', type: 'double' },
      { name: 'ci_high', type: 'double' },
    ],
    rows: rows(),
  };
}
