/**
 * The quality stage's thresholds beyond the lines shared with the widget (@service/contract DOCUMENT_QUALITY_LINES): reflections, screens.
 * Each says what it trades; change one only with the evaluation figures that justify it
 * (docs/evaluation.md).
 */
export const QUALITY_TUNING = {
  /** burn-out.ts */
  burnOut: {
    /**
     * From this share of the portrait's face burnt out, a reflection hides it: of 360 genuine
     * portraits of retired seeds (5fbc, f081), those without a glare spot show 1.0% or less, those
     * with one on the face 2.7-16%; faces under 8.3% and 8.0% matched their selfies at 0.28 and under
     * the review line.
     */
    portraitGlareShare: 0.05,
    /**
     * A block's mean from which it is saturated: a reflection's core, told apart from a cream card's
     * paper burnt out around it (248-252 around one, its core 255).
     */
    saturatedLevel: 254,
    /** Blocks shaved off burnt-out patches (and grown back) to find a reflection's core: strips of paper narrower than 5 blocks go. */
    reflectionCore: 2,
    /** A reflection's halo: the paper next to its core at least this bright, ... */
    haloMinNear: 240,
    /** ... falling by at least this over the two bands of 2 blocks beyond ... */
    haloMinFall: 15,
    /** ... and by no more than this from one band to the next (a card's edge drops at once). */
    haloMaxStep: 35,
    /** A block holds print when its 5th percentile is this far under its paper level (upper quartile). */
    printContrast: 25,
    /** Blocks holding print next to a core for its print levels to be judged. */
    haloMinPrinted: 10,
    /**
     * Print under a reflection's halo (see `printFadesAsHalo`), measured on 84 reflections over the
     * fields of six retired held-out seeds: next to the core 180-210, falling by 28-71 per band of 2
     * blocks. Around the cores of 720 genuine captures of four: never 175 or more next to the core
     * and falling by 25 or more in both bands; the one falling at all fell 46 then 162 (a dark
     * background beyond a margin).
     */
    printHaloMinNear: 175,
    printHaloMinStep: 25,
    printHaloMaxStep: 90,
    /**
     * A wide halo (`printFadesAsHalo`): print next to the core this pale or paler, darkening by
     * WIDE_HALO_MIN_STEP or more in each band and WIDE_HALO_MIN_FALL over both. The saturated core of a
     * reflection over a cream card: 222, 209, 182. Around the cores of 360 genuine
     * captures of two retired seeds (926b, 2cb7) and of the 360 cases of three check sets (thirteenth
     * to fifteenth), print this pale next to a core never darkens in both bands (222, 223, 152: a
     * licence's pale pattern; 224, 102, 94: dark print beyond a blank margin).
     */
    wideHaloMinNear: 200,
    wideHaloMinStep: 10,
    wideHaloMinFall: 35,
    /**
     * Print lifted on one side of a core (`printLiftedBeside`): within one of SECTORS equal angles
     * around it, SECTOR_MIN_PRINTED blocks of print or more next to the core, their median
     * SECTOR_LIFTED_PRINT or paler, and darker by PRINT_HALO_MIN_STEP to PRINT_HALO_MAX_STEP one band
     * out. Chosen on five retired held-out seeds (b41d, 8a36, 9641, 94ff, 1f77: 900 genuine fronts,
     * 70 reflections over the fields): it finds 6 of the 9 reflections the rules above missed, all on
     * pale cards over-exposed at 1.06-1.10, and sends no genuine front to review that was not already.
     * Genuine angles that come near: a shadow darkening the print (199, then 138, from 6 blocks of
     * print), dark print at a card's edge (217, then 71), grey labels beside a blank area (213, then
     * 131, from 7 blocks). Checked afterwards on two more (9e57, ce1c: 360 genuine fronts, 28
     * reflections): the same fronts judged glare as without it.
     */
    sectors: 8,
    sectorMinPrinted: 10,
    sectorLiftedPrint: 190,
    /** Over-exposed paper (see `overExposedPaper`): the paper next to the patch this bright or more, ... */
    overexposedPaper: 245,
    /** ... and the print there darker than this. */
    darkPrint: 160,
  },
  /** screen-capture.ts */
  screenCapture: {
    /**
     * A document shown on a monitor or phone and photographed (a recapture) is not a document in the
     * person's hand. A screen's pixel grid (its sub-pixel stripes and the dark gaps between rows) is
     * periodic: photographed at the resolution taken, it concentrates the picture's fine detail in a
     * few frequencies, where print and a photograph on paper spread theirs. It is measured inside the
     * document's portrait (found by the face stage), never over the whole picture: a woven fabric or a
     * patterned desk beside the document is periodic too.
     *
     * Measured on the development split (docs/evaluation.md, history): inside 10 portraits on a screen
     * 0.27-0.49 (the 9 approved before this stage 0.39-0.49); inside 314 portraits on paper (genuine
     * and every other negative class) 0.087 at most. The line is 0.2. A face under 128 px at the
     * resolution taken is judged on tiles of 64 px (a retired held-out split approved such a screen
     * photo: its face was 125 px); one under 40 px is not judged. The line is the same on both tile
     * sides (thirty-ninth round, the retired held-out seeds and four check sets, with `BANDS`): on
     * tiles of 64, 227 portraits on paper 0.18 at most and the screens of 16 seeds 0.209 and more; on
     * tiles of 128, 570 on paper 0.14 at most and the screens 0.25 and more (one at 0.04, its grid
     * lost to the photo's resampling, is caught by other stages).
     */
    screenPatternLine: 0.2,
    /** How far a face too small for the smallest tile may be grown around its centre to hold one (a face of 40 px and more). */
    maxGrowth: 1.6,
    /** How many of the strongest frequencies the concentration adds up. */
    peaks: 4,
  },
  /** image-quality.ts */
  imageQuality: {
    /** The size aspect's score at its line (a 640 x 480 document): accepted, if only just. */
    sizeAtLine: 0.5,
  },
};
