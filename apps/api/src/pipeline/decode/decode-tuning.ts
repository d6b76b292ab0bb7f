/**
 * The decode stage's thresholds, in one place.
 * Each says what it trades; change one only with the evaluation figures that justify it
 * (docs/evaluation.md).
 */
export const DECODE_TUNING = {
  /** decode.ts */
  decode: {
    /**
     * The one place the pipeline decodes an uploaded image. One policy for every stage:
     * - corrupt data fails (`failOn: 'warning'`: a JPEG cut short is corrupt too), never half-decoded pixels in one stage and an
     *   exception in another;
     * - the header's pixel count is checked against the contract's limit before decoding;
     * - EXIF orientation is applied first (phones store portrait photos as orientation 6 or 8), so
     *   every crop and extract works on the image as the person saw it;
     * - the image is decoded once per run, downscaled on decode to at most DECODE_MAX_SIDE, and the
     *   same pixels feed quality, faces, MRZ and text recognition.
     */
    decodeMaxSide: 2048,
    /** Width/height ratios beyond this are no photo of a document or a face (e.g. 763 x 65000). */
    maxAspectRatio: 4,
    /** The side of a picture holding every 8-bit sRGB colour once (4096 x 4096 = 2^24). */
    everyColourSide: 4096,
  },
  /** binarise.ts */
  binarise: {
    /**
     * Grey levels ink must lie under its surroundings' mean. A retired held-out split (320 cases): dark
     * photos (exposure 0.1-0.2, noise 8-10) binarised into 2,000-3,600 characters of junk that took
     * 1.3-4.4 s a page; with 12 levels their OCR CPU fell 12% (339 -> 298 ms a verification), two of
     * them read their name, one lost it (every one still caught as too dark), and no other verdict
     * moved there or on f081's 222 cases. At 20, four dark cases lost their readings.
     */
    minInkDifference: 12,
  },
};
