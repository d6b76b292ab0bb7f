import { laplacianVariance } from '@service/contract';
import sharp from 'sharp';

/** Fixed analysis width: the blur number then means the same for every camera. */
export const QUALITY_WIDTH = 1024;

export interface ImageQuality {
  /** Variance of the Laplacian of the grey image at 1024 px wide (higher is sharper). */
  sharpness: number;
  /** Mean grey level 0-255. */
  brightness: number;
  /** Share of pixels at or above 250 (burnt out). */
  clipped: number;
  width: number;
  height: number;
}

export interface QualityThresholds {
  minSharpness: number;
  minBrightness: number;
  maxBrightness: number;
  maxClipped: number;
  minShortSide: number;
}

/** Measures one JPEG, downscaling while decoding (memory stays bounded whatever the input size). */
export async function measureQuality(jpeg: Buffer): Promise<ImageQuality> {
  const image = sharp(jpeg, { failOn: 'error', limitInputPixels: 50_000_000 }).rotate();
  const meta = await image.metadata();
  const { data, info } = await image
    .resize({ width: QUALITY_WIDTH, withoutEnlargement: true })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  let sum = 0;
  let clipped = 0;
  for (const v of data) {
    sum += v;
    if (v >= 250) clipped++;
  }
  const oriented = (meta.orientation ?? 1) >= 5;
  return {
    sharpness: laplacianVariance(data, w, h),
    brightness: sum / data.length,
    clipped: clipped / data.length,
    width: (oriented ? meta.height : meta.width) ?? w,
    height: (oriented ? meta.width : meta.height) ?? h,
  };
}

/**
 * `image_quality` in [0, 1] and whether the image is too blurry, dark, burnt out or small. Each
 * aspect scores 1 when comfortably fine (sharpness at 3x its threshold, brightness 40 above the
 * dark threshold, clipped share under a third of its limit, short side 1.5x its minimum) and falls
 * linearly to 0 at its threshold; the score is the minimum (the worst aspect decides).
 */
export function qualityScore(q: ImageQuality, t: QualityThresholds): { score: number; blurry: boolean; dark: boolean; bright: boolean; small: boolean } {
  const ramp = (value: number, bad: number, good: number) => Math.max(0, Math.min(1, (value - bad) / (good - bad)));
  const sharp = ramp(q.sharpness, t.minSharpness, t.minSharpness * 3);
  // Light documents are normal: only darkness ramps; burning out is judged by the clipped share.
  const light = ramp(q.brightness, t.minBrightness, t.minBrightness + 40);
  const notClipped = q.brightness > t.maxBrightness ? 0 : ramp(-q.clipped, -t.maxClipped, -t.maxClipped / 3);
  const size = ramp(Math.min(q.width, q.height), t.minShortSide, t.minShortSide * 1.5);
  return {
    score: Math.round(Math.min(sharp, light, notClipped, size) * 1000) / 1000,
    blurry: q.sharpness < t.minSharpness,
    dark: q.brightness < t.minBrightness,
    bright: q.brightness > t.maxBrightness || q.clipped > t.maxClipped,
    small: Math.min(q.width, q.height) < t.minShortSide,
  };
}

/**
 * Provisional thresholds, measured on a sharp synthetic document at 1024 px (sharpness 2,377;
 * Gaussian blur sigma 1: 708, sigma 2: 128, sigma 3: 33, sigma 4: 12). To be calibrated on the
 * evaluation set with the rest of the verdict policy.
 */
export const DEFAULT_QUALITY_THRESHOLDS: QualityThresholds = {
  minSharpness: 40,
  minBrightness: 50,
  maxBrightness: 235,
  maxClipped: 0.5,
  minShortSide: 480,
};
