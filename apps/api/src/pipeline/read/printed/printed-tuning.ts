/**
 * The printed-field reader's thresholds, in one place. Each says what it trades; change one only
 * with the evaluation figures that justify it (docs/evaluation.md).
 */
export const PRINTED_TUNING = {
  /**
   * The portrait is painted out of the printed pages only where the face stage found it this surely
   * (its `score`). Under it, the face found is as often something else printed on the card (a ghost
   * portrait, a drawn one's outline, a run of letters: 0.4), and its blank wiped the fields beside
   * it; the real documents' printed portraits were found at 0.91 or more. What it trades:
   * a real portrait found unsure is read with its texture (junk words beside the fields, which the
   * labels' readers skip) rather than painted out.
   */
  blankFaceScore: 0.6,
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
    /**
     * A date taken for a birth or an expiry by its place among the page's dates, without a label
     * (the earliest past one a birth, the latest to come an expiry): reported from one sure page.
     */
    dateByOrder: 0.7,
    labelledNumber: 0.8,
    /** A word shaped like a document number (letters and digits, or 9-12 digits), without a label. */
    numberByShape: 0.5,
  },
} as const;
