/**
 * Scores readers' results on the real-document set: per field, per layout and overall, on
 * legible documents only, and "number, birth date and expiry all right" (the issue's figure).
 * A field whose truth is null (a licence prints no nationality) is not scored.
 */
import { acceptedValues, type RealDocumentCase } from './manifest.js';
import { CORE_FIELDS, FIELDS, type Field, type Layout, type Split } from './layouts.js';
import { matches } from './normalise.js';

export type ReadFields = Record<Field, string | null>;

/** What one reader gave for one case. */
export interface ReaderResult {
  id: string;
  fields: ReadFields;
  /** Ours: the verdict carried `document_unreadable`. PassportEye: no valid zone found. */
  unreadable: boolean;
  /** Set when the reader failed outright (an exception, a crash); fields are then all null. */
  error?: string;
  ms: number;
  /** Reader-specific detail kept for the failure analysis (our verdict and reasons, PassportEye's zone type and score). */
  detail?: Record<string, unknown>;
}

export interface FieldTally {
  right: number;
  scored: number;
}

export interface Tally {
  cases: number;
  fields: Record<Field, FieldTally>;
  core: FieldTally;
  unreadable: number;
}

export interface CaseScore {
  id: string;
  layout: Layout;
  split: Split;
  right: Record<Field, boolean | null>;
  coreRight: boolean;
}

export function scoreCase(c: RealDocumentCase, r: ReaderResult): CaseScore {
  const right = {} as Record<Field, boolean | null>;
  for (const f of FIELDS) {
    const accepted = acceptedValues(c, f);
    right[f] = accepted.length === 0 ? null : matches(f, r.fields[f], accepted);
  }
  return { id: c.id, layout: c.layout, split: c.split, right, coreRight: CORE_FIELDS.every((f) => right[f] === true) };
}

function emptyTally(): Tally {
  const fields = {} as Record<Field, FieldTally>;
  for (const f of FIELDS) fields[f] = { right: 0, scored: 0 };
  return { cases: 0, fields, core: { right: 0, scored: 0 }, unreadable: 0 };
}

function add(t: Tally, s: CaseScore, unreadable: boolean): void {
  t.cases++;
  for (const f of FIELDS) {
    const r = s.right[f];
    if (r === null) continue;
    t.fields[f].scored++;
    if (r) t.fields[f].right++;
  }
  t.core.scored++;
  if (s.coreRight) t.core.right++;
  if (unreadable) t.unreadable++;
}

export interface Summary {
  overall: Tally;
  byLayout: Partial<Record<Layout, Tally>>;
}

/** Tallies a reader's results over the legible cases given; a case without a result is an error. */
export function summarise(cases: readonly RealDocumentCase[], results: ReadonlyMap<string, ReaderResult>): Summary {
  const summary: Summary = { overall: emptyTally(), byLayout: {} };
  for (const c of cases) {
    if (!c.legible) continue;
    const r = results.get(c.id);
    if (!r) throw new Error(`no result for ${c.id}`);
    const s = scoreCase(c, r);
    add(summary.overall, s, r.unreadable);
    add((summary.byLayout[c.layout] ??= emptyTally()), s, r.unreadable);
  }
  return summary;
}
