/**
 * The printed-field reader's thresholds, in one place. Each says what it trades; change one only
 * with the evaluation figures that justify it (docs/evaluation.md).
 */
export const PRINTED_TUNING = {
  /**
   * How sure a printed proposal is before the page's own confidence weighs it (a proposal's
   * confidence is this times `pageWeight.floor + (1 - floor) * page confidence`). Two readings
   * agreeing combine (fuse.ts): a labelled field read the same way twice is sure.
   */
  confidence: {
    pageWeight: { floor: 0.6 },
    /** A name under its label, every word read surely. */
    labelledName: 0.8,
    /** A name under its label with a word the recogniser was unsure of. */
    unsureName: 0.5,
    labelledNationality: 0.75,
    labelledDate: 0.85,
    /** A date taken for a birth or an expiry by its place among the page's dates, without a label. */
    dateByOrder: 0.6,
    labelledNumber: 0.8,
    /** A word shaped like a document number (letters and digits, or 9-12 digits), without a label. */
    numberByShape: 0.5,
  },
} as const;
