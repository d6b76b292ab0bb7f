/**
 * The lines the pipeline judges a document photo by (apps/api `pipeline/image-quality.ts`,
 * `burn-out.ts`, `edge-sharpness.ts`), shared so that the widget's live guidance holds a photo to
 * the same lines before it is taken: a capture the widget calls `ready` is one the pipeline can
 * judge. Each line says what it measures and on a grey copy of which width.
 */
export const DOCUMENT_QUALITY_LINES = {
  /**
   * Sharpness: `edgeVariance` (below) of the grey photo at `sharpnessWidth` px wide, divided by
   * (contrast / 128)^2 where contrast is the 98th minus the 2nd percentile of grey (at least 16).
   * Under this: `blurry_image`.
   */
  minSharpness: 80,
  /** Blur is measured with the photo scaled to this width ... */
  sharpnessWidth: 512,
  /** ... or to this share of its width when that is narrower (a small photo's grain is averaged as a large one's is). */
  smallPhotoSharpnessScale: 0.6,
  /** Brightness, darkness and burn-out are measured on a grey copy at most this wide (never upscaled). */
  qualityWidth: 1024,
  /** Darkness: the 98th percentile of grey (the paper's white). Under this: `image_too_dark`. */
  minHighlights: 80,
  /** Burn-out is judged on blocks of this many pixels square, at `qualityWidth` ... */
  burnOutBlock: 8,
  /** ... a block whose mean grey is this or more is burnt out ... */
  burntOutLevel: 248,
  /** ... and a patch of joined burnt-out blocks counts from this share of the picture. */
  minBurntOutPatch: 0.004,
  /**
   * Glare: the share of the picture under the largest reflection (a burnt-out patch inside the
   * picture, not joined to its edge, solid and without print inside). Over this: `glare`.
   */
  maxClipped: 0.012,
  /** Glare: the same share for a patch shaped as a lamp's image (an ellipse). Over this: `glare`. */
  maxLampShaped: 0.006,
  /** A burnt-out patch is a reflection when it fills at least this share of its convex hull (paper burnt out between print is jagged) ... */
  reflectionMinSolidity: 0.75,
  /** ... and at most this share of the blocks within its outline are not burnt out (print left inside: over-exposed paper). */
  reflectionMaxPrintInside: 0.1,
  /** A lamp's image: a reflection filling this share of its hull or more, its box at most `lampMaxAspect` times as long as wide. */
  lampMinSolidity: 0.9,
  lampMaxAspect: 1.6,
  /** Washed out (`glare`): the darkest print, the 0.1th percentile of grey, over this on a sharp photo. */
  washedOutDarkest: 100,
  /** Resolution: the photo's short side under this many pixels: `low_resolution`. */
  minShortSide: 480,
} as const;

/** The width the pipeline measures a document photo's blur at (`DOCUMENT_QUALITY_LINES`), for a photo this wide. */
export function documentSharpnessWidth(width: number): number {
  const l = DOCUMENT_QUALITY_LINES;
  return Math.min(l.sharpnessWidth, Math.round(width * l.smallPhotoSharpnessScale));
}

/**
 * Sharpness that sensor noise cannot fake: the variance of the Laplacian (4-neighbour kernel,
 * borders skipped) of an 8-bit grey image less the share a Gaussian core accounts for. Noise
 * spreads the Laplacian as a bell (its spread from the 40th percentile of |Laplacian|: 0.5244
 * standard deviations for a Gaussian); edges put weight far out in its tails, and only those
 * count. Self-contained (no imports): the widget runs it inside its frame worker.
 */
export function edgeVariance(grey: ArrayLike<number>, width: number, height: number): number {
  // |Laplacian| of 8-bit pixels is at most 4 * 255: a histogram gives its percentile in one pass.
  const counts = new Uint32Array(4 * 255 + 1);
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const v = grey[i - width]! + grey[i + width]! + grey[i - 1]! + grey[i + 1]! - 4 * grey[i]!;
      sum += v;
      sumSq += v * v;
      counts[Math.abs(v)]!++;
      n++;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  let seen = 0;
  let p40 = counts.length - 1;
  for (let v = 0; v < counts.length; v++) {
    if ((seen += counts[v]!) >= 0.4 * n) {
      p40 = v;
      break;
    }
  }
  return Math.max(0, sumSq / n - mean * mean - (p40 / 0.5244) ** 2);
}

/**
 * The widget's advice on the document steps, reflected on the host as `data-guidance`
 * (decisions.md "Widget: document guidance and automatic capture"): a QA surface.
 */
export const DOCUMENT_GUIDANCE_STATES = ['searching', 'move_closer', 'hold_still', 'too_dark', 'glare', 'ready'] as const;
export type DocumentGuidance = (typeof DOCUMENT_GUIDANCE_STATES)[number];
