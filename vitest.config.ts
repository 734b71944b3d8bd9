import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The CI machine is small and shared: give slow integration/browser tests room, never assert on time.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker (cores − 1): the files then ran one after
    // another (156 s for 131 s of tests). Two workers keep both cores busy.
    maxWorkers: 2,
    // Scratch folders made by a test file are removed after it (tests/support/scratch.ts).
    setupFiles: ['tests/support/remove-scratch.ts'],
  },
});
