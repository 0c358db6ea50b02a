import { PALETTE } from './palette.ts';

/** One line of a chart. */
export interface Line {
  name: string;
  values: (number | null)[];
}

const W = 520;
const H = 200;
const PAD = { l: 44, r: 8, t: 8, b: 22 };

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * An SVG line chart of `lines` over `ticks`, with a vertical cursor at `cursor` (an index
 * into `ticks`) and a legend giving each line's value there.
 */
export function lineChart(
  id: string,
  ticks: readonly number[],
  lines: readonly Line[],
  cursor: number,
): string {
  const all = lines.flatMap((l) => l.values.filter((v): v is number => v !== null));
  const max = Math.max(1e-9, ...all);
  const t0 = ticks[0] ?? 0;
  const t1 = Math.max(t0 + 1, ticks[ticks.length - 1] ?? 1);
  const sx = (t: number) => PAD.l + ((t - t0) / (t1 - t0)) * (W - PAD.l - PAD.r);
  const sy = (v: number) => H - PAD.b - (v / max) * (H - PAD.t - PAD.b);
  const paths = lines.map((l, i) => {
    const pts = l.values
      .map((v, j) => (v === null ? null : `${sx(ticks[j]).toFixed(1)},${sy(v).toFixed(1)}`))
      .filter((p) => p !== null);
    return `<polyline fill="none" stroke="${PALETTE[(i + 1) % PALETTE.length]}" stroke-width="1.5" points="${pts.join(' ')}"/>`;
  });
  const x = sx(ticks[cursor] ?? t0);
  const legend = lines
    .map((l, i) => {
      const v = l.values[cursor];
      const shown = v === null || v === undefined ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(3);
      return `<span style="color:${PALETTE[(i + 1) % PALETTE.length]}">${esc(l.name)}: <b data-line="${esc(l.name)}">${shown}</b></span>`;
    })
    .join(' · ');
  return `<svg id="${id}" class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">
<line x1="${PAD.l}" y1="${H - PAD.b}" x2="${W - PAD.r}" y2="${H - PAD.b}" stroke="#888"/>
<line x1="${PAD.l}" y1="${PAD.t}" x2="${PAD.l}" y2="${H - PAD.b}" stroke="#888"/>
<text x="${PAD.l - 4}" y="${PAD.t + 10}" text-anchor="end">${max.toPrecision(3)}</text>
<text x="${PAD.l - 4}" y="${H - PAD.b}" text-anchor="end">0</text>
<text x="${PAD.l}" y="${H - 6}">t=${t0}</text><text x="${W - PAD.r}" y="${H - 6}" text-anchor="end">t=${t1}</text>
${paths.join('\n')}
<line class="cursor" x1="${x}" y1="${PAD.t}" x2="${x}" y2="${H - PAD.b}" stroke="#000" stroke-dasharray="3,3"/>
</svg><div class="chart-legend">${legend}</div>`;
}
