import { UsageError } from '../../core/index.ts';
import {
  agentsTable,
  analyzeLog,
  cascadesTable,
  type ExportFormat,
  type ExportTable,
  eventsTable,
  metricsTable,
  writeTable,
} from '../../report/index.ts';
import { checkOutPath } from '../flags.ts';
import { layoutOfLog } from '../log-layout.ts';
import type { LogWorldOptions } from '../log-world-options.ts';

/** Options of `grapevine export`. */
export interface ExportCommandOptions extends LogWorldOptions {
  what?: string;
  format?: string;
  out?: string;
  quiet?: boolean;
}

const WHAT = ['metrics', 'agents', 'cascades', 'events'] as const;
const FORMATS: readonly ExportFormat[] = ['csv', 'parquet', 'ndjson'];

async function table(
  path: string,
  what: (typeof WHAT)[number],
  worldFile: string | undefined,
  networkFile: string | undefined,
  check?: boolean,
): Promise<ExportTable> {
  if (what === 'metrics') return metricsTable(path);
  if (what === 'events') return eventsTable(path);
  const layout = await layoutOfLog(path, worldFile, networkFile, check);
  if (!layout) throw new UsageError(`cannot export ${what}: the world that wrote ${path} cannot be built`);
  const run = await analyzeLog(path, layout);
  if (!run.finalState)
    throw new UsageError(`cannot export ${what}: ${path} has no snapshot`, {
      hint: 'a finished run writes one at its end; resume an interrupted run first',
    });
  return what === 'agents' ? agentsTable(run) : cascadesTable(run);
}

/**
 * `grapevine export <log> --what metrics|agents|cascades|events --format csv|parquet|ndjson
 * [--out path]`: a tidy table from a verified log, beside the log by default
 * (`<name>.<what>.<format>`).
 */
export async function exportCommand(path: string, opts: ExportCommandOptions): Promise<number> {
  const what = opts.what as (typeof WHAT)[number];
  if (!WHAT.includes(what))
    throw new UsageError(`--what must be one of ${WHAT.join(', ')}, got "${opts.what ?? ''}"`);
  const format = (opts.format ?? 'csv') as ExportFormat;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${opts.format}"`);
  const out = opts.out ?? `${path.replace(/\.ndjson(\.gz)?$|\.gz$/, '')}.${what}.${format}`;
  checkOutPath(out);
  // a named world or network file is checked (sha256, loadable) even for tables that need no world
  if (opts.world !== undefined || opts.networkFile !== undefined)
    await layoutOfLog(path, opts.world, opts.networkFile, opts.check);
  const rows = await writeTable(
    await table(path, what, opts.world, opts.networkFile, opts.check),
    format,
    out,
  );
  if (!opts.quiet) process.stdout.write(`${what} ${out} (${rows} rows)\n`);
  return 0;
}
