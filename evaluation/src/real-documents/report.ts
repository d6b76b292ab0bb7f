/** The markdown tables and the per-case failure lines of a real-document run. */
import type { RealDocumentCase } from './manifest.js';
import { acceptedValues } from './manifest.js';
import { FIELDS, LAYOUTS, type Field, type Split } from './layouts.js';
import { scoreCase, summarise, type ReaderResult, type Summary, type Tally } from './score.js';

export type ReaderName = 'ours' | 'passporteye';
export type Results = Partial<Record<ReaderName, Map<string, ReaderResult>>>;

const pct = (right: number, scored: number): string => (scored === 0 ? '–' : `${right}/${scored} (${Math.round((100 * right) / scored)}%)`);

const FIELD_HEADS: Record<Field, string> = {
  fullName: 'name',
  documentNumber: 'number',
  dateOfBirth: 'birth',
  expiryDate: 'expiry',
  nationality: 'nationality',
};

function rows(label: string, tallies: Partial<Record<ReaderName, Tally>>, readers: readonly ReaderName[]): string[] {
  return readers.map((r) => {
    const t = tallies[r];
    if (!t) return `| ${label} | ${r} | – |`;
    const fields = FIELDS.map((f) => pct(t.fields[f].right, t.fields[f].scored));
    return `| ${label} | ${r} | ${t.cases} | **${pct(t.core.right, t.core.scored)}** | ${fields.join(' | ')} | ${t.unreadable} |`;
  });
}

/** One table of a split: overall, then each layout present; each reader a row. */
export function splitTable(split: Split | 'all', summaries: Partial<Record<ReaderName, Summary>>): string {
  const readers = (Object.keys(summaries) as ReaderName[]).sort();
  const head = [
    `| ${split} | reader | docs | number, birth and expiry all right | ${FIELDS.map((f) => FIELD_HEADS[f]).join(' | ')} | unreadable |`,
    `|---|---|---|---|${FIELDS.map(() => '---').join('|')}|---|`,
  ];
  const overall = Object.fromEntries(readers.map((r) => [r, summaries[r]!.overall]));
  const lines = [...head, ...rows('all', overall, readers)];
  for (const layout of LAYOUTS) {
    const per = Object.fromEntries(readers.flatMap((r) => (summaries[r]!.byLayout[layout] ? [[r, summaries[r]!.byLayout[layout]!]] : [])));
    if (Object.keys(per).length > 0) lines.push(...rows(layout, per, readers));
  }
  return lines.join('\n');
}

export function summariesOf(cases: readonly RealDocumentCase[], results: Results): Partial<Record<ReaderName, Summary>> {
  const out: Partial<Record<ReaderName, Summary>> = {};
  for (const [reader, map] of Object.entries(results) as [ReaderName, Map<string, ReaderResult>][]) {
    out[reader] = summarise(cases, map);
  }
  return out;
}

/** Symptoms of a wrong field, for sorting failures into classes by hand (never a verdict). */
export function symptom(c: RealDocumentCase, field: Field, read: string | null): string {
  if (read === null) return 'not read';
  if (field === 'dateOfBirth' || field === 'expiryDate') {
    const truths = acceptedValues(c, field);
    if (truths.some((t) => t.slice(2) === read.slice(2) && t.slice(0, 2) !== read.slice(0, 2))) return 'century wrong';
    const other = FIELDS.find((f) => f !== field && c.truth[f] === read);
    if (other) return `took the ${other}`;
  }
  return 'misread';
}

/** One line per wrong field of one reader on one case. */
export function failureLines(c: RealDocumentCase, r: ReaderResult): string[] {
  const s = scoreCase(c, r);
  const wrong = FIELDS.filter((f) => s.right[f] === false);
  if (wrong.length === 0) return [];
  const detail = r.error ? ` error: ${r.error}` : r.detail ? ` ${JSON.stringify(r.detail)}` : '';
  const head = `${c.id} [${c.layout}, ${c.capture}, ${c.images.front.widthPx}px]${r.unreadable ? ' UNREADABLE' : ''}${detail}`;
  return [
    head,
    ...wrong.map(
      (f) => `    ${f}: read ${JSON.stringify(r.fields[f])}, truth ${JSON.stringify(c.truth[f])} (${symptom(c, f, r.fields[f])})`,
    ),
  ];
}
