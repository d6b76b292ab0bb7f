import type { PrintedReading } from '../read/printed/printed-proposals.js';
import { checksHeld, type ZoneReading } from '../read/zone/zone-fields.js';
import { FIELD_NAMES, fromReading, type Candidate, type FieldName, type Source } from './candidates.js';
import { withCenturiesFromDocument } from './centuries.js';
import { FUSE_TUNING } from './fuse-tuning.js';
import { fieldKey, lettersLostAtEnd, misreadingOf } from './field-keys.js';
import { expiryAgreedWithoutIssue, printedExpiryInDoubt } from './printed-expiry.js';
import { zoneNamesInPrint } from './zone-names-in-print.js';

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
  /** Another value was read surely enough to be reported too: the readings disagree on this field. */
  contested: boolean;
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
  const printedPages = readings.printed.map((p) => ({
    source: { kind: 'printed' as const, side: p.side, reading: p.reading },
    text: p.page.text,
    confidence: p.page.confidence,
  }));
  const read = [
    ...readings.zones.flatMap((z) => fromReading({ kind: 'zone', side: z.side, reading: z.reading }, z.zone.proposals)),
    ...printedPages.flatMap((p, i) => fromReading(p.source, readings.printed[i]!.page.proposals)),
  ];
  const candidates = withCenturiesFromDocument([...read, ...zoneNamesInPrint(read, printedPages)], today);
  const fields = Object.fromEntries(
    FIELD_NAMES.map((f) => [
      f,
      fuseField(
        f,
        candidates.filter((c) => c.field === f),
      ),
    ]),
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
      if (agreed) fields.expiryDate = { value: agreed, confidence: FUSE_TUNING.reportLine, checked: false, sources: [], contested: false };
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

const NOTHING: FusedField = { value: null, confidence: 0, checked: false, sources: [], contested: false };

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
  // A name read a few letters apart elsewhere is the same name misread there: it lends support in
  // choosing between groups, never a check. Two kinds of reading are surer than the other:
  // - a print read surely, against a zone a few letters off it: the zone's name field has no check
  //   digit, and its recogniser turns fillers and strokes into letters (OLJIVIA for OLIVIA);
  // - a reading that keeps letters another lost at an end (to a glare spot, the card's edge):
  //   letters are lost far more often than invented.
  // Either way the one takes the other's support wholly, and gives it none.
  const surePrint = (g: Group) => g.candidates.some((c) => c.source.kind === 'printed' && c.confidence >= FUSE_TUNING.reportLine);
  const onlyZone = (g: Group) => g.candidates.every((c) => c.source.kind === 'zone');
  const outranks = (g: Group, o: Group) => (surePrint(g) && onlyZone(o) && misreadingOf(g.key, o.key)) || lettersLostAtEnd(g.key, o.key);
  const support = (g: Group) => {
    if (!names) return g.confidence;
    const others = groups.filter((o) => o !== g);
    const yielded = others.filter((o) => outranks(g, o)).map((o) => o.confidence);
    const near = others.filter((o) => misreadingOf(o.key, g.key) && !outranks(o, g) && !outranks(g, o)).map((o) => o.confidence);
    return g.confidence + Math.max(0, ...yielded) + FUSE_TUNING.nearNameSupport * Math.max(0, ...near);
  };
  const best = [...groups].sort(
    (a, b) => Number(b.checked) - Number(a.checked) || support(b) - support(a) || b.candidates.length - a.candidates.length,
  )[0]!;
  const reported = best.checked || best.confidence >= FUSE_TUNING.reportLine;
  return {
    value: reported ? spellingOf(best) : null,
    confidence: best.confidence,
    checked: best.checked,
    sources: best.candidates.map((c) => c.source),
    contested: groups.some((g) => g !== best && g.confidence >= FUSE_TUNING.reportLine),
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

/**
 * The value a group reports: as printed where a printed reading read it (it keeps the print's
 * letters) and no check digit holds for the zone's, or where the zone's held only once look-alikes
 * were swapped (a guess its check digit allows; the print shows which characters the document
 * prints); else as the zone reads it.
 */
function spellingOf(g: Group): string {
  const printed = g.candidates.filter((c) => c.source.kind === 'printed');
  const zoneSure = g.candidates.some((c) => c.checked === true && !c.repaired);
  const from = printed.length && !zoneSure ? printed : g.candidates;
  return [...from].sort(
    (a, b) => Number(b.checked === true && !b.repaired) - Number(a.checked === true && !a.repaired) || b.confidence - a.confidence,
  )[0]!.value;
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
