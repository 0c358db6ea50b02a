import type { MetricDeclarations, MetricSpec } from '../world/index.ts';
import type { RunAnalysis } from './analyze-log.ts';
import type { Figure } from './figures.ts';
import type { StateLayout } from './final-state.ts';
import { seriesColour, stateColour } from './palette.ts';
import type { ChartSeries } from './svg-chart.ts';

/** One drawn metric: its key in the log and what it means (declared, or only its key). */
export interface DrawnMetric {
  key: string;
  spec: MetricSpec;
}

/** A figure's worth of metrics: a declared group, or one metric. */
export interface MetricPanel {
  id: string;
  title: string;
  /** The y-axis title: the unit the metrics share (or their units, joined). */
  unit: string;
  metrics: DrawnMetric[];
}

/** What a metric is when the world declares nothing about it: its key, as a value. */
function undeclared(key: string): MetricSpec {
  return { label: key, kind: 'value' };
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The panels of a run's metrics: every metric of the log, grouped as the world declares
 * (metrics of one `group` share a panel, in declaration order), each undeclared metric on a
 * panel of its own after them. `skip` leaves out keys another figure already draws.
 */
export function metricPanels(
  keys: readonly string[],
  declared: MetricDeclarations = {},
  skip: ReadonlySet<string> = new Set(),
): MetricPanel[] {
  const present = new Set(keys);
  const panels = new Map<string, MetricPanel>();
  const add = (key: string, spec: MetricSpec) => {
    const name = spec.group ?? key;
    let panel = panels.get(name);
    if (!panel) {
      panel = { id: `metric-${slug(name)}`, title: spec.group ?? spec.label, unit: '', metrics: [] };
      panels.set(name, panel);
    }
    panel.metrics.push({ key, spec });
  };
  for (const [key, spec] of Object.entries(declared)) if (present.has(key) && !skip.has(key)) add(key, spec);
  for (const key of keys) if (!(key in declared) && !skip.has(key)) add(key, undeclared(key));
  for (const panel of panels.values()) {
    const units = [
      ...new Set(panel.metrics.map((m) => m.spec.unit ?? (m.spec.kind === 'share' ? 'share' : 'value'))),
    ];
    panel.unit = units.join(' / ');
  }
  return [...panels.values()];
}

/** The colour of a drawn metric: its state's for a state count (one colour everywhere), else the k-th series colour. */
export function metricColour(m: DrawnMetric, k: number, layout?: StateLayout): string {
  if (m.spec.kind === 'state-count' && layout && m.spec.region && m.spec.state) {
    const r = layout.regions.indexOf(m.spec.region);
    const s = r < 0 ? -1 : layout.states[r].indexOf(m.spec.state);
    if (s >= 0) return stateColour(s);
  }
  return seriesColour(k);
}

function caption(panel: MetricPanel, declared: boolean, zero: readonly DrawnMetric[]): string {
  const what = panel.metrics
    .filter((m) => !zero.includes(m))
    .map((m) => `"${m.key}"${m.spec.label !== m.key ? ` (${m.spec.label})` : ''}`)
    .join(', ');
  const source = declared
    ? 'as the world declares them'
    : 'the world declares nothing about them: named by their keys';
  const left = zero.length
    ? ` ${zero.map((m) => `"${m.key}"`).join(', ')} stay${zero.length === 1 ? 's' : ''} 0 throughout and ${zero.length === 1 ? 'is' : 'are'} left out.`
    : '';
  return `The metric${panel.metrics.length - zero.length === 1 ? '' : 's'} ${what} of the log's tick lines, tick by tick, plotted as recorded (${source}).${left}`;
}

/**
 * The counts of a panel of several metrics that are 0 (or absent) at every tick, such as a
 * statechart state nobody reaches: left out of the chart, named in its caption.
 */
function zeroCounts(a: RunAnalysis, panel: MetricPanel): DrawnMetric[] {
  if (panel.metrics.length < 2) return [];
  const zero = panel.metrics.filter(
    (m) =>
      (m.spec.kind === 'count' || m.spec.kind === 'state-count') &&
      a.metrics[m.key].every((v) => v === 0 || v === null),
  );
  return zero.length < panel.metrics.length ? zero : [];
}

/**
 * One chart figure per metric panel (see {@link metricPanels}). A count that stays 0 on a
 * panel with others is left out and named; colours are chosen before, so they do not shift.
 */
export function metricFigures(
  a: RunAnalysis,
  declared: MetricDeclarations | undefined,
  layout: StateLayout | undefined,
  skip: ReadonlySet<string> = new Set(),
): Figure[] {
  return metricPanels(Object.keys(a.metrics), declared, skip).map((panel) => {
    const zero = zeroCounts(a, panel);
    const series: ChartSeries[] = panel.metrics
      .map((m, k) => ({
        name: m.spec.label,
        key: m.key,
        colour: metricColour(m, k, layout),
        x: a.ticks,
        y: a.metrics[m.key],
      }))
      .filter((_, k) => !zero.includes(panel.metrics[k]));
    return {
      id: panel.id,
      title: panel.title,
      caption: caption(
        panel,
        panel.metrics.some((m) => declared && m.key in declared),
        zero,
      ),
      chart: { title: panel.title, xLabel: 'tick', yLabel: panel.unit, series },
    };
  });
}
