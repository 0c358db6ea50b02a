import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/index.ts';
import { meanDifference, sampleStats } from '../metrics/index.ts';
import { analyzeLog, type Figure, type RunAnalysis } from '../report/index.ts';

/** The per-tick metric series of one child run. */
type Series = { ticks: number[]; metrics: RunAnalysis['metrics'] };

function childLogs(dir: string, prefix: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && /\.ndjson(\.gz)?$/.test(f))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((f) => join(dir, f));
}

/** A metric's value at `tick`, the last recorded one carried forward once a run has stopped. */
function valueAt(s: Series, key: string, tick: number): number | null {
  let v: number | null = null;
  for (let j = 0; j < s.ticks.length && s.ticks[j] <= tick; j++) v = s.metrics[key]?.[j] ?? v;
  return v;
}

function band(runs: readonly Series[], key: string, ticks: readonly number[], who: string) {
  const stats = ticks.map((t) => {
    const xs = runs.map((r) => valueAt(r, key, t)).filter((v): v is number => v !== null);
    return xs.length ? sampleStats(xs) : null;
  });
  return [
    { name: `${who} mean`, x: ticks, y: stats.map((s) => s?.mean ?? null) },
    { name: `${who} 95% CI low`, x: ticks, y: stats.map((s) => s?.ci95[0] ?? null) },
    { name: `${who} 95% CI high`, x: ticks, y: stats.map((s) => s?.ci95[1] ?? null) },
  ];
}

/**
 * The figures of a `fork --replicates` directory: per `fractionAware` metric, the treated
 * and control children's mean curves with their 95% CIs (Student t over replicates), and a
 * table of the effect on every final metric (treated − control, Welch 95% CI), as `grapevine
 * diff <dir>` computes it. Each child's log is read (and verified) once.
 */
export async function batchFigures(dir: string): Promise<{ first: RunAnalysis; figures: Figure[] }> {
  const read = async (paths: string[]) => Promise.all(paths.map(async (p) => (await analyzeLog(p)).analysis));
  const treated = await read(childLogs(dir, 'treated-'));
  const control = await read(childLogs(dir, 'control-'));
  if (!treated.length || !control.length)
    throw new UsageError(`${dir} holds no treated-*/control-* logs`, {
      hint: 'report a log, or a directory written by grapevine fork --replicates',
    });
  const ticks = [...new Set([...treated, ...control].flatMap((a) => a.ticks))].sort((a, b) => a - b);
  const keys = Object.keys(control[0].metrics).sort();
  const figures: Figure[] = keys
    .filter((k) => /fractionAware$/.test(k))
    .map((k) => ({
      id: `batch-${k}`,
      title: `${k}: treated vs control`,
      caption: `Mean of "${k}" over ${treated.length} treated and ${control.length} control children of the fork, with 95% confidence intervals (Student t over the replicates), per tick; a child that stopped early keeps its last value.`,
      chart: {
        title: `${k}: treated vs control`,
        xLabel: 'tick',
        yLabel: k,
        series: [...band(control, k, ticks, 'control'), ...band(treated, k, ticks, 'treated')],
      },
    }));
  const last = (a: RunAnalysis, k: string) => valueAt(a, k, Number.POSITIVE_INFINITY) ?? 0;
  const fmt = (x: number) => Number(x.toPrecision(6));
  figures.push({
    id: 'batch-effect',
    title: 'Effect of the intervention on the final metrics',
    caption: `Final value of each metric: control and treated means, and the effect (treated − control) with its Welch 95% confidence interval, over ${treated.length} treated and ${control.length} control children (the same numbers as grapevine diff on this directory).`,
    table: {
      columns: ['metric', 'control', 'treated', 'effect', 'CI low', 'CI high'],
      rows: keys.map((k) => {
        const e = meanDifference(
          control.map((a) => last(a, k)),
          treated.map((a) => last(a, k)),
        );
        const [c, t] = [control, treated].map((g) => sampleStats(g.map((a) => last(a, k))).mean);
        return [k, fmt(c), fmt(t), fmt(e.mean), fmt(e.ci95[0]), fmt(e.ci95[1])];
      }),
    },
  });
  return { first: control[0], figures };
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
        series: [
          { name: 'parent', x: parent.ticks, y: parent.metrics[k] },
          { name: 'fork', x: child.ticks, y: child.metrics[k] },
        ],
      },
    }));
  const last = (a: RunAnalysis, k: string) => valueAt(a, k, Number.POSITIVE_INFINITY);
  figures.push({
    id: 'fork-effect',
    title: 'Final metrics: parent and fork',
    caption:
      'Final value of each metric in the parent run and in this fork, and their difference (fork − parent). One pair of runs gives no confidence interval: fork with --replicates and report the directory for the effect with its 95% CI.',
    table: {
      columns: ['metric', 'parent', 'fork', 'difference'],
      rows: keys.map((k) => {
        const [p, c] = [last(parent, k), last(child, k)];
        return [k, p, c, p === null || c === null ? null : Number((c - p).toPrecision(6))];
      }),
    },
  });
  return figures;
}
