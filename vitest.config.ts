import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test directories whose files run each in a fresh worker (vitest's `isolate: true`). Every
 * other file shares its worker's module cache with the files that worker ran before: the
 * engine's ~400 modules are evaluated once per worker, not once per file. Measured on the 41
 * files of the lower floors (same minute, loaded machine): 29 CPU-s isolated-off against
 * 74 CPU-s isolated (import phase 38 s against 115 s; sys 4.9 s against 16.5 s, a process
 * start per file). A directory goes here only if its tests leak global state between files.
 */
const ISOLATED: string[] = [];

export const config = defineConfig({
  test: {
    globalSetup: ['test/support/build-fresh.ts', 'test/support/shared-type-check-cache.ts'],
    setupFiles: ['test/support/install-worlds.ts', 'test/support/remove-temp-dirs.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default in run mode is one worker per core minus one: ONE worker on a 2-core
    // machine, so the whole suite ran file after file. One worker per core: a third worker
    // (cores + 1, tried to fill the time files wait on CLI children) was measured slower on
    // 2 cores, because the suite is CPU-bound (13 CPU-minutes): 399 s vitest span and 716 s
    // summed file time with 3 workers against 376 s and 468 s with 2, same 1,336 tests.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ISOLATED.map((dir) => `${dir}/**`),
          isolate: false,
        },
      },
      ...(ISOLATED.length === 0
        ? []
        : [
            {
              extends: true,
              test: {
                name: 'isolated',
                include: ISOLATED.map((dir) => `${dir}/**/*.test.ts`),
                isolate: true,
              },
            },
          ]),
    ],
  },
});

// vitest reads the default export of its config file; this is the one default export in the project.
export default config;
