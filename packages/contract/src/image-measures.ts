/**
 * Variance of the Laplacian of an 8-bit grey image (4-neighbour kernel, borders skipped): the
 * widget's `blurry_image` hint on a camera frame. The server's `image_quality` starts from the
 * same variance and takes the sensor noise out of it (apps/api `edge-sharpness.ts`): a blurred
 * selfie under a poor lamp measures sharp here. Higher is sharper; compare values at a fixed width.
 */
export function laplacianVariance(grey: ArrayLike<number>, width: number, height: number): number {
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const v = grey[i - width]! + grey[i + width]! + grey[i - 1]! + grey[i + 1]! - 4 * grey[i]!;
      sum += v;
      sumSq += v * v;
      n++;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return sumSq / n - mean * mean;
}
