/**
 * The fusion's thresholds, in one place. Each says what it trades; change one only with the
 * evaluation figures that justify it (docs/evaluation.md).
 */
export const FUSE_TUNING = {
  /**
   * A field without a check digit behind it is reported only from this confidence on (its readings'
   * confidences combined): a printed field read under its label by a sure recogniser, or read the
   * same way twice. Below it the field is null, as the contract asks of a field the document does
   * not support.
   */
  reportLine: 0.6,
  /**
   * A printed reading this sure that differs from a zone field whose check digit holds is a
   * disagreement between the document's two zones (a reason for review), not a misreading.
   */
  sureLine: 0.85,
  /** How much a name read a few letters apart elsewhere (a misreading of it) supports a name, against its own readings. */
  nearNameSupport: 0.5,
  /** A reading's confidence counts at most this much: no single reading is certain without a check digit. */
  mostUnchecked: 0.95,
} as const;
