/**
 * The rule that fixed the dev/test split, once: by document group (scans of one specimen stay
 * together), within each layout. A layout's groups are ordered by the sha256 of their name; the
 * first round(n/3) of them (at least one where a layout has two or more) are the test split, the
 * rest dev. A layout with a single group is dev only. Validation recomputes it, so a case added
 * later lands where the rule puts it, and an edited split is caught.
 */
import { createHash } from 'node:crypto';
import type { Split } from './layouts.js';

export function splitOf(cases: readonly { group: string; layout: string }[]): Map<string, Split> {
  const byLayout = new Map<string, Set<string>>();
  for (const c of cases) byLayout.set(c.layout, (byLayout.get(c.layout) ?? new Set()).add(c.group));
  const out = new Map<string, Split>();
  const key = (g: string): string => createHash('sha256').update(g).digest('hex');
  for (const groups of byLayout.values()) {
    const ordered = [...groups].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const n = ordered.length;
    const tests = n >= 2 ? Math.max(1, Math.floor(n / 3 + 0.5)) : 0;
    ordered.forEach((g, i) => out.set(g, i < tests ? 'test' : 'dev'));
  }
  return out;
}
