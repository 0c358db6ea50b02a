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
    // machine, so the whole suite ran file after file. Most slow files wait on a CLI child
    // process (test/cli/run-cli.ts) while their worker idles: one worker per core, plus one,
    // keeps the cores busy.
    maxWorkers: availableParallelism() + 1,
  },
});

// vitest reads the default export of its config file; this is the one default export in the project.
export default config;
