// Loaded by URL in the worker threads of a fork batch (src/sweep/run-worker.ts): loads the
// world a parent log's header names, with the same checks as `grapevine fork` (a world
// file only when the user named it, its sha256 first; a network file by its recorded hash).
import type { Json } from '../../../core/index.ts';
import { type HeaderWorldOptions, type LoadedWorld, loadWorldFromHeader } from '../../load-world.ts';
import { type ContributionSources, installContributionSources } from '../../sweep-world-loader.ts';

/** What a fork batch's worker thread needs to load the parent's world. */
export interface ForkWorldData extends ContributionSources {
  /** The parent log's header (as read by the batch's verification). */
  header: Record<string, Json>;
  /** `--world` and `--network-file` of the fork command. */
  options: Omit<HeaderWorldOptions, 'logPath'>;
}

/** Loads the world of the parent log `ref` from its header in `data` (a {@link ForkWorldData}). */
export async function loadRunWorld(ref: string, data: Json | undefined): Promise<LoadedWorld> {
  await installContributionSources(data);
  const d = data as unknown as ForkWorldData;
  // the fork command checked the world file before starting its workers
  return loadWorldFromHeader(d.header, { ...d.options, logPath: ref, check: false });
}
