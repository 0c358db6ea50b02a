import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { sha256Hex, WorldNotFoundError } from '../core/index.ts';
import { readInputFile } from '../core/input-file.ts';

/**
 * The local modules a world file imports, directly or through each other (its own folder's
 * files and any others outside `node_modules` and grapevine), each by its path relative to
 * the world file's folder (`./helpers.ts`, `../common/names.ts`) with the sha256 of its
 * bytes. Recorded in a log header as `world.source.modules`; a header without it records a
 * world of one file.
 */
export type WorldModules = Record<string, string>;

/** Most modules a header may record, and most bytes of one recorded module read to check it. */
const MAX_MODULES = 10_000;
const MAX_MODULE_BYTES = 64 * 2 ** 20;

/** The key of a module at `rel` (relative to the world file's folder): `./x.ts` or `../x.ts`, with `/`. */
export function moduleKey(rel: string): string {
  const posix = rel.split(sep).join('/');
  return posix.startsWith('../') ? posix : `./${posix}`;
}

/** The {@link WorldModules} of the world file at `path`, from the world's source files (the file itself left out), keys sorted. */
export function worldModulesOf(path: string, sources: readonly string[]): WorldModules {
  const dir = dirname(path);
  const world = resolve(path);
  const keyed = sources
    .map((s) => resolve(s))
    .filter((s) => s !== world)
    .map((s) => [moduleKey(relative(dir, s)), sha256Hex(readFileSync(s))] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keyed);
}

function badRecord(why: string): never {
  throw new WorldNotFoundError(`the log header's world.source.modules ${why}`, {
    hint: 'the header was damaged or edited; restore the log from a copy',
  });
}

/** `modules` from a log header (untrusted) as {@link WorldModules}, its shape and size checked. */
export function recordedWorldModules(modules: unknown): WorldModules {
  if (typeof modules !== 'object' || modules === null || Array.isArray(modules))
    badRecord('is not an object of paths and sha256s');
  const entries = Object.entries(modules);
  if (entries.length > MAX_MODULES) badRecord(`names ${entries.length} modules, more than ${MAX_MODULES}`);
  for (const [key, sha] of entries) {
    const relativeKey = (key.startsWith('./') || key.startsWith('../')) && key.length <= 1000;
    if (!relativeKey || key.includes('\0') || isAbsolute(key))
      badRecord('names a module by a path that is not relative to the world file');
    if (typeof sha !== 'string' || !/^[0-9a-f]{64}$/.test(sha))
      badRecord(`records no sha256 for ${JSON.stringify(key).slice(0, 200)}`);
  }
  return Object.fromEntries(entries) as WorldModules;
}

/**
 * Checks that each module `modules` records, at its path beside the world file at `path`
 * (the one the user named), has the recorded sha256, BEFORE the world is imported: a changed
 * helper module is named instead of run. Each is read as an input file (a regular file
 * only, bounded in size and time), so a crafted header opens nothing else.
 * @throws WorldNotFoundError naming the module and both hashes (exit 2).
 */
export function checkWorldModules(path: string, modules: WorldModules): void {
  const dir = dirname(path);
  for (const [key, recorded] of Object.entries(modules)) {
    const bytes = readModule(resolve(dir, key), key);
    const sha = sha256Hex(bytes);
    if (sha !== recorded)
      throw new WorldNotFoundError(
        `the module ${key} that ${path} imports is not the one that wrote the log (sha256 ${sha.slice(0, 12)}…, the log has ${recorded.slice(0, 12)}…)`,
        {
          hint: `give the world file and the modules it imports exactly as they were for this run (${key} is read beside ${path})`,
        },
      );
  }
}

function readModule(abs: string, key: string): Buffer {
  try {
    return readInputFile(abs, { what: 'world module', maxBytes: MAX_MODULE_BYTES, bytesPerByte: 1 });
  } catch (cause) {
    throw new WorldNotFoundError(
      `the module ${key} that the log's world imports cannot be read: ${(cause as Error).message}`,
      { cause, hint: 'put the modules the world file imported beside it, as they were for this run' },
    );
  }
}
