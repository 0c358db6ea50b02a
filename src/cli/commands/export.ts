import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '../../core/index.ts';
import { type ForkBatch, type ForkChild, readForkBatch } from '../../metrics/index.ts';
import {
  agentsTable,
  analyzeLog,
  type BatchRun,
  cascadesTable,
  type ExportFormat,
  type ExportTable,
  eventsTable,
  metricsTable,
  networkMeasures,
  runsTable,
  streamTable,
  writeTable,
} from '../../report/index.ts';
import { namesInputFile } from '../load-world.ts';
import { layoutOfLog, worldOfLog } from '../log-layout.ts';
import type { LogWorldOptions } from '../log-world-options.ts';
import { checkOutputFile, removeOnExit, writeOutput } from '../output-file.ts';

/** Options of `grapevine export`. */
export interface ExportCommandOptions extends LogWorldOptions {
  what?: string;
  format?: string;
  out?: string;
  quiet?: boolean;
  /** Replace an existing output file. */
  force?: boolean;
}

const WHAT = ['metrics', 'agents', 'cascades', 'events'] as const;
const FORMATS: readonly ExportFormat[] = ['csv', 'parquet', 'ndjson'];

async function table(
  path: string,
  what: (typeof WHAT)[number],
  opts: ExportCommandOptions,
): Promise<ExportTable> {
  if (what === 'metrics') return metricsTable(path);
  if (what === 'events') return eventsTable(path);
  const world = await worldOfLog(path, opts.world, opts);
  if (!world) throw new UsageError(`cannot export ${what}: the world that wrote ${path} cannot be built`);
  const run = await analyzeLog(path, world.layout);
  if (!run.finalState)
    throw new UsageError(`cannot export ${what}: ${path} has no snapshot`, {
      hint: 'a finished run writes one at its end; resume an interrupted run first',
    });
  if (what === 'cascades') return cascadesTable(run);
  return agentsTable(run, world.network ? networkMeasures(world.network) : undefined);
}

const LOG = /\.ndjson(\.gz)?$/;

function stem(file: string): string {
  return basename(file).replace(LOG, '');
}

/**
 * The runs of a folder: a sweep's (`sweep.json` and `runs/`); a fork batch's children, in
 * their arms as their logs record them (control: only a reseed; treated: the treatment) with
 * their future seeds, the seeds pairs share; else every log the folder holds.
 */
export async function batchRuns(dir: string): Promise<BatchRun[]> {
  const logsIn = (d: string) =>
    readdirSync(d)
      .filter((f) => LOG.test(f))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .map((f) => join(d, f));
  if (existsSync(join(dir, 'sweep.json')) && existsSync(join(dir, 'runs')))
    return logsIn(join(dir, 'runs')).map((path) => ({ id: stem(path), path }));
  const logs = logsIn(dir);
  if (logs.length === 0)
    throw new UsageError(`${dir} holds no logs`, {
      hint: 'export a log, a sweep folder (grapevine sweep --out) or a fork batch (grapevine fork --replicates)',
    });
  const batch = await forkBatchOf(dir);
  if (!batch) return logs.map((path) => ({ id: stem(path), path }));
  const child = (group: string) => (c: ForkChild) => ({
    id: stem(c.path),
    path: c.path,
    group,
    seed: c.seed,
  });
  return [...batch.control.map(child('control')), ...batch.treated.map(child('treated'))];
}

/** The folder read as a fork batch; undefined when it holds no fork children (then a plain folder of logs). */
async function forkBatchOf(dir: string): Promise<ForkBatch | undefined> {
  try {
    return await readForkBatch(dir);
  } catch (e) {
    if (e instanceof UsageError && /holds no logs of fork children/.test(e.message)) return undefined;
    throw e;
  }
}

/** Exports a folder of runs: one tidy table of every run's metrics per tick (`runs.<format>`). */
async function exportRuns(dir: string, opts: ExportCommandOptions, format: ExportFormat): Promise<number> {
  if (opts.what !== undefined && opts.what !== 'metrics')
    throw new UsageError(`a folder of runs exports their metrics, not ${opts.what}`, {
      hint: 'drop --what, or export one log of the folder',
    });
  const out = opts.out ?? join(dir, `runs.${format}`);
  if (out !== '-') checkOutputFile(out, opts.force);
  const table = await runsTable(await batchRuns(dir));
  return emit(table, format, out, 'runs', opts);
}

/** Writes a table to a file (or to standard output for `-`) and says where, unless quiet. */
async function emit(
  table: ExportTable,
  format: ExportFormat,
  out: string,
  what: string,
  opts: ExportCommandOptions,
): Promise<number> {
  if (out === '-') {
    if (format === 'parquet')
      throw new UsageError('--out - writes CSV or NDJSON to standard output, not Parquet', {
        hint: 'give --format csv or ndjson, or a file for Parquet',
      });
    await streamTable(table, format, process.stdout);
    return 0;
  }
  const rows = await writeOutput(out, opts.force, async (staging) => {
    const part = removeOnExit(`${staging}.part`); // the table writer's own temporary file
    try {
      return await writeTable(table, format, staging);
    } finally {
      part();
    }
  });
  if (!opts.quiet) process.stdout.write(`${what} ${out} (${rows} rows)\n`);
  return 0;
}

/**
 * `grapevine export <log|folder> --what metrics|agents|cascades|events --format
 * csv|parquet|ndjson [--out path|-]`: a tidy table from a verified log, beside the log by
 * default (`<name>.<what>.<format>`); for a sweep folder or a fork batch, one table of all
 * its runs (`<folder>/runs.<format>`); `--out -` writes to standard output.
 */
export async function exportCommand(path: string, opts: ExportCommandOptions): Promise<number> {
  const format = (opts.format ?? 'csv') as ExportFormat;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${opts.format}"`);
  if (existsSync(path) && statSync(path).isDirectory()) return exportRuns(path, opts, format);
  const what = opts.what as (typeof WHAT)[number];
  if (!WHAT.includes(what))
    throw new UsageError(`--what must be one of ${WHAT.join(', ')}, got "${opts.what ?? ''}"`);
  const out = opts.out ?? `${path.replace(/\.ndjson(\.gz)?$|\.gz$/, '')}.${what}.${format}`;
  if (out !== '-') checkOutputFile(out, opts.force);
  // a named world or network file is checked (sha256, loadable) even for tables that need no world
  if (opts.world !== undefined || namesInputFile(opts)) await layoutOfLog(path, opts.world, opts);
  return emit(await table(path, what, opts), format, out, what, opts);
}
