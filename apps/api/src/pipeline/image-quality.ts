import { laplacianVariance } from '@service/contract';
import sharp from 'sharp';
import { asDecoded, fromDecoded, type DecodedImage } from './decode.js';

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
 * Blur is measured at a fixed width per kind, where sensor noise is averaged away but a lens
 * out of focus still shows: print on a document keeps sharp edges at 512 px, a face at 256 px.
 * Measured at full size, a blurred photo with grain scores as sharp as a clean one.
 */
export const SHARPNESS_WIDTH: Record<ImageKind, number> = { document: 512, selfie: 256 };

export interface ImageQuality {
  /**
   * Variance of the Laplacian of the grey image at SHARPNESS_WIDTH px wide, scaled to a contrast
   * of 128 grey levels (2nd to 98th percentile): a dim but sharp photo is not called blurry.
   */
  sharpness: number;
  /** Mean grey level 0-255. */
  brightness: number;
  /** The 98th percentile of grey (the paper's white, the lit side of a face): what darkness is judged on. */
  highlights: number;
  /** The 5th percentile of grey: print and shadows stay dark unless the whole picture is washed out. */
  shadows: number;
  /** The 0.5th percentile of grey: the darkest print (a card covers a part of the photo, print a part of the card). */
  lows: number;
  /**
   * Share of the picture in burnt-out patches (8 x 8 blocks with a mean of 248 or more) that lie
   * inside the picture: patches joined to its edge are background (a white desk), not a reflection.
   */
  clipped: number;
  /**
   * Of the bright surface inside the picture (8 x 8 blocks with a mean of 200 or more, background
   * joined to the edge left out), the share that is burnt out. A reflection burns out a spot of a
   * paper that stays below white around it (dev: 0.16-0.51); an over-exposed pale card burns out
   * nearly all of its paper between legible print (dev: 0.76-0.80), which hides nothing.
   */
  clippedOfBright: number;
  /** Oriented size as taken. */
  width: number;
  height: number;
}

export interface QualityThresholds {
  /** Below: blurry. */
  minSharpness: number;
  /** Highlights (98th percentile) below: too dark. */
  minHighlights: number;
  /** Shadows (5th percentile) above: the whole picture is washed out (glare). */
  maxShadows: number;
  /** Share of burnt-out patches above: glare. */
  maxClipped: number;
  /**
   * ...unless at least this share of the bright surface is burnt out while the print stays dark
   * (`lows` at most `darkPrint`): over-exposed paper, not a reflection. A veil that greys the print
   * too (a laminate reflecting a window) is still glare.
   */
  overExposedPaper: number;
  darkPrint: number;
  /** Short side below: too few pixels to judge. */
  minShortSide: number;
}

/**
 * Per kind, set on the evaluation set's dev split (docs/pipeline.md). A document must carry
 * legible text: 640 x 480 is the smallest photo accepted. A selfie only has to show a face: a VGA
 * webcam (480 x 640 or 640 x 480) is fine, 320 x 240 is not. Darkness is judged on the
 * highlights, not the mean: a card on a dark desk or a face lit by a dim lamp still has a white
 * or a lit side (dev: genuine documents 167 or more, genuine selfies under a poor lamp 86 or more;
 * photos taken in the dark 41 or less). Sharpness (contrast-normalised, dev): genuine documents
 * 280 or more at 512 px, blurred ones 25 or less; genuine selfies 145 or more at 256 px, blurred
 * ones 10 or less. A reflection burns out a solid patch: over the printed fields 1.1-8% of the
 * photo (dev, 16 per class), while no genuine capture's small spot or bright paper goes over
 * 0.35%; the line is 0.8%. A pale card over-exposed burns out 7-11% between its print, most of its
 * bright surface (0.76-0.80, reflections 0.16-0.51): not glare above 0.65.
 */
export const QUALITY_THRESHOLDS: Record<ImageKind, QualityThresholds> = {
  document: {
    minSharpness: 80,
    minHighlights: 80,
    maxShadows: 200,
    maxClipped: 0.008,
    overExposedPaper: 0.65,
    darkPrint: 80,
    minShortSide: 480,
  },
  selfie: {
    minSharpness: 50,
    minHighlights: 60,
    maxShadows: 200,
    maxClipped: 0.25,
    overExposedPaper: 1.01,
    darkPrint: 0,
    minShortSide: 400,
  },
};

/** Measures one image (decoded pixels, or bytes decoded under the pipeline's policy) for its kind. */
export async function measureQuality(input: Buffer | DecodedImage, kind: ImageKind = 'document'): Promise<ImageQuality> {
  const img = await asDecoded(input);
  const { data, info } = await fromDecoded(img)
    .resize({ width: Math.min(QUALITY_WIDTH, img.pixelWidth) })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const hist = new Array<number>(256).fill(0);
  let sum = 0;
  for (const v of data) {
    sum += v;
    hist[v]!++;
  }
  const percentile = (p: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) if ((seen += hist[v]!) >= p * data.length) return v;
    return 255;
  };
  const highlights = percentile(0.98);
  const shadows = percentile(0.05);
  const small = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .resize({ width: Math.min(SHARPNESS_WIDTH[kind], info.width) })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const lows = percentile(0.005);
  const contrast = Math.max(16, highlights - percentile(0.02));
  return {
    sharpness: laplacianVariance(small.data, small.info.width, small.info.height) / (contrast / 128) ** 2,
    brightness: sum / data.length,
    highlights,
    shadows,
    lows,
    ...burntOut(data, info.width, info.height),
    width: img.width,
    height: img.height,
  };
}

/**
 * Burn-out: the share of the picture in burnt-out patches (8 x 8 blocks whose mean is 248 or more, not joined
 * (through other burnt-out blocks) to the picture's edge. Blocks, not pixels: JPEG ringing beside
 * dark print on light paper leaves single pixels at 250+, a reflection burns out whole patches.
 * Joined to the edge is over-exposed background around the document, which hides nothing. Also the share of
 * the bright surface (blocks of 200 or more) inside the picture that is burnt out (`clippedOfBright`).
 */
/** How many blocks around a burnt-out block must be burnt out too for it to count (a solid patch). */
const ERODE = 1;
function burntOut(grey: Buffer, w: number, h: number): { clipped: number; clippedOfBright: number } {
  const B = 8;
  const cols = Math.floor(w / B);
  const rows = Math.floor(h / B);
  if (!cols || !rows) return { clipped: 0, clippedOfBright: 0 };
  const burnt = new Uint8Array(cols * rows);
  const bright = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let s = 0;
      for (let y = r * B; y < r * B + B; y++) for (let x = c * B; x < c * B + B; x++) s += grey[y * w + x]!;
      if (s / (B * B) >= 248) burnt[r * cols + c] = 1;
      if (s / (B * B) >= 200) bright[r * cols + c] = 1;
    }
  }
  // Flood from the edge: every burnt block reached is background (marked 2).
  const stack: number[] = [];
  for (let c = 0; c < cols; c++) stack.push(c, (rows - 1) * cols + c);
  for (let r = 0; r < rows; r++) stack.push(r * cols, r * cols + cols - 1);
  while (stack.length) {
    const i = stack.pop()!;
    if (burnt[i] !== 1) continue;
    burnt[i] = 2;
    const r = Math.floor(i / cols);
    const c = i % cols;
    if (r > 0) stack.push(i - cols);
    if (r < rows - 1) stack.push(i + cols);
    if (c > 0) stack.push(i - 1);
    if (c < cols - 1) stack.push(i + 1);
  }
  // Solid patches only: a block counts when its neighbours within one block (8 px) are burnt
  // out too. Bright paper at a high exposure burns out between the lines of print, which break
  // it into strips; a reflection is solid and hides the print under it.
  const solid = (r: number, c: number) => {
    for (let dr = -ERODE; dr <= ERODE; dr++)
      for (let dc = -ERODE; dc <= ERODE; dc++) {
        const rr = r + dr;
        const cc = c + dc;
        if (rr < 0 || cc < 0 || rr >= rows || cc >= cols || burnt[rr * cols + cc] !== 1) return false;
      }
    return true;
  };
  let inside = 0;
  let burntInside = 0;
  let brightInside = 0;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      if (burnt[i] === 1 && solid(r, c)) inside++;
      if (burnt[i] === 1) burntInside++;
      if (bright[i] && burnt[i] !== 2) brightInside++;
    }
  return { clipped: inside / (cols * rows), clippedOfBright: brightInside ? burntInside / brightInside : 0 };
}

/**
 * `image_quality` in [0, 1] and the problems found. Each aspect scores 1 when comfortably fine
 * (sharpness at 2x its line, highlights 40 above the dark line, burnt-out share under half of
 * its line, short side 1.2x its minimum) and falls linearly to 0 at its line; the score is the
 * worst aspect. A problem is reported only past its line, so the reason names the real cause.
 */
export function judgeQuality(q: ImageQuality, kind: ImageKind): { score: number; problems: QualityProblem[] } {
  const t = QUALITY_THRESHOLDS[kind];
  const ramp = (value: number, bad: number, good: number) => Math.max(0, Math.min(1, (value - bad) / (good - bad)));
  const shortSide = Math.min(q.width, q.height);
  const washedOut = q.shadows > t.maxShadows;
  const overExposedPaper = q.clippedOfBright >= t.overExposedPaper && q.lows <= t.darkPrint;
  const aspects = {
    blurry_image: ramp(q.sharpness, t.minSharpness, t.minSharpness * 2),
    image_too_dark: ramp(q.highlights, t.minHighlights, t.minHighlights + 40),
    glare: washedOut ? 0 : overExposedPaper ? 1 : ramp(-q.clipped, -t.maxClipped, -t.maxClipped / 2),
    low_resolution: ramp(shortSide, t.minShortSide, t.minShortSide * 1.2),
  };
  const problems: QualityProblem[] = [];
  if (shortSide < t.minShortSide) problems.push('low_resolution');
  if (q.highlights < t.minHighlights) problems.push('image_too_dark');
  if (washedOut || (q.clipped > t.maxClipped && !overExposedPaper)) problems.push('glare');
  // A dark, washed-out or tiny image also measures soft: blur is reported only when nothing else explains it.
  if (q.sharpness < t.minSharpness && problems.length === 0) problems.push('blurry_image');
  const score = Math.min(...Object.values(aspects));
  return { score: Math.round(score * 1000) / 1000, problems };
}
