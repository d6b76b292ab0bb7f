import sharp from 'sharp';
import { burntOut } from './burn-out.js';
import { asDecoded, greyProduct, type DecodedImage, type Region } from '../../decode/decode.js';
import { edgeVariance } from './edge-sharpness.js';
import { histogramPercentile } from '../../decode/histogram.js';

/**
 * Image quality judged per kind of image (a document photo or a selfie), each problem with its
 * own reason: blur is `blurry_image` only, darkness `image_too_dark`, burn-out `glare`, too few
 * pixels `low_resolution` (decisions.md "Verdict reasons (additions)").
 */

/** Brightness, darkness and burn-out are measured on a grey copy at most this wide (never upscaled). */
export const QUALITY_WIDTH = 1024;

export type ImageKind = 'document' | 'selfie';
export type QualityProblem = 'blurry_image' | 'image_too_dark' | 'glare' | 'low_resolution';

/**
 * Blur is measured at a fixed size per kind, where sensor noise is averaged away but a lens
 * out of focus still shows: print on a document keeps sharp edges at 512 px wide, a face at 256 px
 * on the selfie's long side (`sharpnessWidth`). Measured at full size, a blurred photo with grain
 * scores as sharp as a clean one.
 */
export const SHARPNESS_WIDTH: Record<ImageKind, number> = { document: 512, selfie: 256 };

/**
 * A document photo narrower than SHARPNESS_WIDTH / SMALL_DOCUMENT_SCALE is measured at this share
 * of its width, so its grain is averaged as a large photo's is. At full size a 480 x 640 photo's
 * grain, kept by a fine JPEG, made defocus look sharp: a passport out of focus by 0.5% of the frame
 * measured 103 against a line of 80 (retired heldout-a64f/081), one by 0.9% 152, while a sharp card
 * in the same frame measured 75 (its print a small part of the picture). Tuning seeds
 * study-blur-1 to -4 (about 230 documents in frames 480 to 800 px wide, each photographed sharp and
 * defocused by 0.4-0.9%): sharp ones 123 or more at this share, defocused ones 51 or less (docs/pipeline.md, forty-eighth round).
 */
export const SMALL_DOCUMENT_SCALE = 0.6;

export interface ImageQuality {
  /**
   * Variance of the Laplacian's edges (`edgeVariance`: sensor noise taken out) of the grey image
   * at its kind's size (`sharpnessWidth`), scaled to a contrast of 128 grey levels (2nd to 98th percentile):
   * a dim but sharp photo is not called blurry, a blurred one under noise is.
   */
  sharpness: number;
  /** Mean grey level 0-255. */
  brightness: number;
  /** The 98th percentile of grey (the paper's white, the lit side of a face): what darkness is judged on. */
  highlights: number;
  /** The 0.1th percentile of grey: the darkest print (a small card in a large frame holds little of it), dark unless washed out. */
  darkest: number;
  /**
   * Share of the picture under its largest reflection: a burnt-out patch (8 x 8 blocks with a mean of
   * 248 or more, joined into a patch of at least 0.4% of the picture) that lies inside the picture and hides what is under it.
   * Patches joined to the picture's edge are background (a white desk); a jagged patch (under 75%
   * of its convex hull) is paper burnt out between lines of print. A patch that keeps print
   * inside it (more than 10% of the blocks within its outline not burnt out) is over-exposed paper
   * between legible print, not a reflection: on the dev split reflections over the fields keep
   * 0-6% inside, over-exposed pale cards 13-48%. A reflection on a pale card may join the card's own
   * burnt-out paper into one jagged patch; its core is then found apart (`reflections` in burn-out.ts, on a sharp picture only).
   * A patch or core with paper nearly burnt out beside it and dark print there is over-exposed paper
   * whatever its shape (`overExposedPaper`): a reflection's light lifts the print around it.
   */
  clipped: number;
  /**
   * Share of the picture under its largest reflection shaped as a lamp's image: a patch counted in
   * `clipped` that is an ellipse (it fills LAMP_SOLIDITY of its convex hull or more, and its box is
   * at most LAMP_ASPECT times as long as wide). Blank paper burnt out is a strip along a margin or
   * between lines of print, never so round: a smaller patch of this shape is already a reflection.
   */
  lampShaped: number;
  /** Oriented size as taken. */
  width: number;
  height: number;
}

export interface QualityThresholds {
  /** Below: blurry. */
  minSharpness: number;
  /** Highlights (98th percentile) below: too dark. */
  minHighlights: number;
  /** Share under reflections above: glare. */
  maxClipped: number;
  /** Share under a lamp-shaped reflection above: glare. */
  maxLampShaped: number;

  /** Short side below: too few pixels to judge. */
  minShortSide: number;
}

/**
 * Per kind, set on the evaluation set's dev split (docs/pipeline.md). A document must carry
 * legible text: 640 x 480 is the smallest photo accepted. A selfie only has to show a face: a VGA
 * webcam (480 x 640 or 640 x 480) is fine, 320 x 240 is not. Darkness is judged on the
 * highlights, not the mean: a card on a dark desk or a face lit by a dim lamp still has a white
 * or a lit side (dev: genuine documents 167 or more, genuine selfies under a poor lamp 86 or more;
 * photos taken in the dark 41 or less). Sharpness (`edgeVariance`, contrast-normalised; the
 * tuning seed tune-b7e2, 320 cases): genuine documents 174 or more at 512 px, blurred ones 9 or
 * less; genuine selfies 131 or more at 256 px wide (a third under a poor lamp), blurred ones 23 or
 * less. On the long side (twenty-fifth round; tune-b7e2's first 20 cases of each genuine class,
 * other_face, blurred and too_dark, 142 cases): genuine selfies 241 or more, blurred ones 20 or
 * less; the check sets' upright HD selfies, faces filling the frame from pictures a third their
 * size, 161 or more where they had measured 51-65 across their width. The plain variance of the Laplacian counted a poor lamp's sensor noise as edges: blurred
 * selfies measured 37 (retired 5fbc/084) and 55 (heldout-ce1c/280, approved), and with noise of
 * 16 grey levels up to 1,277. Taken out, that noise leaves them 40 or less (61 under noise of
 * 32): the selfie's line stays 70, about half the genuine least. A reflection over the printed fields covers 1.4-9%
 * of the photo (dev, 14 cases); among 180 genuine captures of dev, over-exposed paper left at most
 * 1.04% in patches without print inside (a blank margin along a card's edge): the line is 1.2%. A
 * patch shaped as a lamp's image (`lampShaped`) has half that line: two reflections of 1.17% and
 * 1.2% of the photo (a small card in a large frame) had gone unreported. A picture is washed out
 * (glare) when even its darkest print is pale, the 0.1th percentile over 100, and sharp (a small
 * card on a white desk has a bright 5th percentile, but dark print).
 */
export const QUALITY_THRESHOLDS: Record<ImageKind, QualityThresholds> = {
  document: {
    minSharpness: 80,
    minHighlights: 80,
    maxClipped: 0.012,
    maxLampShaped: 0.006,
    minShortSide: 480,
  },
  selfie: {
    minSharpness: 70,
    minHighlights: 60,
    maxClipped: 0.25,
    maxLampShaped: 0.25,
    minShortSide: 400,
  },
};

/**
 * The width blur is measured at: a selfie's long side at SHARPNESS_WIDTH, whichever way the camera
 * was held; a document at SHARPNESS_WIDTH, or at SMALL_DOCUMENT_SCALE of a narrower photo's width.
 */
export function sharpnessWidth(kind: ImageKind, width: number, height: number): number {
  if (kind === 'selfie') return Math.round(SHARPNESS_WIDTH.selfie * Math.min(1, width / height));
  return Math.min(SHARPNESS_WIDTH.document, Math.round(width * SMALL_DOCUMENT_SCALE));
}

/**
 * Measures one image (decoded pixels, or bytes decoded under the pipeline's policy) for its kind;
 * `portrait`, a document's portrait photo, left out of the print judged around a reflection.
 */
export async function measureQuality(input: Buffer | DecodedImage, kind: ImageKind = 'document', portrait?: Region): Promise<ImageQuality> {
  const img = await asDecoded(input);
  const { data, info } = await greyProduct(img, (p) => p.resize({ width: Math.min(QUALITY_WIDTH, img.pixelWidth) }));
  const hist = new Array<number>(256).fill(0);
  let sum = 0;
  for (const v of data) {
    sum += v;
    hist[v]!++;
  }
  const percentile = (p: number) => histogramPercentile(hist, data.length, p);
  const highlights = percentile(0.98);
  const darkest = percentile(0.001);
  const small = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .resize({ width: Math.min(sharpnessWidth(kind, info.width, info.height), info.width) })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const contrast = Math.max(16, highlights - percentile(0.02));
  const sharpness = edgeVariance(small.data, small.info.width, small.info.height) / (contrast / 128) ** 2;
  return {
    sharpness,
    brightness: sum / data.length,
    highlights,
    darkest,
    // Defocus fades every edge as a lamp's halo fades (a blurred pale card's blank paper was taken
    // for a reflection, and its blur went unreported): halos are judged on sharp pictures only.
    ...burntOut(data, info.width, info.height, sharpness >= QUALITY_THRESHOLDS[kind].minSharpness, portrait),
    width: img.width,
    height: img.height,
  };
}

/** The size aspect's score at its line (a 640 x 480 document): accepted, if only just. */
const SIZE_AT_LINE = 0.5;

/** The darkest print (0.1th percentile) above: nothing dark left in the picture. */
const WASHED_OUT_DARKEST = 100;

/**
 * `image_quality` in [0, 1] and the problems found. Each aspect scores 1 when comfortably fine
 * (sharpness at 2x its line, highlights 40 above the dark line, burnt-out share under half of
 * its line, short side 1.2x its minimum) and falls linearly to 0 at its line (a size: to
 * SIZE_AT_LINE, and 0 under it); the score is the worst aspect. A problem is reported only past
 * its line, so the reason names the real cause.
 */
export function judgeQuality(q: ImageQuality, kind: ImageKind): { score: number; problems: QualityProblem[] } {
  const t = QUALITY_THRESHOLDS[kind];
  const ramp = (value: number, bad: number, good: number) => Math.max(0, Math.min(1, (value - bad) / (good - bad)));
  const shortSide = Math.min(q.width, q.height);
  // Print that stays crisp but pale: a veil over the whole picture (blur greys print too, but softly).
  const washedOut = q.darkest > WASHED_OUT_DARKEST && q.sharpness >= t.minSharpness;
  const aspects = {
    blurry_image: ramp(q.sharpness, t.minSharpness, t.minSharpness * 2),
    image_too_dark: ramp(q.highlights, t.minHighlights, t.minHighlights + 40),
    glare: washedOut
      ? 0
      : Math.min(ramp(-q.clipped, -t.maxClipped, -t.maxClipped / 2), ramp(-q.lampShaped, -t.maxLampShaped, -t.maxLampShaped / 2)),
    // A size is accepted from its line on, and sizes come in steps (640 x 480 sits on the
    // document's line): an accepted size scores SIZE_AT_LINE or more, never the 0 of a problem.
    low_resolution:
      shortSide < t.minShortSide ? 0 : SIZE_AT_LINE + (1 - SIZE_AT_LINE) * ramp(shortSide, t.minShortSide, t.minShortSide * 1.2),
  };
  const problems: QualityProblem[] = [];
  if (shortSide < t.minShortSide) problems.push('low_resolution');
  if (q.highlights < t.minHighlights) problems.push('image_too_dark');
  if (washedOut || q.clipped > t.maxClipped || q.lampShaped > t.maxLampShaped) problems.push('glare');
  // A dark, washed-out or tiny image also measures soft: blur is reported only when nothing else
  // explains it. A reflection does not: it burns out a patch, the rest keeps its edges (a card
  // out of focus and over-exposed had its blur unreported behind a patch of burnt-out paper).
  const explainsSoftness = problems.some((p) => p !== 'glare') || washedOut;
  if (q.sharpness < t.minSharpness && !explainsSoftness) problems.push('blurry_image');
  const score = Math.min(...Object.values(aspects));
  return { score: Math.round(score * 1000) / 1000, problems };
}
