import type { CompareReport, CompareRow, MetricScore } from './compare-answers.ts';

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `0.123 [0.101, 0.140]`, or `–` for a missing metric. */
export function formatScore(m: MetricScore | undefined, digits = 3): string {
  if (m === undefined || !Number.isFinite(m.estimate)) return '–';
  return `${m.estimate.toFixed(digits)} [${m.lo.toFixed(digits)}, ${m.hi.toFixed(digits)}]`;
}

function bars(row: CompareRow): string {
  const opts = [...new Set([...Object.keys(row.humanShares), ...Object.keys(row.simShares)])];
  const bar = (share: number, cls: string) =>
    `<div class="${cls}" style="width:${(share * 200).toFixed(1)}px"></div>`;
  const lines = opts.map(
    (o) =>
      `<tr><td>${esc(o)}</td><td>${bar(row.humanShares[o] ?? 0, 'h')}${bar(row.simShares[o] ?? 0, 's')}</td>` +
      `<td>${(row.humanShares[o] ?? 0).toFixed(3)} / ${(row.simShares[o] ?? 0).toFixed(3)}</td></tr>`,
  );
  return `<table class="bars">${lines.join('')}</table>`;
}

function rowHtml(r: CompareRow): string {
  const floor = (m: MetricScore | undefined) => (m && Number.isFinite(m.floor) ? m.floor.toFixed(3) : '–');
  return (
    `<tr><td>${esc(r.item)}</td><td>${esc(r.group)}</td><td>${r.nSim}</td><td>${r.nHuman}</td>` +
    `<td>${formatScore(r.tv)}</td><td>${floor(r.tv)}</td><td>${formatScore(r.js)}</td><td>${floor(r.js)}</td>` +
    `<td>${formatScore(r.w1)}</td><td>${floor(r.w1)}</td><td>${bars(r)}</td><td>${esc(r.source)}</td></tr>`
  );
}

/**
 * A self-contained HTML page of a {@link CompareReport}: the overall means, a row per item
 * and group with TV, JS and W1 (95% CI) beside their split-half floors, and bars of the
 * human (dark) and simulated (light) shares per option.
 */
export function renderCompareHtml(report: CompareReport, title: string): string {
  const o = report.overall;
  const missing = report.missing.length
    ? `<p>No simulated answers for: ${report.missing.map(esc).join(', ')}</p>`
    : '';
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title><style>
body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}
.bars td{border:none;padding:0 4px}.h,.s{height:7px;margin:1px 0}.h{background:#0072B2}.s{background:#E69F00}</style></head><body>
<h1>${esc(title)}</h1>
<p>Phase ${esc(report.phase)}; bootstrap ${report.replicates} resamples (seed ${report.seed}); noise floor from ${report.splits} split halves of the human sample. Blue: human, orange: simulated.</p>
<p>Overall (mean over rows): TV ${o.tv.toFixed(3)} (${(100 * o.tvAttainable).toFixed(1)}% of attainable), JS ${o.js.toFixed(3)} bits (${(100 * o.jsAttainable).toFixed(1)}% of attainable), W1 ${Number.isFinite(o.w1) ? o.w1.toFixed(3) : '–'}</p>
${missing}<table><tr><th>item</th><th>group</th><th>n sim</th><th>n human</th><th>TV [95% CI]</th><th>TV floor</th><th>JS bits [95% CI]</th><th>JS floor</th><th>W1 [95% CI]</th><th>W1 floor</th><th>shares</th><th>source</th></tr>
${report.rows.map(rowHtml).join('\n')}</table></body></html>
`;
}
