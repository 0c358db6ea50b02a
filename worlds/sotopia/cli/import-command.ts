import { UsageError } from '../../../src/index.ts';
import { type CommandOutput, PROCESS_OUTPUT } from '../../../src/public/cli.ts';
import { importSotopia } from '../importer.ts';

/** Options of `grapevine sotopia import`. */
export interface SotopiaImportOptions {
  check?: boolean;
  /** Data directory (default: the shipped copy). */
  data?: string;
  json?: boolean;
}

/**
 * `grapevine sotopia import --check [--data DIR] [--json]`: reads the four Sotopia files,
 * prints how many agents, environments, relationships and combinations were imported
 * (40 / 90 / 120 / 450 for the shipped copy) and every bad row as `file:line: error`.
 * Exit 0 when every row imported, 2 when any row was skipped (or a file is missing).
 */
export function sotopiaImportCommand(opts: SotopiaImportOptions, io: CommandOutput = PROCESS_OUTPUT): number {
  if (!opts.check)
    throw new UsageError('sotopia import needs --check', {
      hint: 'grapevine sotopia import --check [--data DIR] validates the Sotopia files and prints their counts',
    });
  const data = importSotopia(opts.data || undefined);
  const ok = data.issues.length === 0;
  if (opts.json) {
    io.out(`${JSON.stringify({ data: data.dir, counts: data.counts, issues: data.issues, ok })}\n`);
  } else {
    const c = data.counts;
    io.out(
      [
        `Sotopia data in ${data.dir}`,
        `  agents        ${String(c.agents).padStart(5)}`,
        `  environments  ${String(c.environments).padStart(5)}`,
        `  relationships ${String(c.relationships).padStart(5)}`,
        `  combos        ${String(c.combos).padStart(5)}`,
        ...data.issues.map((i) => `bad row ${i.file}:${i.line}: ${i.error}`),
        '',
      ].join('\n'),
    );
  }
  if (ok) return 0;
  const n = data.issues.length;
  io.err(`grapevine: ${n} bad row${n === 1 ? '' : 's'} skipped in ${data.dir}\n`);
  io.err('hint: each is listed as file:line; fix the rows or use another copy with --data DIR\n');
  return 2;
}
