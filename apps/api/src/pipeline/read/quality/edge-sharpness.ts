import { histogramPercentile } from '../../decode/histogram.js';

/**
 * Sharpness that sensor noise cannot fake: the variance of the Laplacian (4-neighbour kernel,
 * borders skipped) less the share a Gaussian core accounts for. Noise spreads the Laplacian as
 * a bell (its spread measured robustly, from a low percentile of its absolute value), edges put
 * weight far out in its tails; only the tails count. A blurred selfie under a poor lamp
 * measured 173 by the plain variance with noise of 16 grey levels, as sharp as a genuine one;
 * with the bell taken out, 40 or less (docs/pipeline.md, "twenty-fourth round").
 */
export function edgeVariance(grey: ArrayLike<number>, width: number, height: number): number {
  // |Laplacian| of 8-bit pixels is at most 4 * 255: a histogram gives its percentiles in one pass.
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
  const variance = sumSq / n - mean * mean;
  // The bell's spread from the 40th percentile of |Laplacian| (0.5244 sd for a Gaussian), not the
  // median: print in focus can make edges of a quarter of the pixels, and the median would then
  // lean on them. Lower percentiles took less noise out of blurred selfies (tuning seed tune-b7e2).
  return Math.max(0, variance - (histogramPercentile(counts, n, 0.4) / 0.5244) ** 2);
}
