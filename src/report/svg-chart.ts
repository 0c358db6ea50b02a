import { SERIES_COLOURS } from './palette.ts';

/** One named series of a chart. */
export interface ChartSeries {
  name: string;
  /** The log's metric key it draws, when it draws one. */
  key?: string;
  /** Its colour (default: the palette's k-th colour). */
  colour?: string;
  x: readonly number[];
  y: readonly (number | null)[];
}

/** What {@link svgChart} draws. */
export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly ChartSeries[];
  /** `line` joins points (null values are skipped); `points` draws markers only. */
  mark?: 'line' | 'points';
  /** Base-10 logarithmic x axis (non-positive x values are left out). */
  logX?: boolean;
}

const W = 640;
const H = 300;
const M = { left: 64, right: 150, top: 28, bottom: 44 };
/** Colour-blind-safe palette (Okabe & Ito), for series without a colour of their own. */
const PALETTE = SERIES_COLOURS;

/** Escapes text for HTML and SVG. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    out.push(Number(v.toPrecision(12)));
  return out;
}

function fmt(v: number): string {
  if (v !== 0 && (Math.abs(v) >= 1e6 || Math.abs(v) < 1e-3)) return v.toExponential(1);
  return String(Number(v.toPrecision(6)));
}

function extent(values: number[]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo)) return [0, 1];
  return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
}

/**
 * Draws a line or point chart as a self-contained SVG string (no script, no external
 * resource): linear y axis from min(0, data) to the data maximum, linear or log-10 x axis,
 * a legend on the right.
 */
export function svgChart(spec: ChartSpec): string {
  const tx = (x: number) => (spec.logX ? Math.log10(x) : x);
  const pts = spec.series.map((s) =>
    s.x.map((x, j) => [x, s.y[j]] as const).filter(([x, y]) => y !== null && (!spec.logX || x > 0)),
  );
  const [x0, x1] = extent(pts.flatMap((p) => p.map(([x]) => tx(x))));
  const [ya, y1] = extent(pts.flatMap((p) => p.map(([, y]) => y as number)));
  const y0 = Math.min(0, ya);
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const sx = (x: number) => M.left + ((tx(x) - x0) / (x1 - x0 || 1)) * pw;
  const sy = (y: number) => M.top + ph - ((y - y0) / (y1 - y0 || 1)) * ph;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(spec.title)}" font-family="sans-serif" font-size="11">`,
    `<text x="${M.left}" y="16" font-size="13" font-weight="bold">${esc(spec.title)}</text>`,
    `<rect x="${M.left}" y="${M.top}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`,
  ];
  for (const v of niceTicks(y0, y1)) {
    const y = sy(v).toFixed(1);
    out.push(`<line x1="${M.left}" x2="${M.left + pw}" y1="${y}" y2="${y}" stroke="#eee"/>`);
    out.push(
      `<text x="${M.left - 4}" y="${y}" text-anchor="end" dominant-baseline="middle">${fmt(v)}</text>`,
    );
  }
  for (const v of niceTicks(x0, x1)) {
    const x = (M.left + ((v - x0) / (x1 - x0 || 1)) * pw).toFixed(1);
    const label = spec.logX ? fmt(10 ** v) : fmt(v);
    out.push(`<text x="${x}" y="${M.top + ph + 14}" text-anchor="middle">${label}</text>`);
  }
  out.push(
    `<text x="${M.left + pw / 2}" y="${H - 6}" text-anchor="middle">${esc(spec.xLabel)}</text>`,
    `<text transform="translate(14 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">${esc(spec.yLabel)}</text>`,
  );
  pts.forEach((p, k) => {
    const colour = spec.series[k].colour ?? PALETTE[k % PALETTE.length];
    if (spec.mark === 'points')
      for (const [x, y] of p)
        out.push(
          `<circle cx="${sx(x).toFixed(1)}" cy="${sy(y as number).toFixed(1)}" r="3" fill="${colour}" fill-opacity="0.7"/>`,
        );
    else if (p.length)
      out.push(
        `<polyline fill="none" stroke="${colour}" stroke-width="1.6" points="${p.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y as number).toFixed(1)}`).join(' ')}"/>`,
      );
    const ly = M.top + 12 + k * 16;
    out.push(
      `<rect x="${W - M.right + 10}" y="${ly - 8}" width="10" height="10" fill="${colour}"/>`,
      `<text x="${W - M.right + 24}" y="${ly}">${esc(spec.series[k].name)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n');
}
