import { POLICY } from '../decide/policy.js';

/**
 * The scores' thresholds, in one place (the policy's lines are in decide/policy.ts). Each says what
 * it trades; change one only with the evaluation figures that justify it (docs/evaluation.md).
 */
export const SCORE_TUNING = {
  /**
   * A name read in a way the recogniser is known to misread the typed one (a letter it has no class
   * for, a space it dropped): a pass, under an exact reading.
   */
  misreadName: 0.95,
  /** The most the typed name found in a page's text (not by its labels) lifts a name the fields gave: under review's line. */
  textOnlyNameMax: POLICY.nameMatch.review - 0.05,
  /** A document without a detectable face loses this much document_ocr (a printed portrait is part of every ID). */
  noDocumentFacePenalty: 0.3,
  /** Printed text shorter than this (letters and digits) is no page of a document. */
  leastDocumentText: 20,
} as const;
