import { defineConfig } from 'vitest/config';

export const config = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-fresh.ts'],
    setupFiles: ['test/support/install-worlds.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});

// vitest reads the default export of its config file; this is the one default export in the project.
export default config;
