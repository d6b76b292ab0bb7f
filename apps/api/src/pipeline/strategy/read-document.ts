import type { DocumentType } from '@service/contract';
import { fuse, type DocumentEvidence, type Readings } from '../evidence/fuse.js';
import type { LocatedSide } from '../locate/located-side.js';
import type { OcrEngine } from '../read/ocr/ocr.js';
import { PrintedPages, type PageKind, type PageWay } from '../read/printed/printed-pages.js';
import { printedProposals } from '../read/printed/printed-proposals.js';
import { isComplete, readZone } from '../read/zone/read-zone.js';
import { zoneInText } from '../read/zone/zone-lines.js';
import { FUSE_TUNING } from '../evidence/fuse-tuning.js';

/** What the reading strategy needs: the engine, the located sides, and what the request says of the document. */
export interface DocumentToRead {
  ocr: OcrEngine;
  front: LocatedSide;
  back: LocatedSide | null;
  documentType: DocumentType | null;
  /** Steers the order of printed dates (month first in the US). */
  country: string | null;
  now: Date;
  /** Alone on the machine: pages are read ahead on idle cores (`PrintedPages`). */
  readAhead: boolean;
  /** The document's photo is itself fine (no blur, darkness, glare): worth squaring up and reading again. */
  photoUsable: Promise<boolean>;
  timed: { zone: <T>(work: () => Promise<T>) => Promise<T>; ocr: <T>(work: () => Promise<T>) => Promise<T> };
  /**
   * Whether the user's claim agrees with the evidence read so far. It may make the strategy read
   * on (a mismatch is consequential: every reading is taken before one is concluded), never choose
   * a value: the fusion sees the readings alone. Absent: no claim.
   */
  claimAgrees?: (e: DocumentEvidence) => boolean;
}

/** The evidence, and whether a zone was seen on the document at all (read or not). */
export interface DocumentRead {
  evidence: DocumentEvidence;
  zoneSeen: boolean;
}

/** The printed pages read after the zone, in order, each only while the fields are not settled. */
const PRINTED_STEPS: readonly (readonly [PageKind, PageWay])[] = [
  ['side', 'inked'],
  ['side', 'grey'],
  ['squared', 'inked'],
  ['squared', 'grey'],
  ['block', 'inked'],
  ['block', 'grey'],
];

/**
 * Which readings a document gets, and when they stop. The zone first, on the side where the
 * document type keeps it (a licence's printed page first: it seldom has a zone); a zone whose
 * every check holds and whose name reads cleanly settles the document. Otherwise the front's
 * printed text, page after page (`PRINTED_STEPS`), then the back's, until the fields are settled
 * (`settled`) and the name either agrees with the claim or is confirmed by readings that agree
 * (`nameConfirmed`): another person's name read twice needs no third reading.
 */
export async function readDocument(d: DocumentToRead): Promise<DocumentRead> {
  const today = d.now.toISOString().slice(0, 10);
  const readings: { zones: Readings['zones'][number][]; printed: Readings['printed'][number][] } = { zones: [], printed: [] };
  const evidence = () => fuse(readings, today);
  const pages = new PrintedPages(d.ocr, d.front, { readAhead: d.readAhead, timed: d.timed.ocr });
  const backPages = d.back && new PrintedPages(d.ocr, d.back, { readAhead: d.readAhead, timed: d.timed.ocr });
  const taken = new Set<string>();
  const readPage = async (kind: PageKind, way: PageWay, on: PrintedPages = pages, side: 'front' | 'back' = 'front') => {
    const reading = `${kind}/${way}`;
    if (taken.has(`${side}/${reading}`)) return;
    taken.add(`${side}/${reading}`);
    const text = await on.read(kind, way);
    if (!text) return;
    readings.printed.push({ side, reading, page: printedProposals(text, d.now, d.country) });
    // A zone its own reader did not read whole may show in a page's text (the zone read as print):
    // its lines there are read as a zone, field by field with their check digits.
    if (!readings.zones.some((z) => isComplete(z.zone))) {
      const zone = zoneInText(text.text, d.now);
      if (zone) readings.zones.push({ side, reading, zone });
    }
  };

  const claimAgrees = d.claimAgrees ?? (() => true);
  const done = (e: DocumentEvidence) => settled(e, today) && (claimAgrees(e) || nameConfirmed(e));
  if (d.documentType === 'drivers_license') {
    for (const way of ['inked', 'grey'] as const) {
      await readPage('side', way);
      if (done(evidence())) return { evidence: evidence(), zoneSeen: false };
    }
  }
  let zoneSeen = false;
  for (const side of zoneSides(d.documentType, d.front, d.back)) {
    const missed = d.readAhead && side === d.front ? () => pages.prefetch() : undefined;
    const look = await d.timed.zone(() => readZone(d.ocr, side, { now: d.now, missed }));
    zoneSeen ||= look.seen;
    if (look.zone) readings.zones.push({ side: side.which, reading: 'zone', zone: look.zone });
    if (look.zone && isComplete(look.zone)) break;
  }
  // A zone held only once look-alikes were swapped is read on: the print shows which characters the document prints.
  // A zone whose name is reported (sure, or with one lesser sign) and agrees with the claim needs
  // no print either: the claim bears out what the zone read.
  const zoneSettles = (e: DocumentEvidence) =>
    e.zone !== null && isComplete(e.zone) && e.zone.repairs === 0 && e.fields.surname.value !== null && done(e);
  if (zoneSettles(evidence())) return { evidence: evidence(), zoneSeen };
  for (const [kind, way] of PRINTED_STEPS) {
    if (kind !== 'side' && !(await d.photoUsable)) break;
    await readPage(kind, way);
    if (done(evidence())) return { evidence: evidence(), zoneSeen };
  }
  // The back's print last (the old French card keeps its validity there).
  for (const way of ['inked', 'grey'] as const) {
    if (!backPages || done(evidence())) break;
    await readPage('side', way, backPages, 'back');
  }
  return { evidence: evidence(), zoneSeen };
}

/**
 * The name confirmed by readings that agree: its surname past `FUSE_TUNING.confirmLine` (two
 * readings, or a sure zone and print), and its given names not read two ways surely (a zone's
 * garbled under a glare spot, the print's whole: a reading more decides).
 */
export function nameConfirmed(e: DocumentEvidence): boolean {
  return e.fields.surname.confidence >= FUSE_TUNING.confirmLine && !e.fields.givenNames.contested;
}

/**
 * The fields a verdict needs are read: the name, the expiry (validity is never judged unseen) and
 * the number or the birth date (what identifies the document), with no doubt about the expiry. A
 * past expiry must be borne out (its check digit, or two readings): one misread digit of a valid
 * date would otherwise reject a user.
 */
export function settled(e: DocumentEvidence, today: string): boolean {
  const f = e.fields;
  if (e.expiryInDoubt || f.surname.value === null || f.expiryDate.value === null) return false;
  if (f.documentNumber.value === null && f.dateOfBirth.value === null) return false;
  return f.expiryDate.value! >= today || f.expiryDate.checked || new Set(f.expiryDate.sources.map((s) => s.reading)).size >= 2;
}

/**
 * Where to look for the zone, steered by the document type: a passport's (TD3) is on its data page,
 * the front; an identity card's or licence's (TD1) is usually on the back, read first when there is one.
 */
export function zoneSides<T>(documentType: DocumentType | null, front: T, back: T | null): T[] {
  if (!back || documentType === 'passport') return [front];
  if (documentType === 'national_id' || documentType === 'dni' || documentType === 'drivers_license') return [back, front];
  return [front, back];
}
