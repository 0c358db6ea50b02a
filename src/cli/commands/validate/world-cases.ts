import { resolve } from 'node:path';
import { ConfigError } from '../../../core/index.ts';
import { type ValidationCase, validationCaseProblems } from '../../../validate/index.ts';
import { type LoadWorldOptions, loadWorld } from '../../load-world.ts';
import { importWorldFile } from '../../world-file-import.ts';

const HINT =
  'export const validationCases = [{ id, model, setting, source, quick, world, params, reads, design, run, maxReplicates, quickReplicates }] (docs/VALIDATION.md, "Your own cases")';

/**
 * The validation cases a user's world file exports as `validationCases` (an array, or a
 * function returning one, possibly async), for `grapevine validate --world FILE`. The file is
 * loaded and checked as every command loads a world file; each case's shape and its design at
 * its own parameters are checked before any run, every problem named in one line.
 * `options.check: false` (`--no-check`) skips the type check.
 */
export async function worldFileCases(
  file: string,
  options: Pick<LoadWorldOptions, 'check'> = {},
): Promise<ValidationCase[]> {
  const loaded = await loadWorld(file, options);
  if (loaded.source.kind !== 'file')
    throw new ConfigError(`--world takes a world file; "${file}" is a built-in world`, {
      hint: 'give a path (./my-world.ts); the built-in cases run without --world',
    });
  const path = resolve(file);
  // the module loadWorld imported: Node returns the same instance
  const mod = await importWorldFile(path);
  const exported = mod.validationCases;
  if (exported === undefined)
    throw new ConfigError(`world file ${path} exports no validationCases`, { hint: HINT });
  let list: unknown;
  try {
    list = typeof exported === 'function' ? await exported() : exported;
  } catch (cause) {
    throw new ConfigError(`world file ${path}: validationCases() threw: ${(cause as Error).message}`, {
      cause,
      hint: 'fix the error in the file and retry',
    });
  }
  const problems = validationCaseProblems(list);
  if (problems.length) throw new ConfigError(`world file ${path}: ${problems.join('; ')}`, { hint: HINT });
  return list as ValidationCase[];
}
