import type { DecodedImage, Region } from './decode.js';
import { greyRegionAsTaken } from './decode.js';

/**
 * A document shown on a monitor or phone and photographed (a recapture) is not a document in the
 * person's hand. A screen's pixel grid (its sub-pixel stripes and the dark gaps between rows) is
 * periodic: photographed at the resolution taken, it concentrates the picture's fine detail in a
 * few frequencies, where print and a photograph on paper spread theirs. It is measured inside the
 * document's portrait (found by the face stage), never over the whole picture: a woven fabric or a
 * patterned desk beside the document is periodic too.
 *
 * Measured on the development split (docs/pipeline.md, stage 5): inside 10 portraits on a screen
 * 0.27-0.49 (the 9 approved before this stage 0.39-0.49); inside 314 portraits on paper (genuine
 * and every other negative class) 0.087 at most. The line is 0.2. A screen photo too coarse for
 * its portrait to hold a tile was unreadable on dev anyway.
 */
export const SCREEN_PATTERN_LINE = 0.2;

/** Tile side (px, a power of two) analysed at the resolution taken. */
const TILE = 128;
/** Periods counted as fine detail: 2 to 8 px (the grid of a screen photographed whole at 1-12 MP). */
const MIN_RADIUS = TILE / 8;
const MAX_RADIUS = TILE / 2;
/** How many of the strongest frequencies the concentration adds up. */
const PEAKS = 4;
/** Tile centres around the portrait's centre, as shares of its side (a small portrait's outer tiles reach past its edge). */
const TILE_OFFSETS: readonly [number, number][] = [
  [0, 0],
  [-0.25, -0.25],
  [0.25, 0.25],
  [-0.25, 0.25],
  [0.25, -0.25],
];

/**
 * The screen-pattern measure of a document photo, 0-1: the median over tiles inside the portrait
 * of the share of fine-detail power in its strongest frequencies. `portrait` is the document's face
 * box relative to the picture; null when the portrait is too small at the resolution taken to hold
 * a tile (then nothing is judged).
 */
export async function screenPattern(bytes: Buffer, img: DecodedImage, portrait: Region): Promise<number | null> {
  const side = Math.min(portrait.width * img.width, portrait.height * img.height);
  if (side < TILE) return null;
  const cx = (portrait.left + portrait.width / 2) * img.width;
  const cy = (portrait.top + portrait.height / 2) * img.height;
  // One region at the resolution taken around every tile; decoded once.
  const reach = side * 0.25 + TILE / 2;
  const left = Math.max(0, Math.round(cx - reach));
  const top = Math.max(0, Math.round(cy - reach));
  const right = Math.min(img.width, Math.round(cx + reach));
  const bottom = Math.min(img.height, Math.round(cy + reach));
  if (right - left < TILE || bottom - top < TILE) return null;
  const region = { left, top, width: right - left, height: bottom - top };
  const grey = await greyRegionAsTaken(bytes, img, region);
  const shares: number[] = [];
  for (const [dx, dy] of TILE_OFFSETS) {
    const x0 = Math.round(cx + dx * side - TILE / 2) - left;
    const y0 = Math.round(cy + dy * side - TILE / 2) - top;
    if (x0 < 0 || y0 < 0 || x0 + TILE > grey.width || y0 + TILE > grey.height) continue;
    shares.push(peakShare(tileOf(grey.pixels, grey.width, x0, y0)));
  }
  if (!shares.length) return null;
  shares.sort((a, b) => a - b);
  return shares[Math.floor(shares.length / 2)]!;
}

/** The Hann window over a tile's side, computed once. */
const HANN = Float64Array.from({ length: TILE }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / TILE));

/** A tile's grey levels, mean removed and Hann-windowed (so the tile's own edges add no false frequencies). */
function tileOf(pixels: Buffer, width: number, x0: number, y0: number): Float64Array {
  const t = new Float64Array(TILE * TILE);
  let mean = 0;
  for (let y = 0; y < TILE; y++) for (let x = 0; x < TILE; x++) mean += t[y * TILE + x] = pixels[(y0 + y) * width + x0 + x]!;
  mean /= t.length;
  for (let y = 0; y < TILE; y++) for (let x = 0; x < TILE; x++) t[y * TILE + x] = (t[y * TILE + x]! - mean) * HANN[y]! * HANN[x]!;
  return t;
}

/** The share of a tile's fine-detail power (periods 2-8 px) held by its PEAKS strongest frequencies. */
export function peakShare(tile: Float64Array): number {
  const power = powerSpectrum(tile);
  const ring: number[] = [];
  let total = 0;
  // Half the plane: a real picture's spectrum is symmetric.
  for (let v = 0; v < TILE; v++) {
    const fv = v < TILE / 2 ? v : v - TILE;
    for (let u = 0; u <= TILE / 2; u++) {
      const r = Math.hypot(u, fv);
      if (r < MIN_RADIUS || r > MAX_RADIUS || (onJpegGrid(u) && onJpegGrid(fv))) continue;
      const p = power[v * TILE + u]!;
      ring.push(p);
      total += p;
    }
  }
  if (total <= 0) return 0;
  ring.sort((a, b) => b - a);
  let top = 0;
  for (let k = 0; k < PEAKS; k++) top += ring[k]!;
  return top / total;
}

/**
 * A JPEG's 8 x 8 blocks are a grid of their own, aligned with the picture: on smooth skin or a
 * plain backdrop at low quality their edges are the strongest fine detail there is. Frequencies
 * of that grid (multiples of TILE/8 in both directions, and the next bin, where the window
 * spreads them) are left out.
 */
function onJpegGrid(f: number): boolean {
  const k = Math.abs(f) % (TILE / 8);
  return k <= 1 || k === TILE / 8 - 1;
}

/** |FFT|^2 of a TILE x TILE picture: rows, then columns, of a radix-2 transform. */
function powerSpectrum(tile: Float64Array): Float64Array {
  const re = Float64Array.from(tile);
  const im = new Float64Array(tile.length);
  const rowRe = new Float64Array(TILE);
  const rowIm = new Float64Array(TILE);
  for (let pass = 0; pass < 2; pass++) {
    for (let k = 0; k < TILE; k++) {
      // pass 0: row k; pass 1: column k.
      const at = (j: number) => (pass === 0 ? k * TILE + j : j * TILE + k);
      for (let j = 0; j < TILE; j++) {
        rowRe[j] = re[at(j)]!;
        rowIm[j] = im[at(j)]!;
      }
      fft(rowRe, rowIm);
      for (let j = 0; j < TILE; j++) {
        re[at(j)] = rowRe[j]!;
        im[at(j)] = rowIm[j]!;
      }
    }
  }
  const power = new Float64Array(tile.length);
  for (let i = 0; i < power.length; i++) power[i] = re[i]! ** 2 + im[i]! ** 2;
  return power;
}

/** The transform's twiddle factors for length TILE, computed once: e^(-2 pi i k / TILE). */
const TWIDDLE_RE = Float64Array.from({ length: TILE / 2 }, (_, k) => Math.cos((-2 * Math.PI * k) / TILE));
const TWIDDLE_IM = Float64Array.from({ length: TILE / 2 }, (_, k) => Math.sin((-2 * Math.PI * k) / TILE));

/** In-place iterative radix-2 FFT of length TILE. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = TILE;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const stride = n / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = TWIDDLE_RE[k * stride]!;
        const wi = TWIDDLE_IM[k * stride]!;
        const a = i + k;
        const b = a + len / 2;
        const vr = re[b]! * wr - im[b]! * wi;
        const vi = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - vr;
        im[b] = im[a]! - vi;
        re[a] = re[a]! + vr;
        im[a] = im[a]! + vi;
      }
    }
  }
}
