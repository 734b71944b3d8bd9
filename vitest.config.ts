import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The CI machine is small and shared: give slow integration/browser tests room, never assert on time.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Scratch folders made by a test file are removed after it (tests/support/scratch.ts).
    setupFiles: ['tests/support/remove-scratch.ts'],
  },
});
