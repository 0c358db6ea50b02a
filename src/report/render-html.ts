import type { RunAnalysis } from './analyze-log.ts';
import type { Figure } from './figures.ts';
import { reportPageHtml } from './report-page.ts';
import { esc } from './svg-chart.ts';

/** The JSON twin of a report: the run's identity and every figure's data. */
export interface ReportJson {
  log: string;
  world: unknown;
  seed: unknown;
  params: unknown;
  digest: string;
  complete: boolean;
  /** The run's tick count (see {@link RunAnalysis.lastTick}). */
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
    ticks: a.lastTick,
    events: a.events,
    figures,
  };
}

/**
 * Renders a run's report as one self-contained HTML page (see {@link reportPageHtml}):
 * what the log is, its parameters as a table, then the figures; the figures' data is
 * embedded as JSON (`<script type="application/json" id="report-data">`) for reuse.
 */
export function renderReportHtml(a: RunAnalysis, figures: Figure[]): string {
  const world = a.header.world as { id?: string; version?: string } | undefined;
  const state = a.complete ? 'complete' : 'incomplete (no end line)';
  return reportPageHtml({
    title: `grapevine report: ${world?.id ?? 'run'} seed ${String(a.header.seed)}`,
    intro: [
      `Log <code>${esc(a.log)}</code>: world ${esc(`${world?.id}@${world?.version}`)}, seed ${esc(String(a.header.seed))}, ${esc(String(a.header.size ?? '?'))} agents; ran ${a.lastTick} ticks after the initial state at tick 0 (${state}); hash chain verified, digest <code>${esc(a.digest)}</code>.`,
    ],
    params: (a.header.params ?? {}) as Record<string, unknown>,
    figures,
    data: reportJson(a, figures),
  });
}
