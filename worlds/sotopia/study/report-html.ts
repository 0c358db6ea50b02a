import { fmt, type StudyReport } from './report.ts';
import { reportPlotsHtml } from './report-plots.ts';
import { dimensionRange, type ReportDimension } from './report-rows.ts';

/** Bar colours by mode position (colour-blind safe, Okabe–Ito). */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00'];

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Coordinates to 2 decimals (stable text). */
function c(x: number): string {
  return String(Math.round(x * 100) / 100);
}

/**
 * One bar chart: per mode a bar from 0 to the mean and an error bar of ± 1 SE, on the
 * dimension's full score range (a zero line when the range spans 0).
 */
export function dimensionChart(report: StudyReport, d: ReportDimension): string {
  const { min, max } = dimensionRange(d);
  const W = 360;
  const H = 200;
  const left = 44;
  const right = 10;
  const top = 24;
  const bottom = 36;
  const plotW = W - left - right;
  const plotH = H - top - bottom;
  const y = (v: number) => top + ((max - v) / (max - min)) * plotH;
  const n = report.modes.length;
  const slot = plotW / Math.max(1, n);
  const barW = Math.min(56, slot * 0.6);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(`${d}: mean ± SE per mode`)}">`,
    `<text x="${W / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">${esc(d)}</text>`,
  ];
  const ticks = d === 'overall' ? [min, 0, max] : [min, (min + max) / 2, max];
  for (const t of [...new Set(ticks)]) {
    parts.push(
      `<line x1="${left}" x2="${W - right}" y1="${c(y(t))}" y2="${c(y(t))}" stroke="#ddd"/>`,
      `<text x="${left - 4}" y="${c(y(t) + 4)}" text-anchor="end" font-size="10">${fmt(t, Number.isInteger(t) ? 0 : 1)}</text>`,
    );
  }
  // bars grow from 0 (hanging from the top for ranges such as secret -10..0), else from the range's low end
  const zero = min <= 0 && max >= 0 ? 0 : min;
  parts.push(`<line x1="${left}" x2="${W - right}" y1="${c(y(zero))}" y2="${c(y(zero))}" stroke="#444"/>`);
  report.modes.forEach((m, k) => {
    const s = m.dimensions[d];
    const cx = left + slot * (k + 0.5);
    const colour = COLOURS[k % COLOURS.length];
    parts.push(
      `<text x="${c(cx)}" y="${H - bottom + 14}" text-anchor="middle" font-size="11">${esc(m.mode)}</text>`,
      `<text x="${c(cx)}" y="${H - bottom + 28}" text-anchor="middle" font-size="11" fill="#555">n=${s.n}</text>`,
    );
    if (s.mean === null) return;
    const y0 = y(zero);
    const y1 = y(s.mean);
    parts.push(
      `<rect x="${c(cx - barW / 2)}" y="${c(Math.min(y0, y1))}" width="${c(barW)}" height="${c(Math.abs(y1 - y0))}" fill="${colour}"><title>${esc(`${m.mode}: ${fmt(s.mean)}${s.se === null ? '' : ` ± ${fmt(s.se)}`} (n=${s.n})`)}</title></rect>`,
    );
    let hi = y1;
    let lo = y1;
    if (s.se !== null && s.se > 0) {
      hi = y(Math.min(max, s.mean + s.se));
      lo = y(Math.max(min, s.mean - s.se));
      parts.push(
        `<line x1="${c(cx)}" x2="${c(cx)}" y1="${c(hi)}" y2="${c(lo)}" stroke="#000"/>`,
        `<line x1="${c(cx - 6)}" x2="${c(cx + 6)}" y1="${c(hi)}" y2="${c(hi)}" stroke="#000"/>`,
        `<line x1="${c(cx - 6)}" x2="${c(cx + 6)}" y1="${c(lo)}" y2="${c(lo)}" stroke="#000"/>`,
      );
    }
    const labelY = s.mean >= zero ? Math.min(hi, y0) - 4 : Math.max(lo, y0) + 12;
    parts.push(
      `<text x="${c(cx)}" y="${c(labelY)}" text-anchor="middle" font-size="10">${fmt(s.mean)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

/**
 * report.html: a self-contained page (inline CSS and SVG, no scripts, no external assets)
 * with one chart per dimension and the paired differences.
 */
export function renderReportHtml(report: StudyReport): string {
  const s = report.study;
  const pairedRows = report.paired.flatMap((p) =>
    report.dimensions.map((d) => {
      const t = p.dimensions[d];
      return `<tr><td>${esc(`${p.b} − ${p.a}`)}</td><td>${esc(d)}</td><td>${t.n}</td><td>${fmt(t.meanDiff)}</td><td>${fmt(t.se)}</td><td>${fmt(t.t)}</td><td>${t.df ?? '—'}</td><td>${t.p === null ? '—' : t.p < 0.001 ? '&lt; 0.001' : t.p.toFixed(3)}</td></tr>`;
    }),
  );
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<title>Sotopia information-asymmetry study</title>',
    '<style>body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}.charts{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;border:1px solid #eee;padding:4px}figure.plot{margin:1em 0;overflow-x:auto}figure.plot svg{display:block}figcaption{max-width:720px;font-size:13px}table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}td:first-child,td:nth-child(2),th{text-align:left}</style>',
    '</head><body>',
    '<h1>Sotopia information-asymmetry study</h1>',
    `<p>Modes ${esc(s.modes.join(', '))}; scenarios <code>${esc(s.scenarios)}</code> (${s.scenarioCount}); ${s.pairs} pair(s) each; seed ${s.seed}; model <code>${esc(s.model)}</code>, judge <code>${esc(s.judgeModel)}</code>; at most ${s.maxTurns} turns. ${s.episodes} episodes, ${s.scored} scored.</p>`,
    '<p>Bars: mean over scored episodes (each the mean of its two characters); whiskers: ± 1 standard error. Axes span each dimension’s score range.</p>',
    '<div class="charts">',
    ...report.dimensions.map((d) => `<figure>${dimensionChart(report, d)}</figure>`),
    '</div>',
    reportPlotsHtml(report),
    '<h2>Paired differences (same scenario and pair)</h2>',
    report.paired.length === 0
      ? '<p>One mode only: nothing to pair.</p>'
      : `<table><tr><th>b − a</th><th>dimension</th><th>n</th><th>mean diff</th><th>SE</th><th>t</th><th>df</th><th>p</th></tr>${pairedRows.join('')}</table>`,
    '<p>See report.md and report.json for words per turn, deal rates, first mentions and every episode.</p>',
    '</body></html>',
    '',
  ].join('\n');
}
