import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export const config = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-fresh.ts'],
    setupFiles: ['test/support/install-worlds.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default in run mode is one worker per core minus one: ONE worker on a 2-core
    // machine, so the whole suite ran file after file. One worker per core: a third worker
    // (cores + 1, tried to fill the time files wait on CLI children) was measured slower on
    // 2 cores, because the suite is CPU-bound (13 CPU-minutes): 399 s vitest span and 716 s
    // summed file time with 3 workers against 376 s and 468 s with 2, same 1,336 tests.
    maxWorkers: availableParallelism(),
  },
});

// vitest reads the default export of its config file; this is the one default export in the project.
export default config;
