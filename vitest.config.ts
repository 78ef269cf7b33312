import { defineConfig } from 'vitest/config';

// Tests never need ../shared, the network, Lean or Isabelle: the few that use
// ../shared skip with a printed reason when it is absent.

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // each run gets its own TMPDIR, removed at the end (test/global-setup.ts)
    globalSetup: ['test/global-setup.ts'],
  },
});
