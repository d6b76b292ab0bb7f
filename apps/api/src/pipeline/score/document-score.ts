import type { DocumentEvidence } from '../evidence/fuse.js';
import { isComplete } from '../read/zone/read-zone.js';
import { checksHeld, type ZoneReading } from '../read/zone/zone-fields.js';
import { SCORE_TUNING } from './score-tuning.js';

/** The fields `document_ocr` counts, and how many a document prints (a licence prints no nationality). */
const COUNTED = ['surname', 'documentNumber', 'dateOfBirth', 'expiryDate', 'nationality'] as const;

/** What the document's reading is worth, for `document_ocr` and the policy. */
export interface DocumentReadScore {
  /** `document_ocr`, 0-1. */
  score: number;
  /** Enough was read to call it a document at all: a zone, or a page of text with a field on it. */
  readable: boolean;
  fieldsFound: number;
}

/**
 * `document_ocr`: 1 for a zone whose every check holds; otherwise half the surest reading's
 * confidence (a printed page's, or a zone's share of check digits holding) and half the share of the fields the document prints that were reported (five: name,
 * number, birth, expiry, nationality; four on a licence; the name counts where no label showed it
 * but the page prints it as typed), less `noDocumentFacePenalty` when no portrait was found on it.
 */
export function documentReadScore(
  e: DocumentEvidence,
  opts: { documentFace: boolean; licence: boolean; nameInText?: boolean },
): DocumentReadScore {
  // A name no label showed, but that the page prints as the user typed it, was read all the same.
  const fieldsFound =
    COUNTED.filter((f) => e.fields[f].value !== null).length + (opts.nameInText && e.fields.surname.value === null ? 1 : 0);
  const page = e.printed[0];
  const zoneComplete = e.zone !== null && isComplete(e.zone);
  const printedCount = opts.licence ? 4 : 5;
  // How well the surest reading read: a page by its recogniser's confidence, a zone by the share
  // of its check digits that hold (a zone whose number was misprinted still read its dates surely).
  const surest = Math.max(page?.confidence ?? 0, e.zone ? zoneCheckShare(e.zone) : 0);
  const read = zoneComplete ? 1 : Math.min(1, 0.5 * surest + 0.5 * (fieldsFound / printedCount));
  const score = opts.documentFace ? read : Math.max(0, read - SCORE_TUNING.noDocumentFacePenalty);
  const textLength = page ? page.text.replace(/\s/g, '').length : 0;
  return { score, readable: e.zone !== null || (textLength >= SCORE_TUNING.leastDocumentText && fieldsFound >= 1), fieldsFound };
}

/** The share of a zone's check digits (number, birth, expiry, composite: those its layout has) that hold. */
function zoneCheckShare(z: ZoneReading): number {
  const has = Object.values(z.checks).filter((c) => c !== null).length;
  return has ? checksHeld(z) / has : 0;
}
