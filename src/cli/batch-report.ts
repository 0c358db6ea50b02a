import { existsSync } from 'node:fs';
import { formatInterval, formatNumber } from '../core/index.ts';
import {
  batchEffects,
  type ForkBatch,
  type ForkChild,
  type OutcomeEffect,
  readForkBatch,
} from '../metrics/index.ts';
import {
  affineTwins,
  analyzeLog,
  esc,
  FEW_PAIRS_NOTE,
  type Figure,
  type RunAnalysis,
  reductionText,
  reportPageHtml,
  signFlipText,
} from '../report/index.ts';
import { meanCi } from '../stats/index.ts';
import { batchJson, describeSeeds, describeTreatment } from './batch-summary.ts';

/** A metric's value at `tick`, the last recorded one carried forward once a run has stopped. */
function valueAt(
  ticks: readonly number[],
  values: (j: number) => number | null | undefined,
  tick: number,
): number | null {
  let v: number | null = null;
  for (let j = 0; j < ticks.length && ticks[j] <= tick; j++) v = values(j) ?? v;
  return v;
}

function childValueAt(c: ForkChild, key: string, tick: number): number | null {
  const s = c.series as NonNullable<ForkChild['series']>;
  return valueAt(s.ticks, (j) => s.metrics[j][key], tick);
}

/** An arm's mean per tick with its 95% t band. */
function armSeries(children: readonly ForkChild[], key: string, ticks: readonly number[], name: string) {
  const stats = ticks.map((t) => {
    const xs = children.map((c) => childValueAt(c, key, t)).filter((v): v is number => v !== null);
    return meanCi(xs);
  });
  const fin = (v: number) => (Number.isFinite(v) ? v : null);
  return {
    name,
    x: ticks,
    y: stats.map((s) => fin(s.mean)),
    band: { lo: stats.map((s) => fin(s.lo)), hi: stats.map((s) => fin(s.hi)) },
  };
}

/** Per outcome that varies between the children: both arms' mean curves with shaded 95% bands. */
function curveFigures(
  batch: ForkBatch,
  effects: readonly OutcomeEffect[],
): { figures: Figure[]; twins: Map<string, string> } {
  const all = [...batch.control, ...batch.treated];
  const ticks = [...new Set(all.flatMap((c) => c.series?.ticks ?? []))].sort((a, b) => a - b);
  const keys = effects
    .filter((e) => e.constant === null && e.outcome.startsWith('metric.'))
    .map((e) => e.outcome.slice(7));
  // a metric whose every child's whole curve is a linear function of an earlier one's is not drawn again
  const curves = new Map(
    keys.map((k) => [k, all.flatMap((c) => ticks.map((t) => childValueAt(c, k, t) ?? Number.NaN))]),
  );
  const twins = affineTwins(curves);
  const figures = keys
    .filter((k) => !twins.has(k))
    .map((key) => {
      return {
        id: `batch-${key}`,
        title: `${key}: treated and control`,
        caption: `Mean of "${key}" per tick over the ${batch.treated.length} treated and the ${batch.control.length} control children, each shaded with its 95% confidence band (Student t over the children at that tick); a child that stopped early keeps its last value. The dashed line is the fork tick.`,
        chart: {
          title: `${key}: treated and control`,
          xLabel: 'tick',
          yLabel: key,
          bandLabel: '95% CI',
          rules: [{ x: batch.atTick, label: `fork (tick ${batch.atTick})` }],
          series: [
            armSeries(batch.control, key, ticks, 'control'),
            armSeries(batch.treated, key, ticks, 'treated'),
          ],
        },
      };
    });
  return { figures, twins };
}

/** The effect table: the paired analysis when the children pair, Welch when not (or on request). */
function effectTable(batch: ForkBatch, effects: readonly OutcomeEffect[], welch: boolean): Figure {
  const varying = effects.filter((e) => e.constant === null);
  const constant = effects.filter((e) => e.constant !== null);
  const paired = batch.pairs !== null;
  const columns = ['outcome', 'control', 'treated', 'effect'];
  if (paired) columns.push('paired t 95% CI', 'sign-flip 95% CI', 'r', 'variance reduction');
  if (welch || !paired) columns.push('Welch 95% CI');
  const rows = varying.map((e) => {
    const p = e.paired;
    const row: (string | number | null)[] = [
      e.outcome,
      e.control.mean,
      e.treated.mean,
      e.treated.mean - e.control.mean,
    ];
    if (p)
      row.push(
        formatInterval(p.t.lo, p.t.hi),
        signFlipText(p.signFlip.lo, p.signFlip.hi),
        Number.isFinite(p.correlation) ? p.correlation : null,
        reductionText(p.varianceRatio),
      );
    if (welch || !p) row.push(formatInterval(e.welch.lo, e.welch.hi));
    return row;
  });
  const flips = varying[0]?.paired?.signFlip;
  const how = paired
    ? `over the ${batch.pairs?.length} pairs: the paired t interval of the mean per-pair difference, and the sign-flip permutation interval (${flips?.exact ? `all ${(flips?.flips ?? 0) + 1} sign vectors` : `${flips?.flips} seeded random sign vectors`}); r is the correlation of the paired outcomes, and the variance reduction 1 − var(differences) / (var(control) + var(treated)) is what pairing saved against independent samples of the same size${welch ? '; the Welch interval is the unpaired analysis of the same values' : ''}`
    : `with the Welch 95% interval (unpaired: ${batch.unpaired})`;
  return {
    id: 'batch-effect',
    title: 'Effect of the treatment on the final values',
    caption: `Mean final value of each outcome in the control and treated arms, and the effect treated − control ${how}. "ticks" is each child's tick count.${varying.some((e) => e.paired && !Number.isFinite(e.paired.signFlip.lo)) ? ` ${FEW_PAIRS_NOTE}.` : ''}${constant.length ? ` The same in every child, so left out: ${constant.map((e) => `${e.outcome} = ${formatNumber(e.constant as number)}`).join(', ')}.` : ''}`,
    table: { columns, rows },
  };
}

/** How the per-pair differences fall: signs and range, per outcome that varies. */
function pairTable(batch: ForkBatch, effects: readonly OutcomeEffect[]): Figure[] {
  const rows = effects
    .filter((e) => e.constant === null && e.paired)
    .map((e) => {
      const d = [...(e.paired?.differences ?? [])].sort((a, b) => a - b);
      const median = d.length % 2 ? d[(d.length - 1) / 2] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2;
      return [
        e.outcome,
        d.filter((x) => x > 0).length,
        d.filter((x) => x === 0).length,
        d.filter((x) => x < 0).length,
        d[0],
        median,
        d[d.length - 1],
      ];
    });
  if (!batch.pairs || rows.length === 0) return [];
  return [
    {
      id: 'batch-pairs',
      title: 'Per-pair differences',
      caption: `Each pair's difference treated − control (pairs by future seed: ${describeSeeds(batch.pairs.map((p) => p.seed))}): how many are above, at and below zero, and their smallest, median and largest value. Every difference is in the report's JSON data.`,
      table: { columns: ['outcome', '> 0', '= 0', '< 0', 'min', 'median', 'max'], rows },
    },
  ];
}

/** The paragraphs that describe the folder: parent, fork tick, arms, pairs and seeds. */
function intro(batch: ForkBatch): string[] {
  const e = esc;
  const all = [...batch.control, ...batch.treated];
  const lengths = all.map((c) => c.lastTick);
  const seeds = batch.pairs
    ? `Each treated child shares its future seed with one control child (seeds ${describeSeeds(batch.pairs.map((p) => p.seed))}): ${batch.pairs.length} pairs with common random numbers, analysed on their per-pair differences.`
    : `${e(batch.unpaired ?? '')} (treated seeds ${describeSeeds(batch.treated.map((c) => c.seed))}; control seeds ${describeSeeds(batch.control.map((c) => c.seed))}), so the arms are analysed as two independent samples (Welch).`;
  return [
    `Folder <code>${e(batch.dir)}</code>: ${batch.treated.length} treated and ${batch.control.length} control children of <code>${e(batch.parent)}</code> (world ${e(`${batch.world.id}@${batch.world.version}`)}, parent digest <code>${batch.parentDigest}</code>), forked after tick ${batch.atTick}. Every child's hash chain and its parent's were verified.`,
    `Treated: ${e(describeTreatment(batch.treatment, 400))}. Control: no intervention besides the reseed.`,
    `${seeds} The children ran ${Math.min(...lengths)} to ${Math.max(...lengths)} ticks.${batch.ignored.length ? ` Not fork children, left out: ${e(batch.ignored.join(', '))}.` : ''}`,
  ];
}

/**
 * The report of a fork batch (a folder `fork --replicates` wrote, read as readForkBatch
 * reads it): a header describing the folder, the parent's parameters, each varying
 * outcome's curves per arm with 95% bands, the effect table (paired when the children
 * share their seeds, as `grapevine diff <dir>`) and the per-pair differences.
 */
export async function batchReport(
  dir: string,
  opts: { welch?: boolean },
): Promise<{ html: string; json: unknown; figures: number }> {
  const batch = await readForkBatch(dir, { series: true });
  const effects = batchEffects(batch);
  const welch = Boolean(opts.welch);
  const curves = curveFigures(batch, effects);
  const figures = [...curves.figures, effectTable(batch, effects, welch), ...pairTable(batch, effects)];
  const json = { ...batchJson(batch, effects, welch), figures };
  const html = reportPageHtml({
    title: `grapevine fork batch: ${batch.world.id}, ${batch.pairs ? `${batch.pairs.length} pairs` : `${batch.treated.length} + ${batch.control.length} children`} forked after tick ${batch.atTick}`,
    intro: [
      ...intro(batch),
      ...(curves.twins.size
        ? [
            `Curves not drawn, as exact linear functions of a drawn one in every child: ${esc([...curves.twins].map(([a, b]) => `${a} (of ${b})`).join(', '))}.`,
          ]
        : []),
    ],
    params: batch.params,
    paramsCaption:
      "The parent run's parameters, as the children's log headers record them (a params intervention changes them after the fork).",
    figures,
    data: json,
  });
  return { html, json, figures: figures.length };
}

/**
 * For a fork's child log whose parent log is still where the fork read it (and has the
 * recorded digest): the parent's and the child's `fractionAware` curves overlaid, and the
 * final metrics side by side. One child and one parent give one difference and no
 * confidence interval: `fork --replicates` and a report of its directory give the CI.
 */
export async function forkOverlayFigures(child: RunAnalysis): Promise<Figure[]> {
  // `fork` sits among the header's wall-clock fields (a path is not part of the run's identity)
  const wall = child.header.wall as { fork?: unknown } | undefined;
  const fork = wall?.fork as { parent?: string; parentDigest?: string; atTick?: number } | undefined;
  if (!fork?.parent || !existsSync(fork.parent)) return [];
  const parent = (await analyzeLog(fork.parent)).analysis;
  if (parent.digest !== fork.parentDigest) return [];
  const keys = Object.keys(child.metrics)
    .filter((k) => k in parent.metrics)
    .sort();
  const figures: Figure[] = keys
    .filter((k) => /fractionAware$/.test(k))
    .map((k) => ({
      id: `fork-${k}`,
      title: `${k}: parent and fork`,
      caption: `"${k}" per tick in the parent run (${fork.parent}) and in this fork of it after tick ${fork.atTick}; both curves are the logs' tick lines (the parent log's digest matches the one the fork recorded).`,
      chart: {
        title: `${k}: parent and fork`,
        xLabel: 'tick',
        yLabel: k,
        ...(fork.atTick === undefined
          ? {}
          : { rules: [{ x: fork.atTick, label: `fork (tick ${fork.atTick})` }] }),
        series: [
          { name: 'parent', x: parent.ticks, y: parent.metrics[k] },
          { name: 'fork', x: child.ticks, y: child.metrics[k] },
        ],
      },
    }));
  const last = (a: RunAnalysis, k: string) =>
    valueAt(a.ticks, (j) => a.metrics[k]?.[j], Number.POSITIVE_INFINITY);
  figures.push({
    id: 'fork-effect',
    title: 'Final metrics: parent and fork',
    caption:
      'Final value of each metric in the parent run and in this fork, and their difference (fork − parent). One pair of runs gives no confidence interval: fork with --replicates and report the directory for the effect with its 95% CI.',
    table: {
      columns: ['metric', 'parent', 'fork', 'difference'],
      rows: keys.map((k) => {
        const [p, c] = [last(parent, k), last(child, k)];
        return [k, p, c, p === null || c === null ? null : c - p];
      }),
    },
  });
  return figures;
}
