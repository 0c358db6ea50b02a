import { flattenLog } from '../../replay/index.ts';
import {
  checkOutputFile,
  discardTemporary,
  publishOutput,
  removeOnExit,
  stagingPath,
} from '../output-file.ts';

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
  if (opts.out !== undefined) checkOutputFile(opts.out, opts.force);
  // in place, flattenLog renames its own temporary file over the child; to --out, it writes a
  // staging file that is then published (one of two flattens racing to one --out wins)
  const target = opts.out === undefined ? path : stagingPath(opts.out);
  const tmp = removeOnExit(`${target}.tmp-${process.pid}`); // flattenLog's temporary file, if the process is stopped
  let summary: Awaited<ReturnType<typeof flattenLog>>;
  try {
    summary = await flattenLog(path, target);
    if (opts.out !== undefined) publishOutput(target, opts.out, opts.force);
  } finally {
    tmp();
    if (opts.out !== undefined) discardTemporary(target);
  }
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
