import { UsageError } from '../core/errors.ts';
import type { WorldDefinition } from '../world/index.ts';
import type { CliContribution } from './cli-contribution.ts';

type WorldLoader = () => Promise<WorldDefinition>;

const loaders = new Map<string, WorldLoader>();
const installed: CliContribution[] = [];

/**
 * Makes the contributions' worlds runnable by id in this process (the CLI's `main` calls it
 * once with what its entry point passes; tests that load worlds by id call it too). A second
 * world under a known id is refused.
 */
export function installWorlds(contributions: readonly CliContribution[]): void {
  for (const c of contributions) {
    if (!installed.includes(c)) installed.push(c);
    for (const [id, load] of Object.entries(c.worlds ?? {})) {
      const known = loaders.get(id);
      if (known === load) continue;
      if (known)
        throw new UsageError(`two worlds share the id "${id}"`, { hint: 'give each world its own id' });
      loaders.set(id, load);
    }
  }
}

/** The contributions installed in this process (a worker thread installs those that name a `from`). */
export function installedContributions(): readonly CliContribution[] {
  return installed;
}

/** The ids of the worlds runnable by id, in the order they were installed. */
export function builtinWorldIds(): string[] {
  return [...loaders.keys()];
}

/** Loads a world installed under `id`, or resolves to undefined when none is. */
export async function loadBuiltinWorld(id: string): Promise<WorldDefinition | undefined> {
  const load = loaders.get(id);
  if (!load) return undefined;
  const def = await load();
  if (def?.kind !== 'grapevine-world' || def.id !== id)
    throw new UsageError(`the world installed as "${id}" did not load as a world with that id`, {
      hint: 'its loader must resolve to the defineWorld result whose id is the key it is listed under',
    });
  return def;
}
