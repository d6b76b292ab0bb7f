import { laplacianVariance } from '@service/contract';
import { describe, expect, it } from 'vitest';
import { edgeVariance } from '../../src/pipeline/read/quality/edge-sharpness.js';

const W = 128;
const H = 96;
/** A deterministic, roughly Gaussian noise of standard deviation `sd` grey levels (sum of three uniforms). */
function noisy(base: (x: number, y: number) => number, sd: number): Uint8Array {
  let seed = 7;
  const uniform = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5;
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      out[y * W + x] = Math.max(0, Math.min(255, Math.round(base(x, y) + (uniform() + uniform() + uniform()) * 2 * sd)));
  return out;
}
const flat = () => 128;
const soft = (x: number) => 128 + 60 * Math.tanh((x - W / 2) / 8); // one edge, out of focus
// Print in focus: strokes 8 px wide, a quarter of the pixels beside an edge.
const bars = (x: number) => (Math.floor(x / 8) % 2 ? 40 : 215);

describe('edgeVariance: sharpness that sensor noise cannot fake', () => {
  it('noise alone has no edges, though the plain variance of the Laplacian counts it', () => {
    const grain = noisy(flat, 16);
    expect(laplacianVariance(grain, W, H)).toBeGreaterThan(3000);
    expect(edgeVariance(grain, W, H)).toBeLessThan(0.1 * laplacianVariance(grain, W, H));
  });

  it('a soft edge under heavy noise measures as soft; crisp print under the same noise as crisp', () => {
    const blurred = edgeVariance(noisy(soft, 16), W, H);
    const crisp = edgeVariance(noisy(bars, 16), W, H);
    expect(crisp).toBeGreaterThan(20 * Math.max(blurred, 1));
    // Without noise the two measures agree on crisp print (its Laplacian is all tails).
    expect(edgeVariance(noisy(bars, 0), W, H)).toBeCloseTo(laplacianVariance(noisy(bars, 0), W, H), -1);
  });

  it('a flat or tiny image measures 0', () => {
    expect(edgeVariance(noisy(flat, 0), W, H)).toBe(0);
    expect(edgeVariance(new Uint8Array(4), 2, 2)).toBe(0);
  });
});
