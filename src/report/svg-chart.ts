import { type AxisScale, extent, linearScale, logScale } from './chart-scale.ts';
import { SERIES_COLOURS } from './palette.ts';

/** A shaded band around a series (a confidence interval), drawn in the series' colour. */
export interface ChartBand {
  lo: readonly (number | null)[];
  hi: readonly (number | null)[];
}

/** One named series of a chart. */
export interface ChartSeries {
  name: string;
  /** The log's metric key it draws, when it draws one. */
  key?: string;
  /** Its colour (default: the palette's k-th colour). */
  colour?: string;
  x: readonly number[];
  y: readonly (number | null)[];
  /** A band from lo to hi at each x (null: no band there), shaded behind the series. */
  band?: ChartBand;
}

/** A labelled vertical line across the plot (e.g. the tick a run was forked at). */
export interface ChartRule {
  x: number;
  label: string;
}

/** What {@link svgChart} draws. */
export interface ChartSpec {
  title: string;
  /** Axis titles. */
  xLabel: string;
  yLabel: string;
  series: readonly ChartSeries[];
  /** `line` joins points (null values are skipped); `points` draws markers only. */
  mark?: 'line' | 'points';
  /** Base-10 logarithmic x axis (non-positive x values are left out). */
  logX?: boolean;
  /** What the shaded bands are, said once in the legend (e.g. `95% CI`). */
  bandLabel?: string;
  /** Vertical rules. */
  rules?: readonly ChartRule[];
}

/** Width and height of the drawing (the SVG scales to its column, keeping this ratio). */
const W = 760;
const H = 340;
const FONT = 13;
/** Upper bound of the average width of a character at {@link FONT} in a sans-serif face. */
const CHAR = 7.6;
const M = { left: 70, top: 34, bottom: 50 };
/** Colour-blind-safe palette (Okabe & Ito), for series without a colour of their own. */
const PALETTE = SERIES_COLOURS;

/** The colour of series k of a chart: its own, else the palette's k-th. */
function colourOf(spec: ChartSpec, k: number): string {
  return spec.series[k].colour ?? PALETTE[k % PALETTE.length];
}

/** Escapes text for HTML and SVG. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

type Point = readonly [number, number];

/** The series' drawable points: non-null y, and x > 0 on a log axis. */
function points(spec: ChartSpec, xs: readonly number[], ys: readonly (number | null)[]): Point[] {
  const out: Point[] = [];
  xs.forEach((x, j) => {
    const y = ys[j];
    if (y !== null && y !== undefined && Number.isFinite(y) && (!spec.logX || x > 0)) out.push([x, y]);
  });
  return out;
}

/** The legend: one entry per series (names cut to fit its width, the full name in a tooltip). */
function legend(spec: ChartSpec, right: number): string[] {
  const fit = Math.floor((right - 34) / CHAR);
  const rows = Math.floor((H - M.top - M.bottom) / 18);
  const entries = spec.series.map((s, k) => ({
    name: s.name,
    colour: colourOf(spec, k),
    band: !!s.band,
  }));
  const shown = entries.length > rows ? entries.slice(0, rows - 1) : entries;
  const out = shown.flatMap((e, k) => {
    const y = M.top + 10 + k * 18;
    const x = W - right + 12;
    const name = e.name.length > fit ? `${e.name.slice(0, fit - 1)}…` : e.name;
    const swatch = e.band
      ? `<rect x="${x}" y="${y - 8}" width="16" height="12" fill="${e.colour}" fill-opacity="0.2"/><line x1="${x}" x2="${x + 16}" y1="${y - 2}" y2="${y - 2}" stroke="${e.colour}" stroke-width="2"/>`
      : `<rect x="${x + 3}" y="${y - 7}" width="10" height="10" fill="${e.colour}"/>`;
    return [`${swatch}<text x="${x + 22}" y="${y + 2}"><title>${esc(e.name)}</title>${esc(name)}</text>`];
  });
  if (shown.length < entries.length)
    out.push(
      `<text x="${W - right + 12}" y="${M.top + 12 + shown.length * 18}">+${entries.length - shown.length} more</text>`,
    );
  if (spec.bandLabel && entries.some((e) => e.band))
    out.push(
      `<text x="${W - right + 12}" y="${H - M.bottom}" fill="#444">shaded: ${esc(spec.bandLabel)}</text>`,
    );
  return out;
}

/** Width of the legend column: the longest name, within limits. */
function legendWidth(spec: ChartSpec): number {
  const longest = Math.max(
    8,
    ...spec.series.map((s) => s.name.length),
    spec.bandLabel ? spec.bandLabel.length + 8 : 0,
  );
  return Math.min(250, Math.ceil(34 + longest * CHAR));
}

function scales(spec: ChartSpec, pts: Point[][]): { x: AxisScale; y: AxisScale } {
  // headroom: a marker (or a line) at the data's extremes stays inside the frame
  const pad = spec.mark === 'points' ? 0.04 : 0.02;
  const bandYs = spec.series.flatMap((s) => [...(s.band?.lo ?? []), ...(s.band?.hi ?? [])]);
  const ys = [...pts.flat().map((p) => p[1]), ...bandYs.filter((v): v is number => v !== null)];
  const [ya, yb] = extent(ys) ?? [0, 1];
  const [xa, xb] = extent(pts.flat().map((p) => p[0])) ?? (spec.logX ? [1, 10] : [0, 1]);
  const y = linearScale(Math.min(0, ya), yb, pad, spec.mark === 'points' ? pad : 0);
  const xPad = spec.mark === 'points' ? pad : 0;
  const x = spec.logX ? logScale(xa, xb, xPad) : linearScale(xa, xb, xPad);
  return { x, y };
}

/** A band as closed polygons over its runs of defined values. */
function bandPaths(
  s: ChartSeries,
  sx: (x: number) => number,
  sy: (y: number) => number,
  logX: boolean,
): string[] {
  const band = s.band as ChartBand;
  const runs: [number, number, number][][] = [[]];
  s.x.forEach((x, j) => {
    const [lo, hi] = [band.lo[j], band.hi[j]];
    const ok = lo !== null && hi !== null && Number.isFinite(lo) && Number.isFinite(hi) && (!logX || x > 0);
    if (ok) runs[runs.length - 1].push([x, lo as number, hi as number]);
    else if (runs[runs.length - 1].length) runs.push([]);
  });
  return runs
    .filter((r) => r.length > 0)
    .map((r) => {
      const top = r.map(([x, , hi]) => `${sx(x).toFixed(1)},${sy(hi).toFixed(1)}`);
      const bottom = r.map(([x, lo]) => `${sx(x).toFixed(1)},${sy(lo).toFixed(1)}`).reverse();
      return [...top, ...bottom].join(' ');
    });
}

/**
 * Draws a line or point chart as a self-contained SVG string (no script, no external
 * resource) that scales to the width of its column: linear y axis from min(0, data) to a
 * round value above the data, linear or log-10 x axis, axis titles, shaded bands behind
 * their series, vertical rules, and a legend on the right sized to its names.
 */
export function svgChart(spec: ChartSpec): string {
  const right = legendWidth(spec);
  const pw = W - M.left - right;
  const ph = H - M.top - M.bottom;
  const pts = spec.series.map((s) => points(spec, s.x, s.y));
  const { x, y } = scales(spec, pts);
  const tx = (v: number) => (spec.logX ? Math.log10(v) : v);
  const px = (u: number) => M.left + ((u - x.lo) / (x.hi - x.lo)) * pw;
  const sx = (v: number) => px(tx(v));
  const sy = (v: number) => M.top + ph - ((v - y.lo) / (y.hi - y.lo)) * ph;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(spec.title)}" font-family="sans-serif" font-size="${FONT}" class="chart">`,
    `<text x="${M.left}" y="20" font-size="${FONT + 2}" font-weight="bold">${esc(spec.title)}</text>`,
  ];
  for (const v of y.ticks) {
    const yy = sy(v).toFixed(1);
    out.push(`<line x1="${M.left}" x2="${M.left + pw}" y1="${yy}" y2="${yy}" stroke="#e6e6e6"/>`);
    out.push(
      `<text x="${M.left - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle">${y.label(v)}</text>`,
    );
  }
  for (const u of x.ticks)
    out.push(
      `<text x="${px(u).toFixed(1)}" y="${M.top + ph + 17}" text-anchor="middle">${x.label(u)}</text>`,
    );
  out.push(
    `<text x="${M.left + pw / 2}" y="${H - 8}" text-anchor="middle">${esc(spec.xLabel)}</text>`,
    `<text transform="translate(16 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">${esc(spec.yLabel)}</text>`,
  );
  spec.series.forEach((s, k) => {
    if (s.band)
      for (const poly of bandPaths(s, sx, sy, Boolean(spec.logX)))
        out.push(`<polygon points="${poly}" fill="${colourOf(spec, k)}" fill-opacity="0.18" stroke="none"/>`);
  });
  for (const r of spec.rules ?? []) {
    const rx = sx(r.x).toFixed(1);
    out.push(
      `<line x1="${rx}" x2="${rx}" y1="${M.top}" y2="${M.top + ph}" stroke="#777" stroke-dasharray="4 3"/>`,
      `<text x="${(Number(rx) + 4).toFixed(1)}" y="${M.top + 14}" fill="#555">${esc(r.label)}</text>`,
    );
  }
  pts.forEach((p, k) => {
    out.push(...marks(spec, p, colourOf(spec, k), sx, sy));
  });
  out.push(
    `<rect class="frame" x="${M.left}" y="${M.top}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`,
  );
  out.push(...legend(spec, right), '</svg>');
  return out.join('\n');
}

function marks(
  spec: ChartSpec,
  p: Point[],
  colour: string,
  sx: (x: number) => number,
  sy: (y: number) => number,
): string[] {
  if (spec.mark === 'points')
    return p.map(
      ([x, y]) =>
        `<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="3.5" fill="${colour}" fill-opacity="0.75"/>`,
    );
  if (p.length === 1)
    return [`<circle cx="${sx(p[0][0]).toFixed(1)}" cy="${sy(p[0][1]).toFixed(1)}" r="3" fill="${colour}"/>`];
  if (p.length === 0) return [];
  return [
    `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${p.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ')}"/>`,
  ];
}
