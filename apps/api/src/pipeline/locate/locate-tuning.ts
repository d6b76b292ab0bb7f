/**
 * The locate stage's thresholds, in one place (the side's skew, the document's quad and block, a turned photo, the portrait's printed edges).
 * Each says what it trades; change one only with the evaluation figures that justify it
 * (docs/evaluation.md).
 */
export const LOCATE_TUNING = {
  /** skew.ts */
  skew: {
    /** Widest skew searched, degrees (a document on a desk photographed up to 12 degrees askew, with margin). */
    maxSkewDegrees: 15,
    analysisWidth: 600,
  },
  /** document-quad.ts */
  documentQuad: {
    /** The edges are looked for on the photo scaled to this width (a card's edge is a long, plain line; no detail is needed). */
    analysisWidth: 640,
    /** An edge pixel: a Sobel magnitude of at least this on the blurred grey picture (a light card on a light desk: about 40). */
    edgeMagnitude: 24,
    /** Hough bins: the edge's direction (the grey's gradient, so its polarity is kept) in degrees, its distance in px. */
    angleStep: 2,
    /** A side's normal at most this far from its place's (the top's points down or up): a document tilted 15 degrees and turned 12. */
    maxSideTurn: 40,
    /** A side must hold edge pixels along this share of the length it would have at least (a shadow or a finger can hide the rest). */
    minSupport: 0.35,
    /** The strongest lines weighed per side (a striped desk holds dozens longer than the card's side). */
    candidates: 80,
    /** Lines supported nearly as well as a side's best (this share) are its candidates; the innermost wins. */
    nearBest: 0.85,
    /** Width over height of the quad found, its opposite sides averaged: ID-1 cards 1.59, TD3 pages 1.42, TD2 1.41, with room for perspective. */
    minAspect: 1.15,
    maxAspect: 1.95,
    /** The least for the part of a document the frame cut on one side: more than half an ID-1 card seen. */
    minCutAspect: 0.8,
    /** A line on the document guiding a side the frame cut off: within this many degrees of the opposite side, covered along this share between its neighbours. */
    guideTurn: 25,
    guideCover: 0.3,
    /** ... and this far from the opposite side, as a share of its own length between the neighbours (an ID-1 portrait's edge: about 1.1). */
    guideMinOffset: 0.25,
    /** Two lines make a corner only when they cross at 11.5 degrees or more (the sine of the angle between them). */
    cornerMinSine: 0.2,
  },
  /** find-document.ts */
  findDocument: {
    /** Grid cell side, px of the skew stage's ink map (600 px wide). */
    cell: 12,
    /** Share of a cell's pixels that must be ink for the cell to count as print. */
    inked: 0.04,
    /** A block smaller than this many portraits is the portrait's own frame, not a document. */
    minPortraits: 2,
    /** A block whose box covers more than this share of the photo gains nothing from a crop. */
    maxShare: 0.75,
    /** Margin added around the block's box, as a share of its size per side. */
    margin: 0.08,
  },
  /** document-turn.ts */
  documentTurn: {
    /**
     * From this roll (degrees) a document's portrait lies on its side. A portrait turned a quarter
     * clockwise measures a roll of 77-83 (a held-out split's genuine fronts, turned); upright ones ±15.
     */
    onItsSide: 45,
    /** From this score a portrait found upright is surely a face (faces.ts, `DOCUMENT_SURE_SCORE`). */
    sureFace: 0.8,
  },
  /** portrait-edges.ts */
  portraitEdges: {
    /**
     * A column is empty when at most this share of its rows holds ink (2 px in any case, for noise):
     * a letter's thin diagonal (the middle of an N) still holds a few pixels of ink.
     */
    emptyShare: 0.005,
    /** The scan starts this share of the face box's width inside it: a detector's box can reach past a tight portrait's edge. */
    startInside: 0.15,
    /** Ink: this many grey levels under the paper, the column's 90th percentile over the rows judged. */
    inkUnderPaper: 40,
    paperPercentile: 0.9,
    /** The gap between a portrait and the print beside it: this share of the page's width, at least 4 px (a small card's: 7 px). */
    gapShare: 0.003,
    /**
     * The rows judged: from the face box's top (the brow) to this share of its height below it (the
     * shoulders, as wide as a loose portrait). None above the brow: a hat or a title there crosses the
     * gap beside a tight portrait, and on a page left leaning a few degrees (under perspective the
     * skew estimate follows a card's long edge) every row more closes the gap along the portrait's
     * slanting edge. Judged from a quarter of the face's height above, the gap beside a licence's
     * portrait was never found and its fields were painted out.
     */
    rowsBelow: 0.6,
    /** The rows judged for a leaning edge: from the brow to this share of the face's height below its box. */
    rowsBelowLeaning: 0.3,
    /**
     * A row off the card: this share of its pixels dark or more, across the blank and DESK_REACH of its
     * width beyond it each side (the desk beyond the card's edge; a loose portrait's shoulders fill the
     * blank but end at the portrait's edges).
     */
    deskShare: 0.9,
    deskReach: 0.25,
  },
};
