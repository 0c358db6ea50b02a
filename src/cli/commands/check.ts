import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chooseExecutor, type ExecutorChoice } from '../../agent/index.ts';
import { RngStreams, WorldNotFoundError } from '../../core/index.ts';
import { checkWorld, isWorldDefinition, type WorldDefinition } from '../../world/index.ts';
import { importWorldFile } from '../world-file-import.ts';
import { worldTypeProblems } from '../world-type-gate.ts';

/** Options of `grapevine check`. */
export interface CheckCommandOptions {
  json?: boolean;
}

/** What `check` learns from loading the file: the world's id, its problems, and its executor. */
interface WorldFindings {
  id?: string;
  problems: string[];
  executor?: ExecutorChoice;
}

/** The executor a run with default parameters gets, or a problem when the world insists on one it cannot have. */
function defaultExecutor(def: WorldDefinition): ExecutorChoice | string {
  try {
    const instance = def.create({
      params: def.params.parse({}),
      seed: 1,
      rng: new RngStreams(1),
      fallbacks: { fallbacks: 0 },
    });
    return chooseExecutor(instance.agents, { declared: instance.executor });
  } catch (err) {
    return (err as Error).message;
  }
}

async function worldProblems(path: string): Promise<WorldFindings> {
  let mod: Record<string, unknown>;
  try {
    mod = await importWorldFile(path);
  } catch (err) {
    return { problems: [`the file does not load: ${(err as Error).message}`] };
  }
  const def = isWorldDefinition(mod.world) ? mod.world : Object.values(mod).find(isWorldDefinition);
  if (!def) return { problems: ['the file exports no world (export const world = defineWorld({ ... }))'] };
  const problems = checkWorld(def);
  if (problems.length) return { id: `${def.id}@${def.version}`, problems };
  const executor = defaultExecutor(def);
  if (typeof executor === 'string') return { id: `${def.id}@${def.version}`, problems: [executor] };
  return { id: `${def.id}@${def.version}`, problems, executor };
}

/**
 * `grapevine check FILE`: type-checks a world file against grapevine's public types, then
 * loads it and validates the world definition and the instance its `create` builds with
 * default parameters, naming each problem. Exit 0 when sound, 2 otherwise.
 */
export async function checkCommand(file: string, opts: CheckCommandOptions): Promise<number> {
  const path = resolve(file);
  if (!existsSync(path))
    throw new WorldNotFoundError(`world file not found: ${path}`, { hint: 'check the path' });
  // a check that passed before (the same files, the same engine types) is not repeated
  const types = await worldTypeProblems(path);
  const world = await worldProblems(path);
  const ok = types.length === 0 && world.problems.length === 0;
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify({ file: path, world: world.id ?? null, executor: world.executor ?? null, types, problems: world.problems, ok })}\n`,
    );
    return ok ? 0 : 2;
  }
  for (const t of types) process.stdout.write(`${t}\n`);
  for (const p of world.problems) process.stdout.write(`${path}: world: ${p}\n`);
  if (ok) {
    process.stdout.write(`ok: ${path} defines ${world.id}\n`);
    if (world.executor) process.stdout.write(`executor ${world.executor.kind}: ${world.executor.reason}\n`);
    return 0;
  }
  const n = types.length + world.problems.length;
  process.stderr.write(`grapevine: ${n} problem${n === 1 ? '' : 's'} in ${path}\n`);
  return 2;
}
