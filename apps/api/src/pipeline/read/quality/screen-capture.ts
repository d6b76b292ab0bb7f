import type { DecodedImage, Region } from '../../decode/decode.js';
import { greyRegionAsTaken } from '../../decode/decode.js';

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
 * and every other negative class) 0.087 at most. The line is 0.2. A face under 128 px at the
 * resolution taken is judged on tiles of 64 px (a retired held-out split approved such a screen
 * photo: its face was 125 px); one under 40 px is not judged. The line is the same on both tile
 * sides (thirty-ninth round, the retired held-out seeds and four check sets, with `BANDS`): on
 * tiles of 64, 227 portraits on paper 0.18 at most and the screens of 16 seeds 0.209 and more; on
 * tiles of 128, 570 on paper 0.14 at most and the screens 0.25 and more (one at 0.04, its grid
 * lost to the photo's resampling, is caught by other stages).
 */
export const SCREEN_PATTERN_LINE = 0.2;

/**
 * Tile sides (px, powers of two) analysed at the resolution taken, largest first: a portrait
 * too small for a tile of 128 (a card at half the width of a 720 x 1280 photo; a 12 MP photo of a
 * monitor at arm's length) is judged on tiles of 64.
 */
const TILE_SIDES: readonly number[] = [128, 64];
/** How far a face too small for the smallest tile may be grown around its centre to hold one (a face of 40 px and more). */
const MAX_GROWTH = 1.6;
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

/** A screen-pattern measure: the share (0-1) and the tile side it was measured on. */
export interface ScreenPattern {
  share: number;
  tile: number;
}

/**
 * The screen-pattern measure of a document photo: the median over tiles inside the portrait of
 * the share of fine-detail power in its strongest frequencies, on the largest tile the portrait
 * holds. `portrait` is the document's face box relative to the picture; null when the portrait
 * is too small at the resolution taken to hold the smallest tile (then nothing is judged).
 */
export async function screenPattern(bytes: Buffer, img: DecodedImage, portrait: Region): Promise<ScreenPattern | null> {
  const faceSide = Math.min(portrait.width * img.width, portrait.height * img.height);
  // A face smaller than the smallest tile is judged on a square grown around it to that tile's
  // side (at most MAX_GROWTH times the face's): the printed portrait's head, hair and backdrop.
  const smallest = TILE_SIDES[TILE_SIDES.length - 1]!;
  const side = faceSide < smallest && faceSide * MAX_GROWTH >= smallest ? smallest : faceSide;
  const TILE = TILE_SIDES.find((t) => side >= t);
  if (!TILE) return null;
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
  const spectrum = tileSpectrum(TILE);
  const shares: number[] = [];
  for (const [dx, dy] of TILE_OFFSETS) {
    const x0 = Math.round(cx + dx * side - TILE / 2) - left;
    const y0 = Math.round(cy + dy * side - TILE / 2) - top;
    if (x0 < 0 || y0 < 0 || x0 + TILE > grey.width || y0 + TILE > grey.height) continue;
    shares.push(peakShare(spectrum.tileOf(grey.pixels, grey.width, x0, y0)));
  }
  if (!shares.length) return null;
  shares.sort((a, b) => a - b);
  return { share: shares[Math.floor(shares.length / 2)]!, tile: TILE };
}

/** Whether a measure shows a screen: at or over the line. */
export const showsScreen = (m: ScreenPattern | null): boolean => m !== null && m.share >= SCREEN_PATTERN_LINE;

/** The transforms of one tile side, their tables computed once. */
interface TileSpectrum {
  /** A tile's grey levels, mean removed and Hann-windowed (so the tile's own edges add no false frequencies). */
  tileOf(pixels: Buffer, width: number, x0: number, y0: number): Float64Array;
  /** |FFT|^2 of a side x side picture. */
  power(tile: Float64Array): Float64Array;
}

const spectra = new Map<number, TileSpectrum>();

function tileSpectrum(side: number): TileSpectrum {
  let s = spectra.get(side);
  if (!s) spectra.set(side, (s = makeTileSpectrum(side)));
  return s;
}

function makeTileSpectrum(TILE: number): TileSpectrum {
  const HANN = Float64Array.from({ length: TILE }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / TILE));
  // The transform's twiddle factors: e^(-2 pi i k / TILE).
  const TWIDDLE_RE = Float64Array.from({ length: TILE / 2 }, (_, k) => Math.cos((-2 * Math.PI * k) / TILE));
  const TWIDDLE_IM = Float64Array.from({ length: TILE / 2 }, (_, k) => Math.sin((-2 * Math.PI * k) / TILE));

  /** In-place iterative radix-2 FFT of length TILE. */
  const fft = (re: Float64Array, im: Float64Array): void => {
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
  };

  return {
    tileOf(pixels, width, x0, y0) {
      const t = new Float64Array(TILE * TILE);
      let mean = 0;
      for (let y = 0; y < TILE; y++) for (let x = 0; x < TILE; x++) mean += t[y * TILE + x] = pixels[(y0 + y) * width + x0 + x]!;
      mean /= t.length;
      for (let y = 0; y < TILE; y++) for (let x = 0; x < TILE; x++) t[y * TILE + x] = (t[y * TILE + x]! - mean) * HANN[y]! * HANN[x]!;
      return t;
    },
    power(tile) {
      // Rows, then columns, of a radix-2 transform.
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
    },
  };
}

/**
 * Where a tile's fine detail is looked for: from a radius of an eighth of the tile's side (a
 * period of 8 px) out to `outer` of it, and how the JPEG's block grid is left out there.
 * - axial (`outer` a half): up to the axes' limit (a period of 2 px), the block grid's
 *   frequencies left out with the bins beside them, where the window spreads them (so a
 *   low-quality JPEG's blocking on smooth skin is never a peak).
 * - whole (`outer` 1/√2): out to the corners too (diagonal periods under 2 px: a screen's grid
 *   photographed near the sensor's own pitch, or turned a few degrees, puts its peaks there), and
 *   only the block grid's exact frequencies left out: a turned grid's peak beside one is kept.
 *   Measured on the retired held-out seeds (docs/pipeline.md, thirty-ninth round): 3 screens the
 *   axial band missed (one at a peak half a bin beside a block-grid frequency, two past the axes'
 *   limit) measure 0.35-0.40 here (0.08-0.15 in the axial band). On 797 portraits on paper the
 *   larger of the two is 0.18 at most on tiles of 64 and 0.14 on tiles of 128 (the axial band
 *   alone: 0.18 and 0.13).
 */
interface Band {
  /** The band's outer radius, a share of the tile's side. */
  outer: number;
  /** The block grid's frequencies left out with the bins beside them, or alone. */
  jpegGrid: 'with-neighbours' | 'exact';
}
const BANDS: readonly Band[] = [
  { outer: 0.5, jpegGrid: 'with-neighbours' }, // axial
  { outer: Math.SQRT1_2, jpegGrid: 'exact' }, // whole
];

/**
 * The share of a square tile's fine-detail power held by its PEAKS strongest frequencies, in
 * whichever band (`BANDS`) holds the larger share. The tile's side (a power of two) is that of its
 * pixel count's root.
 */
export function peakShare(tile: Float64Array): number {
  const TILE = Math.round(Math.sqrt(tile.length));
  const power = tileSpectrum(TILE).power(tile);
  return Math.max(...BANDS.map((band) => shareInBand(power, TILE, band)));
}

function shareInBand(power: Float64Array, TILE: number, band: Band): number {
  const ring: number[] = [];
  let total = 0;
  const blockGrid = band.jpegGrid === 'exact' ? onJpegGridExactly : onJpegGrid;
  // Half the plane: a real picture's spectrum is symmetric.
  for (let v = 0; v < TILE; v++) {
    const fv = v < TILE / 2 ? v : v - TILE;
    for (let u = 0; u <= TILE / 2; u++) {
      const r = Math.hypot(u, fv);
      if (r < TILE / 8 || r > TILE * band.outer || (blockGrid(u, TILE) && blockGrid(fv, TILE))) continue;
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
function onJpegGrid(f: number, tile: number): boolean {
  // A tile's side over 8: the spacing of the block grid's frequencies.
  const k = Math.abs(f) % (tile / 8);
  return k <= 1 || k === tile / 8 - 1;
}

/** The block grid's own frequencies only (multiples of TILE/8). */
const onJpegGridExactly = (f: number, tile: number): boolean => Math.abs(f) % (tile / 8) === 0;
