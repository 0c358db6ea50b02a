import { resolve } from 'node:path';
import { UsageError } from '../../../src/index.ts';
import { type CommandOutput, PROCESS_OUTPUT } from '../../../src/public/cli.ts';
import { writeSotopiaPack } from '../pack-from-sotopia/write-pack.ts';

/** Options of `grapevine sotopia templates`. */
export interface SotopiaTemplatesOptions {
  from?: string;
  out?: string;
  langchain?: string;
  json?: boolean;
}

/**
 * `grapevine sotopia templates --from SOTOPIA_CHECKOUT --out DIR [--langchain PATH]`: reads
 * Sotopia's prompt strings from the user's own checkout (its Python files read as text,
 * never run) and writes a template pack of Sotopia's exact words, every placeholder
 * checked; `study sotopia --templates DIR` (or `--set templates=DIR`) then sends Sotopia's
 * own prompts. Exit 0, or 2 with a one-line error.
 */
export function sotopiaTemplatesCommand(
  opts: SotopiaTemplatesOptions,
  io: CommandOutput = PROCESS_OUTPUT,
): number {
  if (!opts.from || !opts.out)
    throw new UsageError('sotopia templates needs --from SOTOPIA_CHECKOUT and --out DIR', {
      hint: 'e.g. grapevine sotopia templates --from ~/src/sotopia --out sotopia-pack',
    });
  const out = resolve(opts.out);
  const { pack, files, warnings } = writeSotopiaPack(
    resolve(opts.from),
    out,
    opts.langchain && resolve(opts.langchain),
  );
  if (opts.json) io.out(`${JSON.stringify({ out, files, sha256: pack.sha256, warnings })}\n`);
  else
    io.out(
      [
        `wrote a template pack of Sotopia's words to ${out} (${files.length} files, pack sha256 ${pack.sha256})`,
        ...warnings.map((w) => `note: ${w}`),
        `use it with: grapevine study sotopia --templates ${out} ...  (or run sotopia --set templates=${out})`,
        '',
      ].join('\n'),
    );
  return 0;
}
