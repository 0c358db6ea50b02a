import type { MetricDeclarations } from '../world/index.ts';
import type { RunAnalysis } from './analyze-log.ts';
import type { Asymmetry } from './asymmetry.ts';
import type { StateLayout } from './final-state.ts';
import { metricFigures } from './metric-figures.ts';
import type { ChartSeries, ChartSpec } from './svg-chart.ts';

/** A table figure. */
export interface TableSpec {
  columns: string[];
  rows: (string | number | null)[][];
}

/** One figure of a report: a chart or a table, with its caption. */
export interface Figure {
  id: string;
  title: string;
  /** What the figure shows and which data of the log it came from. */
  caption: string;
  chart?: ChartSpec;
  table?: TableSpec;
}

function chart(title: string, yLabel: string, s: ChartSeries[], more: Partial<ChartSpec> = {}): ChartSpec {
  return { title, xLabel: 'tick', yLabel, series: s, ...more };
}

/** A table cell of an optional number (the page formats it; the JSON keeps it whole). */
function orNull(v: number | null | undefined): number | null {
  return v === null || v === undefined ? null : v;
}

/** Cascade tables and the size-virality scatter. */
function cascadeFigures(a: RunAnalysis): Figure[] {
  if (!a.cascades.length) return [];
  const src = `the provenance memory slots src_<item> and at_<item> of every agent in the snapshot at tick ${a.snapshotTick}`;
  const rows = a.cascades.map((c) => {
    const big = c.largest[0];
    const withV = c.largest.filter((s) => s.virality !== null);
    const meanV = withV.length ? withV.reduce((s, x) => s + (x.virality as number), 0) / withV.length : null;
    return [
      c.item,
      c.count,
      c.reached,
      big?.size ?? null,
      big?.depth ?? null,
      big?.maxBreadth ?? null,
      orNull(big?.virality),
      orNull(meanV),
      c.orphans,
    ];
  });
  const reach = a.cascades.map((c) => {
    const big = c.largest[0];
    return [
      c.item,
      big?.root ?? null,
      ...[1, 10, 100, 1000, 10000, 100000].map((k) => big?.timeToReach[k] ?? null),
    ];
  });
  const figs: Figure[] = [
    {
      id: 'cascades',
      title: 'Cascades per item',
      caption: `One cascade per origin: the tree of first tellings (who first told whom) grown from it, built from ${src}. Structural virality is the mean distance over all pairs of agents in the tree (Goel et al. 2016); "mean virality" averages the up to 100 largest cascades of size 2 or more. Orphans heard the item from someone no origin's tree reaches.`,
      table: {
        columns: [
          'item',
          'cascades',
          'agents reached',
          'largest size',
          'its depth',
          'its max breadth',
          'its virality',
          'mean virality',
          'orphans',
        ],
        rows,
      },
    },
    {
      id: 'time-to-reach',
      title: 'Ticks for the largest cascade to reach k agents',
      caption: `Ticks from its origin's first hearing until the largest cascade of each item counted k agents (empty: never reached), from ${src}.`,
      table: {
        columns: ['item', 'origin', 'k=1', 'k=10', 'k=100', 'k=1000', 'k=10^4', 'k=10^5'],
        rows: reach,
      },
    },
    {
      id: 'size-virality',
      title: 'Cascade size and structural virality',
      caption: `Each point is one of the up to 100 largest cascades of an item: its size (log scale) against its structural virality; from ${src}. Virality grows with size, so compare items at matched size (next table).`,
      chart: {
        title: 'Cascade size and structural virality',
        xLabel: 'cascade size (agents, log scale)',
        yLabel: 'structural virality',
        mark: 'points',
        logX: true,
        series: a.cascades.map((c) => ({
          name: c.item,
          x: c.largest.map((s) => s.size),
          y: c.largest.map((s) => s.virality),
        })),
      },
    },
  ];
  if (a.matched.length)
    figs.push({
      id: 'matched-size',
      title: 'Items compared at matched cascade size',
      caption: `Mean depth, maximum breadth and structural virality at equal size, following Juul & Ugander (2021): "prefix k" cuts every cascade that reached k agents to its first k (by tick of first hearing), "bin k" takes whole cascades of k to 10k-1 agents. Differences that vanish here were differences of size, not of spreading. From ${src}.`,
      table: {
        columns: ['matching', 'item', 'cascades', 'mean depth', 'mean max breadth', 'mean virality'],
        rows: a.matched.flatMap((m) =>
          m.rows.map((r) => [
            `${m.kind} ${m.k}`,
            r.item,
            r.cascades,
            orNull(r.meanDepth),
            orNull(r.meanMaxBreadth),
            orNull(r.meanVirality),
          ]),
        ),
      },
    });
  return figs;
}

/** Who heard which item, over time and at the end. */
function asymmetryFigures(a: RunAnalysis): Figure[] {
  return a.asymmetry.flatMap((x) => {
    const n = x.onlyA.map((v, j) => v + x.onlyB[j] + x.both[j] + x.neither[j]);
    const share = (col: number[]) => col.map((v, j) => (n[j] ? v / n[j] : null));
    const figs: Figure[] = [
      {
        id: `asymmetry-${x.a}-${x.b}`,
        title: `Who has heard ${x.a} and ${x.b}`,
        caption: `Share of agents who by each tick had heard only ${x.a}, only ${x.b}, both, or neither. An agent has heard an item by tick t when its at_<item> memory slot (tick of its first telling) is at most t, read from the snapshot at tick ${a.snapshotTick}.`,
        chart: chart(`Who has heard ${x.a} and ${x.b}`, 'share of agents', [
          { name: `only ${x.a}`, x: x.ticks, y: share(x.onlyA) },
          { name: `only ${x.b}`, x: x.ticks, y: share(x.onlyB) },
          { name: 'both', x: x.ticks, y: share(x.both) },
          { name: 'neither', x: x.ticks, y: share(x.neither) },
        ]),
      },
    ];
    if (x.final) figs.push(finalStatesTable(a, x.a, x.b, x.final));
    return figs;
  });
}

/**
 * Agents by (state for a, state for b) at the snapshot, without the states no agent is in
 * (named in the caption): a statechart state that nobody reached is not a row of zeros.
 */
function finalStatesTable(
  a: RunAnalysis,
  itemA: string,
  itemB: string,
  final: NonNullable<Asymmetry['final']>,
): Figure {
  const rows = final.statesA.map((_, i) => i).filter((i) => final.counts[i].some((c) => c > 0));
  const cols = final.statesB.map((_, j) => j).filter((j) => final.counts.some((r) => r[j] > 0));
  const emptyA = final.statesA.filter((_, i) => !rows.includes(i));
  const emptyB = final.statesB.filter((_, j) => !cols.includes(j));
  const empty = [
    ...(emptyA.length ? [`${emptyA.join(', ')} of ${itemA}`] : []),
    ...(emptyB.length ? [`${emptyB.join(', ')} of ${itemB}`] : []),
  ];
  return {
    id: `asymmetry-final-${itemA}-${itemB}`,
    title: `States of ${itemA} × ${itemB} at tick ${a.snapshotTick}`,
    caption: `Agents by the state of their statechart region for ${itemA} (rows) and for ${itemB} (columns), from the snapshot at tick ${a.snapshotTick}.${empty.length ? ` No agent is in state ${empty.join(', or ')}: those rows and columns are left out.` : ''}`,
    table: {
      columns: [`${itemA} \\ ${itemB}`, ...cols.map((j) => final.statesB[j])],
      rows: rows.map((i) => [final.statesA[i], ...cols.map((j) => final.counts[i][j])]),
    },
  };
}

function llmFigures(a: RunAnalysis): Figure[] {
  if (!a.llm) return [];
  const l = a.llm;
  return [
    {
      id: 'llm-calls',
      title: 'LLM calls per tick',
      caption:
        'Calls, retried attempts, calls that failed after every retry (the world then used its fallback) and cache hits, per tick, counted from the log\'s "llm" events (attempts list, reply null, cached flag).',
      chart: chart('LLM calls per tick', 'count', [
        { name: 'calls', x: a.ticks, y: l.calls },
        { name: 'retries', x: a.ticks, y: l.retries },
        { name: 'failed (fallback)', x: a.ticks, y: l.failures },
        { name: 'cached', x: a.ticks, y: l.cached },
      ]),
    },
    {
      id: 'llm-tokens',
      title: 'LLM tokens per tick',
      caption:
        'Prompt (input) and completion (output) tokens per tick, summed from reply.usage of the log\'s "llm" events.',
      chart: chart('LLM tokens per tick', 'tokens', [
        { name: 'input', x: a.ticks, y: l.inputTokens },
        { name: 'output', x: a.ticks, y: l.outputTokens },
      ]),
    },
  ];
}

/** What a run report knows about the world beyond its log. */
export interface ReportWorld {
  /** The world's metric declarations (labels, units, groups). */
  metrics?: MetricDeclarations;
  /** Its agent machine's layout: state counts are drawn in their state's colour. */
  layout?: StateLayout;
}

/**
 * Every figure of a run report, in display order: one per declared metric group (and per
 * metric without a group or a declaration), then cascades, asymmetry and LLM use.
 */
export function reportFigures(a: RunAnalysis, world: ReportWorld = {}): Figure[] {
  return [
    ...metricFigures(a, world.metrics, world.layout),
    ...cascadeFigures(a),
    ...asymmetryFigures(a),
    ...llmFigures(a),
  ];
}
