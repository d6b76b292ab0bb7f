import type { DocumentEvidence } from '../evidence/fuse.js';
import { isComplete } from '../read/zone/read-zone.js';
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
 * `document_ocr`: 1 for a zone whose every check holds; otherwise half the surest printed page's
 * confidence and half the share of the fields the document prints that were reported (five: name,
 * number, birth, expiry, nationality; four on a licence), less `noDocumentFacePenalty` when no
 * portrait was found on it.
 */
export function documentReadScore(e: DocumentEvidence, opts: { documentFace: boolean; licence: boolean }): DocumentReadScore {
  const fieldsFound = COUNTED.filter((f) => e.fields[f].value !== null).length;
  const page = e.printed[0];
  const zoneComplete = e.zone !== null && isComplete(e.zone);
  const printedCount = opts.licence ? 4 : 5;
  const read = zoneComplete ? 1 : Math.min(1, 0.5 * (page?.confidence ?? 0) + 0.5 * (fieldsFound / printedCount));
  const score = opts.documentFace ? read : Math.max(0, read - SCORE_TUNING.noDocumentFacePenalty);
  const textLength = page ? page.text.replace(/\s/g, '').length : 0;
  return { score, readable: e.zone !== null || (textLength >= SCORE_TUNING.leastDocumentText && fieldsFound >= 1), fieldsFound };
}
