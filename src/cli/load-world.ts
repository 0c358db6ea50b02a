import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { type Json, sha256Hex, WorldNotFoundError } from '../core/index.ts';
import { isWorldDefinition, type WorldDefinition } from '../world/index.ts';
import { BUILTIN_WORLDS } from './builtin-worlds.ts';

/** A world and where it came from (recorded in the log header). */
export interface LoadedWorld {
  def: WorldDefinition;
  source: Record<string, Json>;
}

function looksLikePath(ref: string): boolean {
  return /[\\/]/.test(ref) || /\.(m|c)?(t|j)s$/.test(ref);
}

/** Loads a built-in world by id, or a user's world file (.ts or .js exporting `world`). */
export async function loadWorld(ref: string): Promise<LoadedWorld> {
  const builtin = BUILTIN_WORLDS.get(ref);
  if (builtin) return { def: builtin, source: { kind: 'builtin' } };
  if (!looksLikePath(ref)) {
    throw new WorldNotFoundError(`unknown world "${ref}"`, {
      hint: `built-in worlds: ${[...BUILTIN_WORLDS.keys()].join(', ')}; or give a path to a world file (./my-world.ts)`,
    });
  }
  const path = resolve(ref);
  if (!existsSync(path))
    throw new WorldNotFoundError(`world file not found: ${path}`, { hint: 'check the path' });
  let mod: Record<string, unknown>;
  try {
    mod = (await tsImport(pathToFileURL(path).href, import.meta.url)) as Record<string, unknown>;
  } catch (cause) {
    throw new WorldNotFoundError(`cannot load world file ${path}: ${(cause as Error).message}`, {
      cause,
      hint: 'fix the error in the file and retry',
    });
  }
  const def = isWorldDefinition(mod.world) ? mod.world : Object.values(mod).find(isWorldDefinition);
  if (!def)
    throw new WorldNotFoundError(`${path} exports no world`, {
      hint: 'export const world = defineWorld({ ... }) from the file',
    });
  return { def, source: { kind: 'file', path, sha256: sha256Hex(readFileSync(path)) } };
}

/** Loads the world a log header names, checking that a world file has not changed since. */
export async function loadWorldFromHeader(header: Record<string, unknown>): Promise<LoadedWorld> {
  const world = header.world as {
    id: string;
    version: string;
    source?: { kind: string; path?: string; sha256?: string };
  };
  const source = world?.source;
  const loaded = await loadWorld(source?.kind === 'file' && source.path ? source.path : world.id);
  if (source?.kind === 'file' && loaded.source.sha256 !== source.sha256) {
    throw new WorldNotFoundError(`world file ${source.path} changed since the log was written`, {
      hint: 'restore the file as it was for this run (its sha256 is in the log header)',
    });
  }
  if (loaded.def.version !== world.version && !loaded.def.migrateParams) {
    throw new WorldNotFoundError(
      `the log was written by ${world.id}@${world.version}, this is ${loaded.def.version}`,
      { hint: 'replay with the grapevine version that wrote the log' },
    );
  }
  return loaded;
}
