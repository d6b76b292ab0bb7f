/**
 * Perspective warp for the capture simulation: the homography taking a document's rectangle to a
 * quadrilateral in the photograph, applied by inverse mapping with bilinear sampling (RGBA, so the
 * document's edges blend into the background).
 */
import { homography, type Point } from '../pipeline/homography.js';

export { apply, homography, type Point } from '../pipeline/homography.js';

/**
 * Warps an RGBA image onto the quadrilateral `quad` (corners top-left, top-right, bottom-right,
 * bottom-left). Returns the RGBA patch covering the quad's bounding box and its position.
 */
export function warpToQuad(
  src: Buffer,
  sw: number,
  sh: number,
  quad: readonly Point[],
): { data: Buffer; left: number; top: number; width: number; height: number } {
  const left = Math.floor(Math.min(...quad.map((p) => p[0])));
  const top = Math.floor(Math.min(...quad.map((p) => p[1])));
  const width = Math.ceil(Math.max(...quad.map((p) => p[0]))) - left + 1;
  const height = Math.ceil(Math.max(...quad.map((p) => p[1]))) - top + 1;
  // Inverse: photograph pixel -> document pixel.
  const inv = homography(quad, [
    [0, 0],
    [sw, 0],
    [sw, sh],
    [0, sh],
  ]);
  const out = Buffer.alloc(width * height * 4);
  const [a, b, c, d, e, f, g, hh] = inv as [number, number, number, number, number, number, number, number];
  for (let j = 0; j < height; j++) {
    const y = top + j + 0.5;
    for (let i = 0; i < width; i++) {
      const x = left + i + 0.5;
      const w = g * x + hh * y + 1;
      const u = (a * x + b * y + c) / w - 0.5;
      const v = (d * x + e * y + f) / w - 0.5;
      if (u < -1 || v < -1 || u > sw || v > sh) continue;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      const fx = u - x0;
      const fy = v - y0;
      const o = (j * width + i) * 4;
      // Four taps, premultiplied by alpha so colour does not bleed from transparent pixels.
      let r = 0;
      let gr = 0;
      let bl = 0;
      let al = 0;
      for (let t = 0; t < 4; t++) {
        const xx = x0 + (t & 1);
        const yy = y0 + (t >> 1);
        if (xx < 0 || yy < 0 || xx >= sw || yy >= sh) continue;
        const wgt = (t & 1 ? fx : 1 - fx) * (t >> 1 ? fy : 1 - fy);
        const s = (yy * sw + xx) * 4;
        const wa = wgt * src[s + 3]!;
        r += src[s]! * wa;
        gr += src[s + 1]! * wa;
        bl += src[s + 2]! * wa;
        al += wa;
      }
      if (al <= 0) continue;
      out[o] = Math.min(255, Math.round(r / al));
      out[o + 1] = Math.min(255, Math.round(gr / al));
      out[o + 2] = Math.min(255, Math.round(bl / al));
      out[o + 3] = Math.min(255, Math.round(al));
    }
  }
  return { data: out, left, top, width, height };
}
