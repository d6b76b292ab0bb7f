import type { PrintedReading } from '../read/printed/printed-proposals.js';
import { checksHeld, type ZoneReading } from '../read/zone/zone-fields.js';
import { FIELD_NAMES, fromReading, type Candidate, type FieldName, type Source } from './candidates.js';
import { withCenturiesFromDocument } from './centuries.js';
import { FUSE_TUNING } from './fuse-tuning.js';
import { fieldKey, misreadingOf } from './field-keys.js';
import { expiryAgreedWithoutIssue, printedExpiryInDoubt } from './printed-expiry.js';

/** One field as the document supports it. */
export interface FusedField {
  /** The value reported, or null where no reading supports one enough. */
  value: string | null;
  /** How sure the readings that agree on it make it (a check digit holding: 0.99). */
  confidence: number;
  /** A check digit holds for it. */
  checked: boolean;
  /** Readings that read it. */
  sources: Source[];
}

/** Everything read of a document, fused: the evidence the scores are computed from. */
export interface DocumentEvidence {
  fields: Record<FieldName, FusedField>;
  /** Fields on which the zone (its check digit holding) and a sure printed reading disagree: a person looks. */
  disagreements: FieldName[];
  /** The printed readings disagree on whether the document has expired: no expiry is taken. */
  expiryInDoubt: boolean;
  /** The best zone read (most checks holding), or null. */
  zone: ZoneReading | null;
  /** Every printed reading taken, the surest first. */
  printed: PrintedReading[];
}

export interface Readings {
  zones: readonly { side: 'front' | 'back'; reading: string; zone: ZoneReading }[];
  printed: readonly { side: 'front' | 'back'; reading: string; page: PrintedReading }[];
}

/**
 * The document's fields from every reading taken: for each field its candidates are grouped by
 * value (as its kind compares: dates as dates, numbers with look-alikes folded, names as a zone
 * writes them), each group as sure as its readings together (one reading's confidence, two
 * readings' combined: the chance both misread alike is small), and a group whose check digit holds
 * chosen first. A field is reported where a check digit holds or the group is sure enough
 * (`FUSE_TUNING.reportLine`). Centuries of two-digit years come from the document's own dates.
 */
export function fuse(readings: Readings, today: string): DocumentEvidence {
  const candidates = withCenturiesFromDocument(
    [
      ...readings.zones.flatMap((z) => fromReading({ kind: 'zone', side: z.side, reading: z.reading }, z.zone.proposals)),
      ...readings.printed.flatMap((p) => fromReading({ kind: 'printed', side: p.side, reading: p.reading }, p.page.proposals)),
    ],
    today,
  );
  const fields = Object.fromEntries(
    FIELD_NAMES.map((f) => [f, fuseField(f, candidates.filter((c) => c.field === f))]),
  ) as Record<FieldName, FusedField>;

  const pages = readings.printed.map((p) => p.page);
  let expiryInDoubt = false;
  if (!fields.expiryDate.checked) {
    expiryInDoubt = printedExpiryInDoubt(
      pages.map((p) => p.dates),
      today,
    );
    if (expiryInDoubt) fields.expiryDate = { ...fields.expiryDate, value: null };
    else if (fields.expiryDate.value === null) {
      const agreed = expiryAgreedWithoutIssue(pages.map((p) => p.dates));
      if (agreed) fields.expiryDate = { value: agreed, confidence: FUSE_TUNING.reportLine, checked: false, sources: [] };
    }
  }
  const zone = [...readings.zones].sort((a, b) => zoneRank(b.zone) - zoneRank(a.zone))[0]?.zone ?? null;
  return {
    fields,
    disagreements: disagreements(fields, candidates),
    expiryInDoubt,
    zone,
    printed: [...pages].sort((a, b) => b.confidence - a.confidence),
  };
}

const NOTHING: FusedField = { value: null, confidence: 0, checked: false, sources: [] };

interface Group {
  key: string;
  candidates: Candidate[];
  checked: boolean;
  confidence: number;
}

function fuseField(field: FieldName, candidates: readonly Candidate[]): FusedField {
  if (!candidates.length) return NOTHING;
  const names = field === 'surname' || field === 'givenNames';
  const groups = names ? withZoneNamesInFuller(groupByKey(field, candidates)) : groupByKey(field, candidates);
  // A name read a few letters apart elsewhere is the same name misread there: it lends support
  // in choosing between groups, never a check.
  const support = (g: Group) =>
    g.confidence +
    (names
      ? FUSE_TUNING.nearNameSupport * Math.max(0, ...groups.filter((o) => o !== g && misreadingOf(o.key, g.key)).map((o) => o.confidence))
      : 0);
  const best = [...groups].sort(
    (a, b) => Number(b.checked) - Number(a.checked) || support(b) - support(a) || b.candidates.length - a.candidates.length,
  )[0]!;
  const reported = best.checked || best.confidence >= FUSE_TUNING.reportLine;
  return {
    value: reported ? spellingOf(best) : null,
    confidence: best.confidence,
    checked: best.checked,
    sources: best.candidates.map((c) => c.source),
  };
}

function groupByKey(field: FieldName, candidates: readonly Candidate[]): Group[] {
  const byKey = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = fieldKey(field, c.value);
    if (!key) continue;
    byKey.set(key, [...(byKey.get(key) ?? []), c]);
  }
  return [...byKey].map(([key, cs]) => ({ key, candidates: cs, checked: cs.some((c) => c.checked === true), confidence: combined(cs) }));
}

/**
 * A zone's name that a sure printed reading shows with more after it (a zone field cut at its end,
 * a double surname the zone carries in part): the same name, the print's the whole of it. The
 * zone's readings join the printed group, which reports the print's spelling.
 */
function withZoneNamesInFuller(groups: Group[]): Group[] {
  const fuller = (g: Group) =>
    groups.find(
      (o) =>
        o !== g &&
        o.key.length > g.key.length &&
        o.key.startsWith(g.key) &&
        o.candidates.some((c) => c.source.kind === 'printed' && c.confidence >= FUSE_TUNING.reportLine),
    );
  const merged = new Map<Group, Group>();
  for (const g of groups) {
    const into = g.candidates.every((c) => c.source.kind === 'zone') ? fuller(g) : undefined;
    if (into) merged.set(g, into);
  }
  return groups
    .filter((g) => !merged.has(g))
    .map((g) => {
      const joined = [...merged].filter(([, into]) => into === g).flatMap(([from]) => from.candidates);
      if (!joined.length) return g;
      const candidates = [...g.candidates, ...joined];
      return { ...g, candidates, confidence: combined(candidates) };
    });
}

/**
 * The confidence of readings that agree: each distinct reading counted once (its surest proposal),
 * combined as independent chances of a misreading (1 - product of each one's doubt). A check
 * digit that holds makes it certain; without one, no reading alone is (`mostUnchecked`).
 */
function combined(cs: readonly Candidate[]): number {
  const perReading = new Map<string, number>();
  for (const c of cs) {
    const id = `${c.source.kind}/${c.source.side}/${c.source.reading}`;
    const own = c.checked === true ? c.confidence : Math.min(c.confidence, FUSE_TUNING.mostUnchecked);
    perReading.set(id, Math.max(perReading.get(id) ?? 0, own));
  }
  const doubt = [...perReading.values()].reduce((d, c) => d * (1 - c), 1);
  return Math.round((1 - doubt) * 1000) / 1000;
}

/** The value a group reports: as printed where a printed reading read it (it keeps the print's letters), else as the zone reads it. */
function spellingOf(g: Group): string {
  const printed = g.candidates.filter((c) => c.source.kind === 'printed');
  const from = printed.length && g.candidates.every((c) => c.checked !== true) ? printed : g.candidates;
  return [...from].sort((a, b) => b.confidence - a.confidence)[0]!.value;
}

/**
 * Fields read in the zone with their check digit holding, and differently by a printed reading sure
 * of its own: the document's two zones disagree (a forged or altered print, or a specimen misprinted).
 */
function disagreements(fields: Record<FieldName, FusedField>, candidates: readonly Candidate[]): FieldName[] {
  const checkedFields: FieldName[] = ['documentNumber', 'dateOfBirth', 'expiryDate'];
  return checkedFields.filter((f) => {
    const fused = fields[f];
    if (!fused.checked || fused.value === null) return false;
    const key = fieldKey(f, fused.value);
    const printed = groupByKey(
      f,
      candidates.filter((c) => c.field === f && c.source.kind === 'printed'),
    );
    return printed.some((g) => g.key !== key && g.confidence >= FUSE_TUNING.sureLine);
  });
}

/** How a zone ranks against another of the same document: its checks holding, then its repairs fewest. */
const zoneRank = (z: ZoneReading) => checksHeld(z) - z.repairs / 100;
