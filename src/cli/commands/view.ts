import { UsageError } from '../../core/index.ts';
import { intFlag, positiveIntFlag } from '../flags.ts';
import type { LogWorldOptions } from '../log-world-options.ts';
import { buildViewData } from './view/view-model.ts';
import { startViewServer, viewerBundleDir } from './view/view-server.ts';

/** Options of `grapevine view`. */
export interface ViewCommandOptions extends LogWorldOptions {
  port?: string;
  /** Most agents drawn (default 2000). */
  maxNodes?: string;
  /** `--layout force|circle` (default: a ring for lattices and small worlds, ForceAtlas2 otherwise). */
  layout?: string;
}

/**
 * `grapevine view <log> [--port N]`: verifies the log, builds the viewer's data (curves and
 * provenance from the log, the drawn agents' per-tick states from one rerun) and serves the
 * page on 127.0.0.1 until interrupted (Ctrl-C).
 */
export async function viewCommand(path: string, opts: ViewCommandOptions): Promise<number> {
  const port = intFlag('port', opts.port) ?? 8790;
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const maxNodes = positiveIntFlag('max-nodes', opts.maxNodes) ?? 2000;
  if (opts.layout !== undefined && opts.layout !== 'force' && opts.layout !== 'circle')
    throw new UsageError(`--layout must be force or circle, got "${opts.layout}"`, {
      hint: 'leave it out for a ring on lattices and a force layout on other networks',
    });
  const bundle = viewerBundleDir();
  const data = await buildViewData(path, {
    maxNodes,
    world: opts.world,
    networkFile: opts.networkFile,
    input: opts.input,
    check: opts.check,
    layout: opts.layout,
  });
  const server = await startViewServer(data, bundle, port);
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  process.stdout.write(`grapevine viewer at http://127.0.0.1:${bound}/ (Ctrl-C to stop)\n`);
  for (const note of data.model.notes) process.stdout.write(`note: ${note}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return 0;
}
