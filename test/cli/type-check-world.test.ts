// The type check of a world file reports the problems of the world's own files, and not
// those of the engine's TypeScript sources a world inside a checkout imports (the project's
// own tsc checks those). In this process the engine runs from src/, so a world's `grapevine`
// resolves to src/index.ts itself: the case the filter is for.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportsProblemsOf, typeCheckWorldSources } from '../../src/cli/type-check-world.ts';
import { tempDir } from '../support/temp-dir.ts';

const HELPER = `import { defineAgentMachine } from '${resolve('src/index.ts')}';
export const agent = defineAgentMachine({ id: 'a', regions: { r: { initial: 's', states: { s: {} } } } });
export const size: number = 'three';
`;

const MAIN = `import { defineWorld, z } from 'grapevine';
import { agent, size } from './lib/helper.ts';
export const world = defineWorld({
  id: 'typed',
  version: '1.0.0',
  description: 'one error here, one in the helper',
  params: z.object({ n: z.number().default(3) }),
  create: ({ params }) => ({
    size: params.n + size,
    agents: agent,
    turnPolicy: 'simultaneous',
    policy: (ctx) => {
      ctx.emit(ctx.params.m);
    },
  }),
});
`;

describe('the files whose problems a world check reports', () => {
  it("names the world's files, declarations and libraries, and not the engine's sources", () => {
    const dir = tempDir('type-check-files');
    expect(reportsProblemsOf(join(dir, 'world.ts'))).toBe(true);
    expect(reportsProblemsOf(join(dir, 'lib', 'helper.js'))).toBe(true);
    expect(reportsProblemsOf(resolve('worlds/opinion/index.ts'))).toBe(true);
    expect(reportsProblemsOf(resolve('node_modules/zod/v4/index.d.ts'))).toBe(true);
    expect(reportsProblemsOf(join(dir, 'node_modules', 'some-package', 'index.ts'))).toBe(true);
    expect(reportsProblemsOf(resolve('dist/src/index.d.ts'))).toBe(true);
    expect(reportsProblemsOf(resolve('src/index.ts'))).toBe(false);
    expect(reportsProblemsOf(resolve('src/core/rng.ts'))).toBe(false);
  });

  it("still finds every problem of the world's own files, against the engine's sources", async () => {
    const dir = tempDir('type-check-world');
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'helper.ts'), HELPER);
    writeFileSync(join(dir, 'main.ts'), MAIN);
    const { problems, sources } = await typeCheckWorldSources(join(dir, 'main.ts'));
    expect(sources.sort()).toEqual([join(dir, 'lib', 'helper.ts'), join(dir, 'main.ts')]);
    expect(problems, problems.join('\n')).toHaveLength(2);
    expect(problems[0]).toMatch(
      /lib\/helper\.ts:3:14: error TS2322: Type 'string' is not assignable to type 'number'/,
    );
    expect(problems[1]).toMatch(/main\.ts:13:27: error TS2339: Property 'm' does not exist on type/);
  }, 120_000);
});
