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
    // Tests wait for events, never for the clock: these limits only end a test that hangs, and
    // leave room for a machine whose two cores run several suites at once (load average 8 and more).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
