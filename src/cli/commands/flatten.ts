import { existsSync } from 'node:fs';
import { UsageError } from '../../core/index.ts';
import { flattenLog } from '../../replay/index.ts';
import { checkOutPath } from '../flags.ts';

/** Options of `grapevine flatten`. */
export interface FlattenCommandOptions {
  out?: string;
  force?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/**
 * `grapevine flatten <child> [--out F]`: turns a delta child (a fork that names its parent
 * and holds only its future) into a self-contained log with the same lines and digest; in
 * place unless `--out` is given.
 */
export async function flattenCommand(path: string, opts: FlattenCommandOptions): Promise<number> {
  const out = opts.out ?? path;
  if (opts.out !== undefined) {
    checkOutPath(opts.out);
    if (existsSync(opts.out) && !opts.force)
      throw new UsageError(`${opts.out} already exists`, { hint: 'choose another --out, or add --force' });
  }
  const summary = await flattenLog(path, out);
  const result = {
    log: out,
    child: path,
    digest: summary.digest,
    lines: summary.lastSeq + 1,
    delta: Boolean(summary.delta),
  };
  if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else if (!opts.quiet)
    process.stdout.write(
      `${summary.delta ? `flattened ${path}` : `${path} was already standalone; copied`} to ${out}: ${result.lines} lines\ndigest ${summary.digest}\n`,
    );
  return 0;
}
