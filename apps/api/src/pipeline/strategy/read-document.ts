import type { DocumentType } from '@service/contract';
import { fuse, type DocumentEvidence, type Readings } from '../evidence/fuse.js';
import type { LocatedSide } from '../locate/located-side.js';
import type { OcrEngine } from '../read/ocr/ocr.js';
import { PrintedPages, type PageKind, type PageWay } from '../read/printed/printed-pages.js';
import { printedProposals } from '../read/printed/printed-proposals.js';
import { isComplete, readZone } from '../read/zone/read-zone.js';
import { ZONE_TUNING } from '../read/zone/zone-tuning.js';

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
 * printed text, page after page (`PRINTED_STEPS`), until the fields are settled (`settled`).
 * Only the evidence decides; the user's claim is never looked at here.
 */
export async function readDocument(d: DocumentToRead): Promise<DocumentRead> {
  const today = d.now.toISOString().slice(0, 10);
  const readings: { zones: Readings['zones'][number][]; printed: Readings['printed'][number][] } = { zones: [], printed: [] };
  const evidence = () => fuse(readings, today);
  const pages = new PrintedPages(d.ocr, d.front, { readAhead: d.readAhead, timed: d.timed.ocr });
  const backPages = d.back && new PrintedPages(d.ocr, d.back, { readAhead: d.readAhead, timed: d.timed.ocr });
  const readPage = async (kind: PageKind, way: PageWay, on: PrintedPages = pages, side: 'front' | 'back' = 'front') => {
    const text = await on.read(kind, way);
    if (text) readings.printed.push({ side, reading: `${kind}/${way}`, page: printedProposals(text, d.now, d.country) });
  };

  if (d.documentType === 'drivers_license') {
    await readPage('side', 'inked');
    if (settled(evidence(), today)) return { evidence: evidence(), zoneSeen: false };
  }
  let zoneSeen = false;
  for (const side of zoneSides(d.documentType, d.front, d.back)) {
    const missed = d.readAhead && side === d.front ? () => pages.prefetch() : undefined;
    const look = await d.timed.zone(() => readZone(d.ocr, side, { now: d.now, missed }));
    zoneSeen ||= look.seen;
    if (look.zone) readings.zones.push({ side: side.which, reading: 'zone', zone: look.zone });
    if (look.zone && isComplete(look.zone)) break;
  }
  if (zoneSettles(evidence(), today)) return { evidence: evidence(), zoneSeen };
  for (const [kind, way] of PRINTED_STEPS) {
    if (kind !== 'side' && !(await d.photoUsable)) break;
    await readPage(kind, way);
    if (settled(evidence(), today)) return { evidence: evidence(), zoneSeen };
  }
  // The back's print last (the old French card keeps its validity there).
  for (const way of ['inked', 'grey'] as const) {
    if (!backPages || settled(evidence(), today)) break;
    await readPage('side', way, backPages, 'back');
  }
  return { evidence: evidence(), zoneSeen };
}

/** A zone whose every check holds and whose name reads cleanly, the fields settled: nothing the print could add. */
function zoneSettles(e: DocumentEvidence, today: string): boolean {
  return e.zone !== null && isComplete(e.zone) && e.fields.surname.confidence >= ZONE_TUNING.confidence.sureName && settled(e, today);
}

/**
 * The fields a verdict needs are read: the name, the number, the birth date and the expiry, with
 * no doubt about the expiry. A past expiry must be borne out (its check digit, or two readings):
 * one misread digit of a valid date would otherwise reject a user.
 */
export function settled(e: DocumentEvidence, today: string): boolean {
  const f = e.fields;
  if (e.expiryInDoubt || [f.surname, f.documentNumber, f.dateOfBirth, f.expiryDate].some((x) => x.value === null)) return false;
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
