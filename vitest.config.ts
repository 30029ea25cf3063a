import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'console/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-response-check.ts'],
    pool: 'forks',
    // One test file per core (vitest's default leaves one core idle), each worker running its files
    // one after another without reloading the modules they share: every file still opens its own
    // database and application.
    maxWorkers: availableParallelism(),
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
