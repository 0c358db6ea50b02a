import { averageBy, studentTQuantile } from '../../../src/public/analysis.ts';
import { fmt, type StudyReport } from './report.ts';
import { dimensionRange, type ReportDimension } from './report-rows.ts';
import { type MeanSe, meanSe } from './stats.ts';

/** Marker colours and shapes by mode (or mode pair) position (Okabe–Ito, colour-blind safe). */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00'];
const SHAPES = ['circle', 'square', 'diamond', 'triangle'] as const;

/**
 * Layout of the dot-and-whisker plots: each row's axis runs from `left` to `left + width`
 * pixels, its label right-aligned before `left`; the legend sits above the rows (wrapped
 * to the plot's width), each row is at least `rowH` pixels high (more when it holds many
 * dots). Font sizes in pixels, chosen to stay readable at the page's size.
 */
export const PLOT_LAYOUT = {
  left: 250,
  width: 420,
  right: 24,
  rowH: 40,
  bottom: 12,
  font: { row: 13, tick: 11, legend: 12 },
} as const;

/** A generous width of a text in a sans-serif font (0.62 em a character), for layout. */
function textWidth(text: string, size: number): number {
  return Math.ceil(text.length * size * 0.62);
}

/** Legend entries placed left to right from `left`, wrapped within `maxX`: their positions and the band's height. */
function legendLayout(names: readonly string[], maxX: number): { x: number; line: number }[] {
  const out: { x: number; line: number }[] = [];
  let x = PLOT_LAYOUT.left;
  let line = 0;
  for (const name of names) {
    const w = 18 + textWidth(name, PLOT_LAYOUT.font.legend) + 16;
    if (x + w > maxX && x > PLOT_LAYOUT.left) {
      line++;
      x = PLOT_LAYOUT.left;
    }
    out.push({ x, line });
    x += w;
  }
  return out;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Coordinates to 2 decimals (stable text). */
function c(x: number): string {
  return String(Math.round(x * 100) / 100);
}

/** One point of a plot: a value with its interval (null when not computable). */
interface Dot {
  row: string;
  series: number;
  label: string;
  value: number;
  ci: [number, number] | null;
}

/** 95% t interval of a mean from its SE (null when n < 2 or SE is missing). */
export function meanCi95(s: MeanSe): [number, number] | null {
  if (s.mean === null || s.se === null || s.n < 2) return null;
  const h = studentTQuantile(0.975, s.n - 1) * s.se;
  return [s.mean - h, s.mean + h];
}

function marker(shape: (typeof SHAPES)[number], x: number, y: number, fill: string): string {
  const r = 5;
  if (shape === 'circle') return `<circle cx="${c(x)}" cy="${c(y)}" r="${r}" fill="${fill}"`;
  if (shape === 'square')
    return `<rect x="${c(x - r)}" y="${c(y - r)}" width="${2 * r}" height="${2 * r}" fill="${fill}"`;
  const pts =
    shape === 'diamond'
      ? [x, y - r - 1, x + r + 1, y, x, y + r + 1, x - r - 1, y]
      : [x, y - r - 1, x + r + 1, y + r, x - r - 1, y + r];
  return `<polygon points="${pts.map(c).join(' ')}" fill="${fill}"`;
}

/** One dot with its whisker; the whisker is clipped to the axis, the attributes keep the exact values. */
function drawDot(d: Dot, y: number, x: (v: number) => number, lo: number, hi: number): string[] {
  const colour = COLOURS[d.series % COLOURS.length];
  const shape = SHAPES[d.series % SHAPES.length];
  const out: string[] = [];
  if (d.ci) {
    const [a, b] = [Math.max(lo, d.ci[0]), Math.min(hi, d.ci[1])];
    out.push(
      `<line class="whisker" data-row="${esc(d.row)}" data-series="${esc(d.label)}" x1="${c(x(a))}" x2="${c(x(b))}" y1="${c(y)}" y2="${c(y)}" stroke="${colour}" stroke-width="2"/>`,
    );
  }
  const ci = d.ci ? ` [${fmt(d.ci[0])}, ${fmt(d.ci[1])}]` : ' (no CI: n < 2)';
  out.push(
    `${marker(shape, x(d.value), y, colour)} class="dot" data-row="${esc(d.row)}" data-series="${esc(d.label)}" data-value="${d.value}" data-lo="${d.ci?.[0] ?? ''}" data-hi="${d.ci?.[1] ?? ''}"><title>${esc(`${d.row}, ${d.label}: ${fmt(d.value)}${ci}`)}</title></${shape === 'circle' ? 'circle' : shape === 'square' ? 'rect' : 'polygon'}>`,
  );
  return out;
}

/** Tick labels' band at the bottom of a row. */
const TICK_BAND = 14;

/**
 * Axis of one row, the band from `top` to `top + h`: its label, its range (at the band's
 * centre above the tick labels), ticks at both ends and the middle (or 0), a zero line.
 */
function rowAxis(
  row: string,
  top: number,
  h: number,
  x: (v: number) => number,
  lo: number,
  hi: number,
): string[] {
  const { left, width, font } = PLOT_LAYOUT;
  const y = top + (h - TICK_BAND) / 2;
  const ticks = [...new Set([lo, lo <= 0 && hi >= 0 ? 0 : (lo + hi) / 2, hi])];
  const out = [
    `<text x="${left - 10}" y="${c(y + 4)}" text-anchor="end" font-size="${font.row}">${esc(row)}</text>`,
    `<line x1="${left}" x2="${left + width}" y1="${c(y)}" y2="${c(y)}" stroke="#eee"/>`,
  ];
  for (const t of ticks)
    out.push(
      `<line x1="${c(x(t))}" x2="${c(x(t))}" y1="${c(top + 3)}" y2="${c(top + h - TICK_BAND)}" stroke="${t === 0 ? '#666' : '#ddd'}"${t === 0 ? ' class="zero"' : ''}/>`,
      `<text x="${c(x(t))}" y="${c(top + h - 3)}" text-anchor="middle" font-size="${font.tick}" fill="#555">${fmt(t, Number.isInteger(t) ? 0 : 1)}</text>`,
    );
  return out;
}

/** Draws rows of dots with whiskers, each row on its own [lo, hi] axis, under a legend. */
function dotWhiskerSvg(
  label: string,
  rows: readonly { row: string; lo: number; hi: number; dots: readonly Dot[] }[],
  legend: readonly string[],
): string {
  const { left, width, right, bottom, font } = PLOT_LAYOUT;
  const W = left + width + right;
  const places = legendLayout(legend, W - right);
  const top = 14 + (Math.max(0, ...places.map((p) => p.line)) + 1) * 20;
  const most = Math.max(1, ...rows.map((r) => r.dots.length));
  const rowH = Math.max(PLOT_LAYOUT.rowH, TICK_BAND + 12 + 8 * most);
  const H = top + rows.length * rowH + bottom;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}">`,
  ];
  legend.forEach((name, k) => {
    const { x, line } = places[k];
    const y = 14 + line * 20;
    const shape = SHAPES[k % SHAPES.length];
    const end = shape === 'circle' ? 'circle' : shape === 'square' ? 'rect' : 'polygon';
    parts.push(
      `${marker(shape, x + 6, y, COLOURS[k % COLOURS.length])}></${end}>`,
      `<text class="legend" x="${x + 16}" y="${y + 4}" font-size="${font.legend}">${esc(name)}</text>`,
    );
  });
  rows.forEach((r, i) => {
    const band = top + i * rowH;
    const y = band + (rowH - TICK_BAND) / 2;
    const x = (v: number) => left + ((v - r.lo) / (r.hi - r.lo)) * width;
    parts.push(...rowAxis(r.row, band, rowH, x, r.lo, r.hi));
    const k = r.dots.length;
    r.dots.forEach((d, j) => {
      parts.push(...drawDot(d, y + (j - (k - 1) / 2) * 8, x, r.lo, r.hi));
    });
  });
  parts.push('</svg>');
  return parts.join('');
}

/**
 * Scenario-level mean ± SE of one mode on one dimension: the scored episodes of a scenario
 * (pairs and seatings) are averaged first, so repeated pairs do not shrink the interval.
 */
export function scenarioMeanSe(report: StudyReport, mode: string, d: ReportDimension): MeanSe {
  const rows = report.episodes.filter((r) => r.mode === mode && r.scores !== null);
  const byScenario = averageBy(
    rows,
    (r) => r.envId,
    (r) => r.scores!.mean[d],
  );
  return meanSe([...byScenario.values()]);
}

/**
 * Plot 1: per dimension (one row each, on that dimension's score range) the mean of every
 * mode over scenarios, with a 95% t interval (mean ± t(0.975, n−1)·SE, n scenarios).
 */
export function modeMeansPlot(report: StudyReport): string {
  const rows = report.dimensions.map((d: ReportDimension) => {
    const { min, max } = dimensionRange(d);
    const dots = report.modes.flatMap((m, k) => {
      const s = scenarioMeanSe(report, m.mode, d);
      return s.mean === null ? [] : [{ row: d, series: k, label: m.mode, value: s.mean, ci: meanCi95(s) }];
    });
    return { row: d, lo: min, hi: max, dots };
  });
  return dotWhiskerSvg(
    'Mean score with 95% CI per Sotopia-EVAL dimension and mode',
    rows,
    report.modes.map((m) => m.mode),
  );
}

/**
 * Plot 2: per dimension the scenario-level paired mean difference `b − a` of every two modes
 * with its 95% CI (the report's `statistics.tests`), on one axis symmetric about zero.
 */
export function pairedDifferencesPlot(report: StudyReport): string {
  const pairs = [...new Set(report.statistics.tests.map((t) => `${t.b} − ${t.a}`))];
  let span = 1;
  for (const t of report.statistics.tests)
    for (const v of [t.meanDiff, ...t.ci95]) if (v !== null) span = Math.max(span, Math.abs(v));
  span = Math.ceil(span);
  const rows = report.dimensions.map((d) => ({
    row: d,
    lo: -span,
    hi: span,
    dots: report.statistics.tests.flatMap((t) => {
      if (t.dimension !== d || t.meanDiff === null) return [];
      const label = `${t.b} − ${t.a}`;
      const [lo, hi] = t.ci95;
      const ci: [number, number] | null = lo === null || hi === null ? null : [lo, hi];
      return [{ row: d, series: pairs.indexOf(label), label, value: t.meanDiff, ci }];
    }),
  }));
  return dotWhiskerSvg('Paired mean difference with 95% CI per dimension', rows, pairs);
}

/** The report page's plot section: both plots with captions (the second only with two modes or more). */
export function reportPlotsHtml(report: StudyReport): string {
  const s = report.study;
  const scored = report.modes.map((m) => `${esc(m.mode)} ${m.scored}`).join(', ');
  const out = [
    '<h2>Plots</h2>',
    `<figure class="plot">${modeMeansPlot(report)}<figcaption>Figure 1. Mean Sotopia-EVAL score per dimension (one row each, on the dimension’s own score range) for each mode (colour and marker), with 95% confidence intervals (mean ± t<sub>0.975, n−1</sub> · SE over scenarios, n scenarios; whiskers clipped to the range). Data: the judge’s scores of the ${s.scored} scored episodes (${scored}), each episode the mean of its two characters, averaged within each scenario (pairs and seatings) first; no whisker when fewer than two scenarios.</figcaption></figure>`,
  ];
  if (report.statistics.tests.length > 0)
    out.push(
      `<figure class="plot">${pairedDifferencesPlot(report)}<figcaption>Figure 2. Paired differences between modes (b − a) per dimension: mean over scenarios of the scenario-level difference (pairs and seatings averaged within a scenario first), with its 95% t confidence interval; the vertical line marks zero (no difference). Data: the scenarios both modes scored (${s.scenarioCount} scenarios planned), the report’s statistics.tests; no whisker when fewer than two scenarios or no variation.</figcaption></figure>`,
    );
  else out.push('<p>One mode only: no paired differences to plot.</p>');
  return out.join('\n');
}
