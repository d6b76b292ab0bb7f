/**
 * The OCR engines' thresholds, in one place.
 * Each says what it trades; change one only with the evaluation figures that justify it
 * (docs/evaluation.md).
 */
export const OCR_TUNING = {
  /** ocr.ts */
  ocr: {
    /**
     * Local binarisation contrast (binarise.ts): 30% keeps the MRZ's bold OCR-B strokes and drops
     * background texture. Printed text is judged at 30% too; what binarising loses of its thin strokes
     * and diacritics (the bar of Ø) the plain grey reading, taken when the first is unsure, covers.
     */
    mrzContrast: 0.3,
    textContrast: 0.3,
    /**
     * A word the recogniser gives under 80% is one it was unsure of. Its letters' own confidences say
     * nothing (the LSTM model gives 90-99% to every letter, misread or not), its words' do: on four dev
     * cards read word by word, names read right scored 91-96% (but an accented one read without its
     * accents 25-57%: unsure does not mean wrong), the four names read one letter off 26-79% (EILcEN,
     * LAGNY for DAGNY, WOICIK, Saren for SØREN). The line is a dev choice; only given names use it.
     */
    unsureWordConfidence: 80,
    /** A zone is read at least this wide: a small scan's is scaled up to it. */
    zoneMinWidth: 1200,
    /** Free text is read 1600 px wide, whatever the photo's size. */
    textWidth: 1600,
    /**
     * A text page whose layout holds more words than this is texture, not a document: a fabric
     * binarised into specks, a screen's moire. Tesseract recognises about 14 ms a word here, and such
     * a page of 300-1,100 "words" took 2.5-5.9 s to read junk at confidence 0.2-0.4, where a document's
     * pages held at most 139 (401 pages of a retired held-out split). Such a page reads as nothing; the
     * side's other reading (grey or binarised) reads it. Native engine only: tesseract.js finds no
     * layout apart.
     */
    maxPageWords: 200,
  },
};
