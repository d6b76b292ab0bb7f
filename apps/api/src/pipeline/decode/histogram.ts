/**
 * The first bin by which a share `p` of a histogram's `n` counts is reached (its last bin if
 * never): a percentile of grey levels, or of any other small integer measure, in one pass.
 */
export function histogramPercentile(hist: ArrayLike<number>, n: number, p: number): number {
  let seen = 0;
  for (let v = 0; v < hist.length; v++) if ((seen += hist[v]!) >= p * n) return v;
  return hist.length - 1;
}
