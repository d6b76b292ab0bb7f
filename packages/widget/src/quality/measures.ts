/**
 * The blur hint's constants and helpers, shared by the frame worker (which runs them) and the
 * main-thread fallback. Blur: variance of the Laplacian of the grey image at a fixed width (so the
 * number means the same for every camera).
 */
export const BLUR_CHECK_WIDTH = 320;
/** Below this the photo is called blurry (sharp camera frames measure in the hundreds). */
export const BLUR_THRESHOLD = 60;

export function greyFromRgba(rgba: Uint8ClampedArray): Uint8ClampedArray {
  const grey = new Uint8ClampedArray(rgba.length / 4);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j++) grey[j] = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
  return grey;
}
