/** One line of a chart. */
export interface Line {
  name: string;
  values: (number | null)[];
  colour: string;
  /** The metric key it draws (a data attribute for tests and tools). */
  key?: string;
}

/** The axes' titles of a chart. */
export interface Axes {
  x: string;
  y: string;
}

const W = 520;
const H = 210;
const PAD = { l: 58, r: 8, t: 8, b: 34 };

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function shownValue(v: number | null | undefined): string {
  if (v === null || v === undefined) return '–';
  return Number.isInteger(v) ? String(v) : v.toFixed(3);
}

/**
 * An SVG line chart of `lines` over `ticks`, with axis titles, a vertical cursor at `cursor`
 * (an index into `ticks`) and a legend giving each line's value there.
 */
export function lineChart(
  id: string,
  ticks: readonly number[],
  lines: readonly Line[],
  cursor: number,
  axes: Axes = { x: 'tick', y: '' },
): string {
  const all = lines.flatMap((l) => l.values.filter((v): v is number => v !== null));
  const max = Math.max(1e-9, ...all);
  const min = Math.min(0, ...all);
  const t0 = ticks[0] ?? 0;
  const t1 = Math.max(t0 + 1, ticks[ticks.length - 1] ?? 1);
  const sx = (t: number) => PAD.l + ((t - t0) / (t1 - t0)) * (W - PAD.l - PAD.r);
  const sy = (v: number) => H - PAD.b - ((v - min) / (max - min || 1)) * (H - PAD.t - PAD.b);
  const paths = lines.map((l) => {
    const pts = l.values
      .map((v, j) => (v === null ? null : `${sx(ticks[j]).toFixed(1)},${sy(v).toFixed(1)}`))
      .filter((p) => p !== null);
    return `<polyline data-key="${esc(l.key ?? l.name)}" fill="none" stroke="${esc(l.colour)}" stroke-width="1.5" points="${pts.join(' ')}"/>`;
  });
  const x = sx(ticks[cursor] ?? t0);
  const legend = lines
    .map(
      (l) =>
        `<span style="color:${esc(l.colour)}">${esc(l.name)}: <b data-line="${esc(l.name)}">${shownValue(l.values[cursor])}</b></span>`,
    )
    .join(' · ');
  return `<svg id="${esc(id)}" class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">
<line x1="${PAD.l}" y1="${H - PAD.b}" x2="${W - PAD.r}" y2="${H - PAD.b}" stroke="#888"/>
<line x1="${PAD.l}" y1="${PAD.t}" x2="${PAD.l}" y2="${H - PAD.b}" stroke="#888"/>
<text x="${PAD.l - 4}" y="${PAD.t + 10}" text-anchor="end">${max.toPrecision(3)}</text>
<text x="${PAD.l - 4}" y="${H - PAD.b}" text-anchor="end">${min === 0 ? '0' : min.toPrecision(3)}</text>
<text x="${PAD.l}" y="${H - PAD.b + 14}">${t0}</text><text x="${W - PAD.r}" y="${H - PAD.b + 14}" text-anchor="end">${t1}</text>
<text class="axis-title x" x="${(PAD.l + W - PAD.r) / 2}" y="${H - 4}" text-anchor="middle">${esc(axes.x)}</text>
<text class="axis-title y" transform="translate(12 ${(PAD.t + H - PAD.b) / 2}) rotate(-90)" text-anchor="middle">${esc(axes.y)}</text>
${paths.join('\n')}
<line class="cursor" x1="${x}" y1="${PAD.t}" x2="${x}" y2="${H - PAD.b}" stroke="#000" stroke-dasharray="3,3"/>
</svg><div class="chart-legend">${legend}</div>`;
}
