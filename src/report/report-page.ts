import { formatNumber, type Json } from '../core/index.ts';
import type { Figure, TableSpec } from './figures.ts';
import { esc, svgChart } from './svg-chart.ts';

/** One HTML report page: a title, paragraphs about what it reports, an optional parameter table, figures. */
export interface ReportPage {
  title: string;
  /** Paragraphs under the title, as HTML (escape what they quote with {@link esc}). */
  intro: readonly string[];
  /** Parameters shown as a table (name, value), when given. */
  params?: Readonly<Record<string, unknown>>;
  /** What the parameter table is (its caption). */
  paramsCaption?: string;
  figures: readonly Figure[];
  /** Embedded as JSON (`<script type="application/json" id="report-data">`). */
  data: unknown;
}

const NUMERIC_TEXT = /^(\[[^\]]*\]|-?[\d.]+(e[-+]?\d+)?%|–)$/;

/** A table cell: numbers by {@link formatNumber} (the JSON data keeps them whole), text escaped. */
function cell(v: string | number | null): string {
  if (v === null) return '<td></td>';
  if (typeof v === 'number') return `<td class="num">${formatNumber(v)}</td>`;
  // intervals and percentages read as numbers too
  if (NUMERIC_TEXT.test(v)) return `<td class="num">${esc(v)}</td>`;
  // dotted names (metric.rumor.fractionAware) may break after a dot in a narrow column
  return `<td>${esc(v).replace(/\.(?=\D)/g, '.<wbr>')}</td>`;
}

function tableHtml(t: TableSpec): string {
  const head = t.columns.map((c) => `<th>${esc(c)}</th>`).join('');
  const body = t.rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** A parameter's value as given (never rounded: it identifies the run); objects as JSON. */
function paramValue(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v as Json);
}

/** Parameters three (name, value) pairs to a row, in name order. */
function paramsTable(params: Readonly<Record<string, unknown>>): TableSpec {
  const entries = Object.keys(params)
    .sort()
    .map((k) => [k, paramValue(params[k])]);
  const perRow = 3;
  const rows: (string | null)[][] = [];
  for (let i = 0; i < entries.length; i += perRow) {
    const chunk = entries.slice(i, i + perRow);
    while (chunk.length < perRow) chunk.push(['', '']);
    rows.push(chunk.flat().map((c) => (c === '' ? null : c)));
  }
  return { columns: Array.from({ length: perRow }, () => ['parameter', 'value']).flat(), rows };
}

const STYLE = `body{font-family:sans-serif;max-width:62rem;margin:2em auto;padding:0 1em;color:#222;line-height:1.4}
figure{margin:2em 0;break-inside:avoid}figcaption{font-size:0.92em;color:#333;margin:0.4em 0}
svg.chart{display:block;width:100%;height:auto}
table{border-collapse:collapse;font-size:0.9em;max-width:100%}td,th{border:1px solid #ccc;padding:2px 8px;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums;overflow-wrap:normal}th{background:#f4f4f4;text-align:left}
td{overflow-wrap:anywhere}table.params td:nth-child(odd){color:#555}code{font-size:0.9em;overflow-wrap:anywhere}
@media print{body{max-width:none;margin:0}table{font-size:0.78em}td,th{padding:1px 4px}}`;

/** A figure: charts numbered as figures (caption below), tables as tables (caption above). */
function figureHtml(f: Figure, n: number): string {
  const kind = f.chart ? 'Figure' : 'Table';
  const caption = `<figcaption><b>${kind} ${n}. ${esc(f.title)}.</b> ${esc(f.caption)}</figcaption>`;
  if (f.chart) return `<figure id="${esc(f.id)}">\n${svgChart(f.chart)}\n${caption}\n</figure>`;
  return `<figure id="${esc(f.id)}">\n${caption}\n${f.table ? tableHtml(f.table) : ''}\n</figure>`;
}

/**
 * Renders a report as one self-contained HTML page: inline SVG charts that scale to the
 * page's width (and a printed page's), HTML tables, no script and no external resource, so
 * it opens offline. Charts are numbered Figure 1, 2, ... and tables Table 1, 2, ...
 * (the parameter table first), each series on its own.
 */
export function reportPageHtml(page: ReportPage): string {
  let figures = 0;
  let tables = page.params ? 1 : 0;
  const params = page.params
    ? `<figure id="parameters">\n<figcaption><b>Table 1. Parameters.</b> ${esc(page.paramsCaption ?? 'The parameters of the run, as its log header records them.')}</figcaption>\n${tableHtml(paramsTable(page.params)).replace('<table>', '<table class="params">')}\n</figure>`
    : '';
  const body = page.figures.map((f) => figureHtml(f, f.chart ? ++figures : ++tables));
  const data = JSON.stringify(page.data).replace(/</g, '\\u003c');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(page.title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${esc(page.title)}</h1>`,
    ...page.intro.map((p) => `<p>${p}</p>`),
    params,
    ...body,
    `<script type="application/json" id="report-data">${data}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
