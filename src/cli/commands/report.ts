import { writeFileSync } from 'node:fs';
import { isGrapevineError, RngStreams } from '../../core/index.ts';
import { readHeader } from '../../replay/index.ts';
import {
  analyzeLog,
  renderReportHtml,
  reportFigures,
  reportJson,
  type StateLayout,
} from '../../report/index.ts';
import { loadWorldFromHeader } from '../load-world.ts';

/** Options of `grapevine report`. */
export interface ReportCommandOptions {
  out?: string;
  json?: boolean;
  quiet?: boolean;
}

/** Where a log's report goes by default: beside the log, `<name>.report.html`. */
export function defaultReportPath(log: string): string {
  return `${log.replace(/\.ndjson(\.gz)?$|\.gz$/, '')}.report.html`;
}

/**
 * The agent machine layout of the world that wrote a log, needed to name the columns of
 * its snapshots: the world is built again from the header (parameters and seed, no LLM).
 * Returns undefined, with a warning on stderr, when the world cannot be built: the report
 * then leaves out what needs the snapshot (cascades, asymmetry).
 */
export async function layoutOfLog(path: string): Promise<StateLayout | undefined> {
  const header = await readHeader(path);
  try {
    const { def } = await loadWorldFromHeader(header);
    const seed = header.seed as number;
    const instance = def.create({
      params: header.params as Record<string, unknown>,
      seed,
      rng: new RngStreams(seed),
      model: (header.llm as { model?: string } | undefined)?.model,
    });
    return instance.agents.layout;
  } catch (err) {
    if (!isGrapevineError(err)) throw err;
    process.stderr.write(`grapevine: warning: no cascades or asymmetry: ${err.message}\n`);
    return undefined;
  }
}

/**
 * `grapevine report <log> [--out report.html] [--json]`: one streaming, verifying pass
 * over the log, then a self-contained HTML report (inline SVG, no network) beside the log
 * or at `--out`; `--json` prints the same figures as JSON on stdout.
 */
export async function reportCommand(path: string, opts: ReportCommandOptions): Promise<number> {
  const layout = await layoutOfLog(path);
  const { analysis } = await analyzeLog(path, layout);
  const figures = reportFigures(analysis);
  const out = opts.out ?? defaultReportPath(path);
  writeFileSync(out, renderReportHtml(analysis, figures));
  if (opts.json) process.stdout.write(`${JSON.stringify(reportJson(analysis, figures))}\n`);
  else if (!opts.quiet) process.stdout.write(`report ${out} (${figures.length} figures)\n`);
  return 0;
}
