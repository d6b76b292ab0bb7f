import { describe, expect, it } from 'vitest';
import { Rng } from '@service/fixtures/random';
import { binariseLocally } from '../../src/pipeline/decode/binarise.js';

/** A w x h grey field of `level`, every other pixel `noise` darker and lighter, with a dark bar of `ink` across its middle rows. */
function field(w: number, h: number, level: number, noise: number, ink?: number): Uint8Array {
  const px = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      px[y * w + x] = ink !== undefined && y >= h / 2 - 2 && y < h / 2 + 2 ? ink : level + ((x + y) % 2 ? noise : -noise);
  return px;
}
const inkShare = (out: Buffer) => out.filter((v) => v === 0).length / out.length;

describe('binariseLocally', () => {
  it('print darker than the paper around it is ink, the paper is not', () => {
    const out = binariseLocally(field(40, 40, 200, 3, 60), 40, 40, 16);
    expect(out[20 * 40 + 20]).toBe(0);
    expect(out[5 * 40 + 5]).toBe(255);
  });

  it("a dark photo's sensor noise is no ink: 30% of a low mean is within the noise", () => {
    // Mean 20, pixels at 12 and 28: under 0.7 x 20 = 14, but only 8 levels under their surroundings.
    expect(inkShare(binariseLocally(field(40, 40, 20, 8), 40, 40, 16))).toBe(0);
    // Print in the same dark photo, 20 levels under it, is still ink.
    const out = binariseLocally(field(40, 40, 20, 8, 0), 40, 40, 16);
    expect(out[20 * 40 + 20]).toBe(0);
    expect(out[5 * 40 + 5]).toBe(255);
  });

  it('gives, on every page shape, what the plain per-pixel window gives (its edge-clipped columns included)', () => {
    // The plain form: every pixel's window clipped to the page, its mean compared as the pipeline's is.
    const plain = (grey: Uint8Array, width: number, height: number, window: number, contrast: number) => {
      const sums = new Float64Array((width + 1) * (height + 1));
      for (let y = 1; y <= height; y++)
        for (let x = 1; x <= width; x++)
          sums[y * (width + 1) + x] =
            grey[(y - 1) * width + x - 1]! +
            sums[(y - 1) * (width + 1) + x]! +
            sums[y * (width + 1) + x - 1]! -
            sums[(y - 1) * (width + 1) + x - 1]!;
      const at = (x: number, y: number) => sums[y * (width + 1) + x]!;
      const r = Math.max(1, Math.floor(window / 2));
      const out = Buffer.alloc(width * height);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const [x0, x1, y0, y1] = [Math.max(0, x - r), Math.min(width, x + r + 1), Math.max(0, y - r), Math.min(height, y + r + 1)];
          const mean = (at(x1, y1) - at(x0, y1) - at(x1, y0) + at(x0, y0)) / ((x1 - x0) * (y1 - y0));
          const g = grey[y * width + x]!;
          out[y * width + x] = g < mean * (1 - contrast) && mean - g >= 12 ? 0 : 255;
        }
      return out;
    };
    const rng = Rng.of('binarise');
    // Pages wider and narrower than the window, one pixel wide, square and long; print, paper and noise at random.
    for (const [w, h, window] of [
      [1, 9, 4],
      [5, 5, 16],
      [16, 3, 16],
      [17, 17, 16],
      [64, 40, 9],
      [133, 27, 25],
      [300, 60, 48],
    ] as const) {
      const grey = Uint8Array.from({ length: w * h }, () => (rng.chance(0.2) ? rng.int(0, 89) : rng.int(150, 249)));
      for (const contrast of [0.3, 0.15])
        expect(binariseLocally(grey, w, h, window, contrast).equals(plain(grey, w, h, window, contrast))).toBe(true);
    }
  });
});
