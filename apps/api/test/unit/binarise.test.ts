import { describe, expect, it } from 'vitest';
import { binariseLocally } from '../../src/pipeline/binarise.js';

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
});
