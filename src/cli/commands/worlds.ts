import { describeParams } from '../../world/index.ts';
import { BUILTIN_WORLDS } from '../builtin-worlds.ts';

/** `grapevine worlds`: lists the built-in worlds with their parameters and defaults. */
export function worldsCommand(opts: { json?: boolean }): number {
  const worlds = [...BUILTIN_WORLDS.values()].map((w) => ({
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
