import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Packing builds, and the scratch apps install from the registry's cache: minutes, not seconds.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
