// Loaded by URL in the worker threads of a sweep (src/sweep/run-worker.ts): there the
// CLI's `main` never ran, so the worlds runnable by id are installed from the modules
// their contributions name (CliContribution.from) before the world is loaded.
import type { Json } from '../core/index.ts';
import type { CliContribution } from './cli-contribution.ts';
import { type LoadedWorld, loadWorld } from './load-world.ts';
import { installWorlds } from './world-catalog.ts';
import type { WorldModules } from './world-modules.ts';

/** Where a worker imports contributions from: module URLs and export names. */
export interface ContributionSources {
  contributions: { url: string; name: string }[];
}

/** What a sweep's worker thread gets to load its world: the contributions, and a world file's local modules. */
export interface RunWorldData extends ContributionSources {
  /** The world file's local modules as the command found them (checked again, not found again). */
  modules?: WorldModules;
}

/** The `from` of each contribution that has one (what a worker thread can import). */
export function contributionSources(contributions: readonly CliContribution[]): ContributionSources {
  const seen = new Set<string>();
  const out: ContributionSources['contributions'] = [];
  for (const c of contributions) {
    if (!c.from || seen.has(`${c.from.url}#${c.from.name}`)) continue;
    seen.add(`${c.from.url}#${c.from.name}`);
    out.push({ url: c.from.url, name: c.from.name });
  }
  return { contributions: out };
}

/** Installs the worlds of the contributions named in `data` (a {@link ContributionSources}) in this thread. */
export async function installContributionSources(data: Json | undefined): Promise<void> {
  const sources = (data as unknown as ContributionSources | undefined)?.contributions ?? [];
  for (const { url, name } of sources) {
    const exported = (await import(url))[name] as CliContribution | readonly CliContribution[];
    installWorlds(Array.isArray(exported) ? exported : [exported as CliContribution]);
  }
}

/**
 * Installs the contributions named in `data` (a {@link RunWorldData}), then loads `ref` as
 * `grapevine run` would (not type-checked again: the sweep command checked it before starting
 * its workers; a world file's local modules are those the command found, checked against
 * the files).
 */
export async function loadRunWorld(ref: string, data: Json | undefined): Promise<LoadedWorld> {
  await installContributionSources(data);
  const modules = (data as unknown as RunWorldData | undefined)?.modules;
  return loadWorld(ref, { check: false, ...(modules ? { modules } : {}) });
}

/** {@link RunWorldData} for the world whose recorded source is `source`. */
export function runWorldData(
  contributions: readonly CliContribution[],
  source: Record<string, Json>,
): RunWorldData {
  // a world of one file records none: {} tells the thread so, instead of looking again
  const modules = source.kind === 'file' ? ((source.modules ?? {}) as WorldModules) : undefined;
  return { ...contributionSources(contributions), ...(modules ? { modules } : {}) };
}
