import type { WorldDefinition } from '../../world/index.ts';
import { describeParams } from '../../world/index.ts';
import { loadWorld } from '../load-world.ts';
import { builtinWorldIds } from '../world-catalog.ts';

/**
 * `grapevine worlds [FILE...]`: lists the built-in worlds (or the worlds of the given
 * files) with their parameters and defaults.
 */
export async function worldsCommand(
  files: readonly string[],
  opts: { json?: boolean; check?: boolean },
): Promise<number> {
  const refs = files.length ? files : builtinWorldIds();
  const defs: WorldDefinition[] = [];
  for (const ref of refs) defs.push((await loadWorld(ref, { check: opts.check })).def);
  const worlds = defs.map((w) => ({
    id: w.id,
    version: w.version,
    description: w.description,
    params: describeParams(w),
  }));
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(worlds)}\n`);
    return 0;
  }
  for (const w of worlds) {
    process.stdout.write(`${w.id} (v${w.version}): ${w.description}\n`);
    for (const p of w.params)
      process.stdout.write(
        `  ${p.name.padEnd(16)} ${String(p.type).padEnd(28)} default ${JSON.stringify(p.default)}  ${p.description}\n`,
      );
  }
  return 0;
}
