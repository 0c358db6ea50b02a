import { esc, svgChart } from '../report/index.ts';
import { meanCi } from '../stats/index.ts';
import { numericOutcomes } from './point-summary.ts';
import type { SweepRow } from './results-table.ts';

/** Most charts one report draws (outcomes × numeric parameters). */
const MAX_CHARTS = 24;

const STYLE =
  'body{font-family:sans-serif;max-width:900px;margin:2em auto;padding:0 1em;color:#222}figure{margin:1.5em 0}figcaption{color:#555;font-size:90%}';

/** Numeric swept parameters (every point's value a number). */
function numericParams(rows: readonly SweepRow[]): string[] {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.point)))];
  return keys.filter((k) => rows.every((r) => typeof r.point[k] === 'number'));
}

/** One chart: outcome vs parameter, runs grouped by the parameter's value; mean and 95% CI. */
function chart(
  rows: readonly SweepRow[],
  param: string,
  outcome: { name: string; value: (r: SweepRow) => number },
): string {
  const groups = new Map<number, number[]>();
  for (const r of rows) {
    const x = r.point[param] as number;
    groups.set(x, [...(groups.get(x) ?? []), outcome.value(r)]);
  }
  const xs = [...groups.keys()].sort((a, b) => a - b);
  const stats = xs.map((x) => meanCi(groups.get(x) ?? []));
  const fin = (v: number) => (Number.isFinite(v) ? v : null);
  return svgChart({
    title: `${outcome.name} vs ${param}`,
    xLabel: param,
    yLabel: outcome.name,
    mark: xs.length === rows.length ? 'points' : 'line',
    series: [
      { name: 'mean', x: xs, y: stats.map((s) => fin(s.mean)) },
      { name: '95% CI low', x: xs, y: stats.map((s) => fin(s.lo)) },
      { name: '95% CI high', x: xs, y: stats.map((s) => fin(s.hi)) },
    ],
  });
}

/**
 * A self-contained HTML page: for each numeric swept parameter and numeric outcome, the
 * outcome's mean and 95% Student t CI against the parameter. With several swept
 * parameters, the runs at one value are pooled over the others (a marginal view); the
 * per-point figures are in summary.csv.
 */
export function sweepReportHtml(title: string, rows: readonly SweepRow[]): string {
  const params = numericParams(rows);
  const outcomes = numericOutcomes(rows);
  const figures: string[] = [];
  for (const p of params)
    for (const o of outcomes) {
      if (figures.length >= MAX_CHARTS) break;
      figures.push(
        `<figure>${chart(rows, p, o)}<figcaption>${esc(o.name)} against ${esc(p)}: mean over the runs at each value, with its 95% confidence interval.</figcaption></figure>`,
      );
    }
  const none = params.length === 0 ? '<p>No numeric parameter was swept: see summary.csv.</p>' : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${esc(title)}</h1>`,
    `<p>${rows.length} runs. Tables: results.csv, results.parquet, summary.csv.</p>`,
    none,
    ...figures,
    '</body></html>',
    '',
  ].join('\n');
}
