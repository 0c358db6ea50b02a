import type { RunAnalysis } from './analyze-log.ts';
import type { Figure, TableSpec } from './figures.ts';
import { esc, svgChart } from './svg-chart.ts';

/** The JSON twin of a report: the run's identity and every figure's data. */
export interface ReportJson {
  log: string;
  world: unknown;
  seed: unknown;
  params: unknown;
  digest: string;
  complete: boolean;
  ticks: number;
  events: Record<string, number>;
  figures: Figure[];
}

/** The JSON twin of a report (what `--json` prints and the HTML embeds). */
export function reportJson(a: RunAnalysis, figures: Figure[]): ReportJson {
  return {
    log: a.log,
    world: a.header.world,
    seed: a.header.seed,
    params: a.header.params,
    digest: a.digest,
    complete: a.complete,
    ticks: a.ticks.length,
    events: a.events,
    figures,
  };
}

function table(t: TableSpec): string {
  const head = t.columns.map((c) => `<th>${esc(c)}</th>`).join('');
  const body = t.rows
    .map((r) => `<tr>${r.map((v) => `<td>${v === null ? '' : esc(String(v))}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function figure(f: Figure, n: number): string {
  const body = f.chart ? svgChart(f.chart) : f.table ? table(f.table) : '';
  return `<figure id="${esc(f.id)}">\n${body}\n<figcaption><b>Figure ${n}. ${esc(f.title)}.</b> ${esc(f.caption)}</figcaption>\n</figure>`;
}

const STYLE = `body{font-family:sans-serif;max-width:900px;margin:2em auto;padding:0 1em;color:#222}
figure{margin:2em 0}figcaption{font-size:0.9em;color:#444;max-width:640px}
table{border-collapse:collapse;font-size:0.9em}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
th{background:#f4f4f4}code{font-size:0.9em}`;

/**
 * Renders a report as one self-contained HTML page: inline SVG charts and HTML tables, no
 * script and no external resource, so it opens offline; the figures' data is embedded as
 * JSON (`<script type="application/json" id="report-data">`) for reuse.
 */
export function renderReportHtml(a: RunAnalysis, figures: Figure[]): string {
  const world = a.header.world as { id?: string; version?: string } | undefined;
  const title = `grapevine report: ${world?.id ?? 'run'} seed ${String(a.header.seed)}`;
  const data = JSON.stringify(reportJson(a, figures)).replace(/</g, '\\u003c');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${esc(title)}</h1>`,
    `<p>Log <code>${esc(a.log)}</code>: world ${esc(`${world?.id}@${world?.version}`)}, ${a.ticks.length} ticks, ${a.complete ? 'complete' : 'incomplete (no end event)'}, hash chain verified, digest <code>${esc(a.digest)}</code>.</p>`,
    `<p>Parameters: <code>${esc(JSON.stringify(a.header.params ?? {}))}</code></p>`,
    ...figures.map((f, i) => figure(f, i + 1)),
    `<script type="application/json" id="report-data">${data}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
