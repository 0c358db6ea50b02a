import { formatInterval, formatNumber, type Json } from '../core/index.ts';
import {
  affineTwins,
  esc,
  FEW_PAIRS_NOTE,
  type Figure,
  reductionText,
  reportPageHtml,
  signFlipText,
} from '../report/index.ts';
import { meanCi } from '../stats/index.ts';
import { numericOutcomes } from './point-summary.ts';
import type { SweepRow } from './results-table.ts';
import { type LevelContrast, type SweepDesign, sweepContrasts, sweepDesign } from './sweep-contrasts.ts';
import type { SweepPoint } from './sweep-points.ts';
import type { SweepSpec } from './sweep-spec.ts';

/** What a sweep's report shows. */
export interface SweepReportInput {
  spec: SweepSpec;
  world: { id: string; version: string };
  /** The finished runs, and every point of the plan. */
  rows: readonly SweepRow[];
  points: readonly SweepPoint[];
}

/** Most charts one report draws (varying outcomes × numeric swept parameters). */
const MAX_CHARTS = 24;

/** Numeric swept parameters (every point's value a number). */
function numericParams(rows: readonly SweepRow[]): string[] {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.point)))];
  return keys.filter((k) => rows.every((r) => typeof r.point[k] === 'number'));
}

/** The outcomes that differ between runs (an outcome equal in every run has nothing to show). */
function varyingOutcomes(rows: readonly SweepRow[]) {
  return numericOutcomes(rows).filter((o) => new Set(rows.map(o.value)).size > 1);
}

/** Outcome against parameter: mean per value with its shaded 95% band (runs at a value pooled). */
function chartFigure(
  rows: readonly SweepRow[],
  param: string,
  o: { name: string; value: (r: SweepRow) => number },
): Figure {
  const groups = new Map<number, number[]>();
  for (const r of rows)
    groups.set(r.point[param] as number, [...(groups.get(r.point[param] as number) ?? []), o.value(r)]);
  const xs = [...groups.keys()].sort((a, b) => a - b);
  const stats = xs.map((x) => meanCi(groups.get(x) ?? []));
  const fin = (v: number) => (Number.isFinite(v) ? v : null);
  const single = stats.every((s) => s.n < 2);
  return {
    id: `sweep-${o.name}-${param}`,
    title: `${o.name} against ${param}`,
    caption: `Mean of ${o.name} over the runs at each value of ${param}${single ? ' (one run per value: no interval)' : ', shaded with its 95% confidence band (Student t over those runs)'}${Object.keys(rows[0]?.point ?? {}).length > 1 ? '; the runs at a value are pooled over the other swept parameters (a marginal view: summary.csv has each point)' : ''}.`,
    chart: {
      title: `${o.name} against ${param}`,
      xLabel: param,
      yLabel: o.name,
      mark: xs.length < 3 || xs.length === rows.length ? 'points' : 'line',
      ...(single ? {} : { bandLabel: '95% CI' }),
      series: [
        {
          name: 'mean',
          x: xs,
          y: stats.map((s) => fin(s.mean)),
          ...(single ? {} : { band: { lo: stats.map((s) => fin(s.lo)), hi: stats.map((s) => fin(s.hi)) } }),
        },
      ],
    },
  };
}

const show = (v: Json) => (typeof v === 'string' ? v : JSON.stringify(v));

function contrastTable(design: SweepDesign, contrasts: readonly LevelContrast[]): Figure[] {
  if (contrasts.length === 0) return [];
  const { factor } = contrasts[0];
  const columns = ['outcome', factor, `mean at ${show(contrasts[0].baseline)}`, 'mean', 'difference'];
  columns.push(
    ...(design.paired
      ? ['paired t 95% CI', 'sign-flip 95% CI', 'r', 'variance reduction']
      : ['Welch 95% CI']),
  );
  const rows = contrasts.map((c) => {
    const row: (string | number | null)[] = [
      c.outcome,
      show(c.level),
      c.baselineMean,
      c.levelMean,
      c.levelMean - c.baselineMean,
    ];
    const p = c.paired;
    if (p)
      row.push(
        formatInterval(p.t.lo, p.t.hi),
        signFlipText(p.signFlip.lo, p.signFlip.hi),
        Number.isFinite(p.correlation) ? p.correlation : null,
        reductionText(p.varianceRatio),
      );
    else row.push(formatInterval(c.welch.lo, c.welch.hi));
    return row;
  });
  const few = contrasts.some((c) => c.paired && !Number.isFinite(c.paired.signFlip.lo));
  return [
    {
      id: 'sweep-contrasts',
      title: `Each value of ${factor} against ${show(contrasts[0].baseline)}`,
      caption: design.paired
        ? `Difference of each outcome's mean from its mean at ${factor} = ${show(contrasts[0].baseline)}, analysed on the per-seed differences (${design.why}): the paired t interval, the sign-flip permutation interval (seeded), the correlation r of the paired runs and the variance reduction 1 − var(differences) / (var(a) + var(b)) that pairing gave. Outcomes equal in every run are left out.${few ? ` ${FEW_PAIRS_NOTE}.` : ''}`
        : `Difference of each outcome's mean from its mean at ${factor} = ${show(contrasts[0].baseline)} with the Welch 95% interval: ${design.why}. Rerun the sweep with --shared-seeds (in a new folder) for paired comparisons. Outcomes equal in every run are left out.`,
      table: { columns, rows },
    },
  ];
}

function sweptText(spec: SweepSpec, points: readonly SweepPoint[]): string {
  const parts = [
    ...Object.entries(spec.grid).map(([k, v]) => `${k} ∈ {${v.map(show).join(', ')}}`),
    ...Object.entries(spec.ranges).map(
      ([k, r]) => `${k} from ${formatNumber(r.from)} to ${formatNumber(r.to)} by ${formatNumber(r.step)}`,
    ),
    ...(spec.lhs
      ? [`a Latin hypercube of ${spec.lhs.samples} samples over ${Object.keys(spec.lhs.params).join(', ')}`]
      : []),
  ];
  return parts.length
    ? `Swept: ${parts.join('; ')} (${points.length} points).`
    : 'Nothing swept (one point).';
}

/**
 * A sweep's report as one self-contained HTML page: what was swept and how the seeds were
 * drawn, the parameters every run got, for each numeric swept parameter each outcome that
 * varies (mean and shaded 95% band), and for a sweep of one factor every level against the
 * first: paired by seed when the seeds are shared, else Welch.
 */
export function sweepReportHtml(input: SweepReportInput): string {
  const { spec, rows, points } = input;
  const design = sweepDesign(spec, rows, points);
  const outcomes = varyingOutcomes(rows);
  const twins = affineTwins(new Map(outcomes.map((o) => [o.name, rows.map(o.value)])));
  const figures: Figure[] = [];
  for (const p of numericParams(rows))
    for (const o of outcomes.filter((x) => !twins.has(x.name)))
      if (figures.length < MAX_CHARTS) figures.push(chartFigure(rows, p, o));
  const contrasts = sweepContrasts(spec, rows, points, design);
  figures.push(
    ...contrastTable(
      design,
      contrasts.filter((c) => !twins.has(c.outcome)),
    ),
  );
  const names = new Set(outcomes.map((o) => o.name));
  const constant = numericOutcomes(rows).filter((o) => !names.has(o.name));
  const planned = points.length * spec.replicates;
  const seeds =
    spec.seeds === 'shared' ? 'seeds shared across points (--shared-seeds)' : 'seeds per point (the default)';
  return reportPageHtml({
    title: `grapevine sweep: ${input.world.id}, ${points.length} points × ${spec.replicates} replicates`,
    intro: [
      `World ${esc(`${input.world.id}@${input.world.version}`)}. ${esc(sweptText(spec, points))} ${rows.length} of ${planned} runs finished. Tables: results.csv, results.parquet, summary.csv.`,
      `Base seed ${spec.seed}, ${seeds}: ${esc(design.why)}.`,
      ...(twins.size
        ? [
            `Not plotted, as exact linear functions of a plotted outcome over the runs: ${esc([...twins].map(([a, b]) => `${a} (of ${b})`).join(', '))}.`,
          ]
        : []),
      ...(constant.length
        ? [
            `The same in every run, so not plotted: ${esc(constant.map((o) => `${o.name} = ${formatNumber(o.value(rows[0]))}`).join(', '))}.`,
          ]
        : []),
      ...(numericParams(rows).length === 0
        ? ['No numeric parameter was swept, so there are no charts: see summary.csv.']
        : []),
    ],
    params: spec.set,
    paramsCaption:
      "The parameters every run was given (--set or the sweep file's set); the others are the world's defaults, and every run's log header records them all.",
    figures,
    data: { spec, world: input.world, runs: rows.length, design, contrasts },
  });
}
