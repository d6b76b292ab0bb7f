import type { TestOptions } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test is skipped when it is: `npm test` prints it beside the count (scripts/test-all.mjs). */
    skipReason?: string;
  }
}

/**
 * Options of a suite or test that runs only when `condition` holds: `describe(name, onlyIf(c,
 * 'why not'), fn)`. The reason travels in the test's metadata to the JSON report, where `npm test`
 * counts and explains every skip; a skip is never silent.
 */
export function onlyIf(condition: boolean, reason: string): TestOptions {
  return { skip: !condition, meta: { skipReason: reason } };
}
