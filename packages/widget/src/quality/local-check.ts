import { laplacianVariance } from '@service/contract';

export { laplacianVariance };
/**
 * A quick local check before upload, shown as inline hints on the review screen. Blur: variance
 * of the Laplacian of the grey image at a fixed width (so the number means the same for every
 * camera). The face check is in face-check.ts (a detector loaded lazily).
 */
export const BLUR_CHECK_WIDTH = 320;
/** Below this the photo is called blurry (sharp camera frames measure in the hundreds). */
export const BLUR_THRESHOLD = 60;

export function greyFromRgba(rgba: Uint8ClampedArray): Uint8ClampedArray {
  const grey = new Uint8ClampedArray(rgba.length / 4);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j++) grey[j] = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
  return grey;
}

/** The blur hint, computed at capture time (a few milliseconds at 320 px). */
export function blurHint(canvas: HTMLCanvasElement): 'blurry_image' | null {
  const w = BLUR_CHECK_WIDTH;
  const h = Math.max(1, Math.round((canvas.height / canvas.width) * w));
  const small = document.createElement('canvas');
  small.width = w;
  small.height = h;
  const ctx = small.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(canvas, 0, 0, w, h);
  const grey = greyFromRgba(ctx.getImageData(0, 0, w, h).data);
  return laplacianVariance(grey, w, h) < BLUR_THRESHOLD ? 'blurry_image' : null;
}
