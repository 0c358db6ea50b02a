import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, type Json, LogFormatError, sha256Hex, WorldNotFoundError } from '../core/index.ts';
import type { LlmResponder } from '../llm-server/index.ts';
import {
  isWorldDefinition,
  type WorldDefinition,
  worldDefinitionProblems,
  worldInstanceProblems,
} from '../world/index.ts';
import { parseInputFlags, recordedInputResolver } from './recorded-input-files.ts';
import { builtinWorldIds, loadBuiltinWorld } from './world-catalog.ts';
import { importWorldFile as importModule } from './world-file-import.ts';
import { checkWorldModules, recordedWorldModules, type WorldModules } from './world-modules.ts';

/** A world and where it came from (recorded in the log header). */
export interface LoadedWorld {
  def: WorldDefinition;
  source: Record<string, Json>;
  /** A world file's `responders` export: its answers to its own prompts on the shipped local LLM server. */
  responders?: readonly LlmResponder[];
}

function looksLikePath(ref: string): boolean {
  return /[\\/]/.test(ref) || /\.(m|c)?(t|j)s$/.test(ref);
}

function readWorldFile(path: string): Buffer {
  if (!existsSync(path) || !statSync(path).isFile())
    throw new WorldNotFoundError(`world file not found: ${path}`, { hint: 'check the path' });
  return readFileSync(path);
}

/**
 * The local modules of the world file at `path`: those given (checked against the files
 * first), else those the type check (or, unchecked, the compiler's import resolution) finds.
 * A world with a type error stops here, before it runs.
 */
async function modulesFor(path: string, check: boolean, given?: WorldModules): Promise<WorldModules> {
  if (given) checkWorldModules(path, given);
  if (check) {
    const found = await (await import('./world-type-gate.ts')).requireWorldTypes(path);
    return given ?? found;
  }
  return given ?? (await import('./world-type-gate.ts')).discoverWorldModules(path);
}

/** The recorded source of a world file: its path, its sha256 and (when it has any) its local modules. */
function fileSource(path: string, bytes: Buffer, modules: WorldModules): Record<string, Json> {
  const source: Record<string, Json> = { kind: 'file', path, sha256: sha256Hex(bytes) };
  // a world of one file records no modules, so its header is as it always was
  if (Object.keys(modules).length) source.modules = modules;
  return source;
}

/** Imports a world file whose bytes (and local modules) the caller has already read and checked. */
async function importWorldFile(path: string, bytes: Buffer, modules: WorldModules): Promise<LoadedWorld> {
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(path);
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
  const problems = worldDefinitionProblems(def);
  if (problems.length)
    throw new ConfigError(`world file ${path}: ${problems.join('; ')}`, {
      hint: `grapevine check ${path} names each problem`,
    });
  return {
    def: checkingInstances(def, path),
    source: fileSource(path, bytes, modules),
    ...responderExport(mod, path),
  };
}

/** A world file's `responders` export, when it has one (each checked when a server starts). */
function responderExport(
  mod: Record<string, unknown>,
  path: string,
): { responders?: readonly LlmResponder[] } {
  if (mod.responders === undefined) return {};
  if (!Array.isArray(mod.responders))
    throw new ConfigError(`world file ${path}: the export "responders" is not an array`, {
      hint: 'export const responders = [{ name, respond(kit) { ... } }] (see docs/API.md), or drop the export',
    });
  return { responders: mod.responders as LlmResponder[] };
}

/** A user's world whose `create` result is checked, so that a missing policy is named, not a crash. */
function checkingInstances(def: WorldDefinition, ref: string): WorldDefinition {
  return {
    ...def,
    create(setup) {
      const instance = def.create(setup);
      const problems = worldInstanceProblems(instance, def);
      if (problems.length)
        throw new ConfigError(`world "${def.id}": ${problems.join('; ')}`, {
          hint: `grapevine check ${ref} names each problem`,
        });
      return instance;
    },
  };
}

/** Options of {@link loadWorld}. */
export interface LoadWorldOptions {
  /** Type-check a world file first (default true; `--no-check` turns it off). */
  check?: boolean;
  /**
   * The world file's local modules as a caller already found them (a sweep's worker threads
   * get the sweep command's): checked against the files instead of found again.
   */
  modules?: WorldModules;
}

/**
 * Loads a built-in world by id, or a user's world file (.ts or .js exporting `world`),
 * type-checked first unless `check` is false.
 */
export async function loadWorld(ref: string, opts: LoadWorldOptions = {}): Promise<LoadedWorld> {
  const builtin = looksLikePath(ref) ? undefined : await loadBuiltinWorld(ref);
  if (builtin) return { def: builtin, source: { kind: 'builtin' } };
  if (!looksLikePath(ref)) {
    throw new WorldNotFoundError(`unknown world "${ref}"`, {
      hint: `built-in worlds: ${builtinWorldIds().join(', ')}; or give a path to a world file (./my-world.ts)`,
    });
  }
  const path = resolve(ref);
  const bytes = readWorldFile(path);
  return importWorldFile(path, bytes, await modulesFor(path, opts.check ?? true, opts.modules));
}

/** The `world` field of a log header, checked for shape. */
interface HeaderWorld {
  id: string;
  version: string;
  source: { kind: string; path?: string; sha256?: string; modules?: unknown };
}

function headerWorld(header: Record<string, unknown>): HeaderWorld {
  const w = header.world as Record<string, unknown> | undefined;
  const src = (w?.source ?? { kind: 'builtin' }) as Record<string, unknown>;
  const ok =
    typeof w === 'object' &&
    w !== null &&
    typeof w.id === 'string' &&
    typeof w.version === 'string' &&
    typeof src === 'object' &&
    src !== null &&
    (src.kind === 'builtin' || (src.kind === 'file' && typeof src.sha256 === 'string'));
  if (!ok)
    throw new LogFormatError(
      'the log header names no valid world (world.id, world.version, world.source)',
      { line: 1, seq: 0 },
      { hint: 'the header was damaged or edited; restore the log from a copy' },
    );
  return w as unknown as HeaderWorld;
}

/** The flags of a log-reading command that name the files its run read (`--network-file`, `--input`). */
export interface InputFileFlags {
  networkFile?: string;
  /** `--input PARAM=FILE`, repeatable. */
  input?: string[];
}

/** {@link InputFileFlags} as {@link HeaderWorldOptions}. @throws UsageError for a malformed `--input`. */
export function inputFileOptions(
  flags: InputFileFlags = {},
): Pick<HeaderWorldOptions, 'networkFile' | 'inputs'> {
  return {
    ...(flags.networkFile === undefined ? {} : { networkFile: flags.networkFile }),
    ...(flags.input?.length ? { inputs: parseInputFlags(flags.input) } : {}),
  };
}

/** True when the flags name a file. */
export function namesInputFile(flags: InputFileFlags = {}): boolean {
  return flags.networkFile !== undefined || (flags.input?.length ?? 0) > 0;
}

/** Options of {@link loadWorldFromHeader}. */
export interface HeaderWorldOptions {
  /** A world file the user named on the command line (`--world FILE`). */
  worldFile?: string;
  /** The log's path: files its run read by a relative path are also looked for beside it. */
  logPath?: string;
  /** `--network-file FILE`: read this network file (it must have the log's recorded sha256). */
  networkFile?: string;
  /** `--input PARAM=FILE`: read these files for the run's parameters (each must have the recorded sha256). */
  inputs?: Record<string, string>;
  /** Type-check a named world file first (default true; `--no-check` turns it off). */
  check?: boolean;
}

/**
 * Loads the world a log header names. A built-in world is loaded by id. A world file is
 * never imported because a log names it: the user must name it (`--world FILE`), and its
 * sha256 is checked against the header BEFORE it is imported, so a crafted or edited log
 * cannot make grapevine run code.
 */
export async function loadWorldFromHeader(
  header: Record<string, unknown>,
  opts: HeaderWorldOptions = {},
): Promise<LoadedWorld> {
  const world = headerWorld(header);
  const loaded =
    world.source.kind === 'file' ? await loadNamedFile(world, opts) : await builtinOf(world, opts);
  // A world that migrates older parameters reruns its older logs (WorldDefinition.migrateParams).
  const versionOk = loaded.def.version === world.version || Boolean(loaded.def.migrateParams);
  if (!versionOk || loaded.def.id !== world.id) {
    throw new WorldNotFoundError(
      `the log was written by ${world.id}@${world.version}, this is ${loaded.def.id}@${loaded.def.version}`,
      { hint: 'replay with the grapevine version (and world file) that wrote the log' },
    );
  }
  const named = (header.params as Record<string, unknown> | undefined)?.networkFile;
  if (opts.networkFile !== undefined && (typeof named !== 'string' || named === ''))
    throw new ConfigError(`--network-file ${opts.networkFile}: the log's run read no network file`, {
      hint: 'drop --network-file',
    });
  const params = (header.params ?? {}) as Record<string, unknown>;
  for (const param of Object.keys(opts.inputs ?? {}))
    if (typeof params[param] !== 'string' || params[param] === '')
      throw new ConfigError(`--input ${param}=...: the log's run names no ${param} file`, {
        hint: `drop --input ${param}=...`,
      });
  const resolvePath = recordedInputResolver({
    header,
    logPath: opts.logPath,
    networkFile: opts.networkFile,
    inputs: opts.inputs,
  });
  const def = loaded.def;
  return {
    ...loaded,
    def: {
      ...def,
      create: (setup) => def.create({ ...setup, resolvePath: setup.resolvePath ?? resolvePath }),
    },
  };
}

async function builtinOf(world: HeaderWorld, opts: HeaderWorldOptions): Promise<LoadedWorld> {
  const def = await loadBuiltinWorld(world.id);
  if (!def)
    throw new WorldNotFoundError(`the log names the world "${world.id}", which is not built in`, {
      hint: `built-in worlds: ${builtinWorldIds().join(', ')}`,
    });
  if (opts.worldFile)
    throw new WorldNotFoundError(
      `the log was written by the built-in world ${world.id}: --world is not needed`,
      {
        hint: 'drop --world',
      },
    );
  return { def, source: { kind: 'builtin' } };
}

async function loadNamedFile(world: HeaderWorld, opts: HeaderWorldOptions): Promise<LoadedWorld> {
  const recorded = world.source.path ?? '(unnamed file)';
  if (!opts.worldFile)
    throw new WorldNotFoundError(
      `the log was written by the world file ${recorded}; grapevine never runs a file because a log names it`,
      { hint: `name the file yourself: --world ${recorded} (its sha256 must be ${world.source.sha256})` },
    );
  const path = resolve(opts.worldFile);
  const bytes = readWorldFile(path);
  const sha = sha256Hex(bytes);
  if (sha !== world.source.sha256)
    throw new WorldNotFoundError(
      `${path} is not the world file that wrote the log (sha256 ${sha.slice(0, 12)}…, the log has ${world.source.sha256?.slice(0, 12)}…)`,
      { hint: 'give the world file exactly as it was for this run' },
    );
  // a header without modules records a world of one file (as logs did before they were recorded)
  const modules = world.source.modules === undefined ? {} : recordedWorldModules(world.source.modules);
  checkWorldModules(path, modules);
  if (opts.check ?? true) await (await import('./world-type-gate.ts')).requireWorldTypes(path);
  const loaded = await importWorldFile(path, bytes, modules);
  // The recorded source stays as written, so that a rerun reproduces the header.
  return { ...loaded, source: world.source as unknown as Record<string, Json> };
}
