import { defineConfig } from 'vitest/config';

/**
 * Files that must run alone, after the rest: the database-outage suite (a throwaway PostgreSQL
 * cluster restarted, stopped and paused under load, three services beside it) and the hostile-
 * input suite (the whole service's memory and an innocent tenant's 15 s are measured). Beside
 * other files on two cores their timings would measure the neighbours.
 */
const ALONE = ['test/api/database-outage.test.ts', 'test/api/hostile-input.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'api',
          include: ['test/**/*.test.ts'],
          exclude: ALONE,
          // Two cores: two files at a time keeps PostgreSQL and the API processes responsive.
          maxWorkers: 2,
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ALONE,
          maxWorkers: 1,
          // The outage suite's scenario takes about 95 s on a quiet machine, 3-4 min on a busy one.
          testTimeout: 420_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
