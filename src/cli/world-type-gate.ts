import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { ConfigError, ENGINE_VERSION, sha256Hex } from '../core/index.ts';
import {
  publicTypesEntry,
  type TypeProblem,
  typeCheckWorldSources,
  worldSourceFiles,
} from './type-check-world.ts';
import { moduleKey, type WorldModules, worldModulesOf } from './world-modules.ts';

/**
 * A passed type check of a world file (whose content names the entry): the engine types it
 * was checked against, and the local modules it imports, relative to its folder, with their
 * sha256. Relative paths let a copy of the same world in another folder, its local imports
 * copied beside it, reuse the check.
 */
interface PassedCheck {
  engine: string;
  files: { rel: string; sha256: string }[];
}

/** Where passed checks are kept: `$GRAPEVINE_CACHE_DIR`, else the user's cache folder. */
export function typeCheckCacheDir(): string {
  const base =
    process.env.GRAPEVINE_CACHE_DIR ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'grapevine');
  return join(base, 'type-check');
}

/** The engine's public types as a stamp: its version and its type entry's modification time. */
function engineStamp(): string {
  const entry = publicTypesEntry();
  let mtime = 0;
  try {
    mtime = statSync(entry).mtimeMs;
  } catch {
    // no type entry: a check would fail to resolve 'grapevine' anyway
  }
  return `${ENGINE_VERSION}:${entry}:${mtime}`;
}

function hashOf(path: string): string | undefined {
  try {
    return sha256Hex(readFileSync(path));
  } catch {
    return undefined;
  }
}

function readPassed(entry: string): PassedCheck | undefined {
  try {
    return JSON.parse(readFileSync(entry, 'utf8')) as PassedCheck;
  } catch {
    return undefined;
  }
}

/**
 * The local modules recorded with a check of the same files (at the same places relative to
 * `dir`) against the same engine types that passed before, undefined when none did.
 */
function passedBefore(entry: string, engine: string, dir: string): WorldModules | undefined {
  const passed = readPassed(entry);
  if (!passed || passed.engine !== engine || !Array.isArray(passed.files)) return undefined;
  const same = passed.files.every(
    (f) => typeof f.rel === 'string' && hashOf(resolve(dir, f.rel)) === f.sha256,
  );
  return same ? Object.fromEntries(passed.files.map((f) => [moduleKey(f.rel), f.sha256])) : undefined;
}

function remember(entry: string, passed: PassedCheck): void {
  try {
    mkdirSync(dirname(entry), { recursive: true });
    const part = `${entry}.${process.pid}.part`;
    writeFileSync(part, JSON.stringify(passed));
    renameSync(part, entry);
  } catch {
    // a cache that cannot be written only costs the next run another check
  }
}

/** What {@link worldTypeGate} found: the type problems, and the world's local modules. */
export interface WorldTypeGate {
  problems: TypeProblem[];
  /** The local modules the world file imports (see {@link worldModulesOf}). */
  modules: WorldModules;
}

/** Where a passed check of the world file at `path` against the engine types `engine` is kept. */
function cacheEntry(path: string, engine: string): string {
  // keyed by the world file's content: the same file anywhere shares one entry, whose
  // recorded local imports must then match beside it too
  return join(typeCheckCacheDir(), `${sha256Hex(`${engine}\n${hashOf(path) ?? path}`).slice(0, 32)}.json`);
}

/**
 * The local modules of a world file as a passed check recorded them, when one of the same
 * files against the same engine types is remembered (no compiler is loaded); else undefined.
 */
export function rememberedWorldModules(path: string): WorldModules | undefined {
  const engine = engineStamp();
  return passedBefore(cacheEntry(path, engine), engine, dirname(path));
}

/**
 * The type problems of a world file, none when a check of the same files against the same
 * engine types passed before (see {@link requireWorldTypes}), and the local modules the
 * compiler read; a passing check is remembered.
 */
export async function worldTypeGate(path: string): Promise<WorldTypeGate> {
  const engine = engineStamp();
  const dir = dirname(path);
  const entry = cacheEntry(path, engine);
  const remembered = passedBefore(entry, engine, dir);
  if (remembered) return { problems: [], modules: remembered };
  const { problems, sources } = await typeCheckWorldSources(path);
  const modules = worldModulesOf(path, sources);
  if (problems.length === 0) {
    const files = Object.entries(modules).map(([key, sha256]) => ({
      rel: relative(dir, resolve(dir, key)),
      sha256,
    }));
    remember(entry, { engine, files });
  }
  return { problems, modules };
}

/** The type problems of a world file (see {@link worldTypeGate}). */
export async function worldTypeProblems(path: string): Promise<TypeProblem[]> {
  return (await worldTypeGate(path)).problems;
}

/**
 * Type-checks a world file before a command loads it, and stops with the compiler's
 * messages (exit 2) when it has type errors. A check that passed is remembered by the
 * sha256 of every file of the world the compiler read (the file, and its local imports at
 * the same places beside it) and the engine's types, in {@link typeCheckCacheDir}: a second
 * run of an unchanged world, or of a copy of it anywhere, reads a few hashes and never loads
 * the compiler.
 *
 * @returns the world's local modules (see {@link worldModulesOf}).
 * @throws ConfigError naming the first problems and how to see them all.
 */
export async function requireWorldTypes(path: string): Promise<WorldModules> {
  const { problems, modules } = await worldTypeGate(path);
  if (problems.length === 0) return modules;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  throw new ConfigError(`${path} does not type-check: ${problems[0].replace(/\n\s*/g, ' ')}${more}`, {
    hint: `fix the file (grapevine check ${path} lists every problem), or run it unchecked with --no-check`,
  });
}

/**
 * The local modules of the world file at `path` when it is not type-checked: those a passed
 * check of the same files remembered, else those the compiler resolves (no type check).
 */
export async function discoverWorldModules(path: string): Promise<WorldModules> {
  return rememberedWorldModules(path) ?? worldModulesOf(path, await worldSourceFiles(path));
}
