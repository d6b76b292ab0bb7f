import { laplacianVariance } from '@service/contract';
import { BLUR_CHECK_WIDTH, BLUR_THRESHOLD, greyFromRgba } from './measures.js';

export { laplacianVariance, greyFromRgba, BLUR_CHECK_WIDTH, BLUR_THRESHOLD };

/**
 * The blur hint on the main thread: only where the frame worker cannot run (a page whose CSP
 * forbids blob: workers). Normally the worker measures it while it encodes the photo.
 */
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
