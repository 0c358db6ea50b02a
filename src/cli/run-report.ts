import { writeFileSync } from 'node:fs';
import { analyzeLog, renderReportHtml, reportFigures, reportJson } from '../report/index.ts';
import { checkOutPath } from './flags.ts';
import { layoutOfLog } from './log-layout.ts';

/** Options of `grapevine report`. */
export interface ReportCommandOptions {
  out?: string;
  json?: boolean;
  quiet?: boolean;
  /** The world file that wrote the log, when it is not built in. */
  world?: string;
}

/** Where a log's report goes by default: beside the log, `<name>.report.html`. */
export function defaultReportPath(log: string): string {
  return `${log.replace(/\.ndjson(\.gz)?$|\.gz$/, '')}.report.html`;
}

/**
 * `grapevine report <log> [--out report.html] [--json]`: one streaming, verifying pass
 * over the log, then a self-contained HTML report (inline SVG, no network) beside the log
 * or at `--out`; `--json` prints the same figures as JSON on stdout.
 */
export async function reportCommand(path: string, opts: ReportCommandOptions): Promise<number> {
  if (opts.out !== undefined) checkOutPath(opts.out);
  const layout = await layoutOfLog(path, opts.world);
  const { analysis } = await analyzeLog(path, layout);
  const figures = reportFigures(analysis);
  const out = opts.out ?? defaultReportPath(path);
  writeFileSync(out, renderReportHtml(analysis, figures));
  if (opts.json) process.stdout.write(`${JSON.stringify(reportJson(analysis, figures))}\n`);
  else if (!opts.quiet) process.stdout.write(`report ${out} (${figures.length} figures)\n`);
  return 0;
}
