import { laplacianVariance } from '@service/contract';
import sharp from 'sharp';
import { asDecoded, fromDecoded, type DecodedImage } from './decode.js';

/**
 * Image quality judged per kind of image (a document photo or a selfie), each problem with its
 * own reason: blur is `blurry_image` only, darkness `image_too_dark`, burn-out `glare`, too few
 * pixels `low_resolution` (decisions.md "Verdict reasons (additions)").
 */

/** Brightness, darkness and burn-out are measured on a grey copy at most this wide (never upscaled). */
export const QUALITY_WIDTH = 1024;

export type ImageKind = 'document' | 'selfie';
export type QualityProblem = 'blurry_image' | 'image_too_dark' | 'glare' | 'low_resolution';

/**
 * Blur is measured at a fixed width per kind, where sensor noise is averaged away but a lens
 * out of focus still shows: print on a document keeps sharp edges at 512 px, a face at 256 px.
 * Measured at full size, a blurred photo with grain scores as sharp as a clean one.
 */
export const SHARPNESS_WIDTH: Record<ImageKind, number> = { document: 512, selfie: 256 };

export interface ImageQuality {
  /**
   * Variance of the Laplacian of the grey image at SHARPNESS_WIDTH px wide, scaled to a contrast
   * of 128 grey levels (2nd to 98th percentile): a dim but sharp photo is not called blurry.
   */
  sharpness: number;
  /** Mean grey level 0-255. */
  brightness: number;
  /** The 98th percentile of grey (the paper's white, the lit side of a face): what darkness is judged on. */
  highlights: number;
  /** The 0.1th percentile of grey: the darkest print (a small card in a large frame holds little of it), dark unless washed out. */
  darkest: number;
  /**
   * Share of the picture under its largest reflection: a burnt-out patch (8 x 8 blocks with a mean of
   * 248 or more, joined into a patch of at least 0.4% of the picture) that lies inside the picture and hides what is under it.
   * Patches joined to the picture's edge are background (a white desk); a jagged patch (under 75%
   * of its convex hull) is paper burnt out between lines of print. A patch that keeps print
   * inside it (more than 10% of the blocks within its outline not burnt out) is over-exposed paper
   * between legible print, not a reflection: on the dev split reflections over the fields keep
   * 0-6% inside, over-exposed pale cards 13-48%. A reflection on a pale card may join the card's own
   * burnt-out paper into one jagged patch; its core is then found apart (`reflections`, on a sharp picture only).
   * A patch or core with paper nearly burnt out beside it and dark print there is over-exposed paper
   * whatever its shape (`overExposedPaper`): a reflection's light lifts the print around it.
   */
  clipped: number;
  /**
   * Share of the picture under its largest reflection shaped as a lamp's image: a patch counted in
   * `clipped` that is an ellipse (it fills LAMP_SOLIDITY of its convex hull or more, and its box is
   * at most LAMP_ASPECT times as long as wide). Blank paper burnt out is a strip along a margin or
   * between lines of print, never so round: a smaller patch of this shape is already a reflection.
   */
  lampShaped: number;
  /** Oriented size as taken. */
  width: number;
  height: number;
}

export interface QualityThresholds {
  /** Below: blurry. */
  minSharpness: number;
  /** Highlights (98th percentile) below: too dark. */
  minHighlights: number;
  /** Share under reflections above: glare. */
  maxClipped: number;
  /** Share under a lamp-shaped reflection above: glare. */
  maxLampShaped: number;

  /** Short side below: too few pixels to judge. */
  minShortSide: number;
}

/**
 * Per kind, set on the evaluation set's dev split (docs/pipeline.md). A document must carry
 * legible text: 640 x 480 is the smallest photo accepted. A selfie only has to show a face: a VGA
 * webcam (480 x 640 or 640 x 480) is fine, 320 x 240 is not. Darkness is judged on the
 * highlights, not the mean: a card on a dark desk or a face lit by a dim lamp still has a white
 * or a lit side (dev: genuine documents 167 or more, genuine selfies under a poor lamp 86 or more;
 * photos taken in the dark 41 or less). Sharpness (contrast-normalised, dev): genuine documents
 * 280 or more at 512 px, blurred ones 25 or less; genuine selfies 145 or more at 256 px, blurred
 * ones 10 or less. A reflection over the printed fields covers 1.4-9% of the photo (dev, 14
 * cases); among 180 genuine captures of dev, over-exposed paper left at most 1.04% in patches
 * without print inside (a blank margin along a card's edge): the line is 1.2%. A patch shaped as a
lamp's image (`lampShaped`) has half that line: two reflections of 1.17% and 1.2% of the photo (a
small card in a large frame) had gone unreported. A picture is
 * washed out (glare) when even its darkest print is pale, the 0.1th percentile over 100, and sharp
 * (a small card on a white desk has a bright 5th percentile, but dark print).
 */
export const QUALITY_THRESHOLDS: Record<ImageKind, QualityThresholds> = {
  document: {
    minSharpness: 80,
    minHighlights: 80,
    maxClipped: 0.012,
    maxLampShaped: 0.006,
    minShortSide: 480,
  },
  selfie: {
    minSharpness: 50,
    minHighlights: 60,
    maxClipped: 0.25,
    maxLampShaped: 0.25,
    minShortSide: 400,
  },
};

/** Measures one image (decoded pixels, or bytes decoded under the pipeline's policy) for its kind. */
export async function measureQuality(input: Buffer | DecodedImage, kind: ImageKind = 'document'): Promise<ImageQuality> {
  const img = await asDecoded(input);
  const { data, info } = await fromDecoded(img)
    .resize({ width: Math.min(QUALITY_WIDTH, img.pixelWidth) })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const hist = new Array<number>(256).fill(0);
  let sum = 0;
  for (const v of data) {
    sum += v;
    hist[v]!++;
  }
  const percentile = (p: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) if ((seen += hist[v]!) >= p * data.length) return v;
    return 255;
  };
  const highlights = percentile(0.98);
  const darkest = percentile(0.001);
  const small = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .resize({ width: Math.min(SHARPNESS_WIDTH[kind], info.width) })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const contrast = Math.max(16, highlights - percentile(0.02));
  const sharpness = laplacianVariance(small.data, small.info.width, small.info.height) / (contrast / 128) ** 2;
  return {
    sharpness,
    brightness: sum / data.length,
    highlights,
    darkest,
    // Defocus fades every edge as a lamp's halo fades (a blurred pale card's blank paper was taken
    // for a reflection, and its blur went unreported): halos are judged on sharp pictures only.
    ...burntOut(data, info.width, info.height, sharpness >= QUALITY_THRESHOLDS[kind].minSharpness),
    width: img.width,
    height: img.height,
  };
}

/**
 * The share of the picture under reflections (see `ImageQuality.clipped`). Blocks, not pixels:
 * JPEG ringing beside dark print on light paper leaves single pixels at 250+, a reflection burns
 * out whole patches.
 */
function burntOut(grey: Buffer, w: number, h: number, judgeHalos: boolean): { clipped: number; lampShaped: number } {
  const cols = Math.floor(w / BLOCK);
  const rows = Math.floor(h / BLOCK);
  if (!cols || !rows) return { clipped: 0, lampShaped: 0 };
  const burnt = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let s = 0;
      for (let y = r * BLOCK; y < r * BLOCK + BLOCK; y++) for (let x = c * BLOCK; x < c * BLOCK + BLOCK; x++) s += grey[y * w + x]!;
      if (s / (BLOCK * BLOCK) >= 248) burnt[r * cols + c] = 1;
    }
  }
  const around = bandsAround(grey, w, cols, rows);
  let hidden = 0;
  let lamp = 0;
  for (const { blocks: patch, edge } of patchesOf(burnt, cols, rows, new Uint8Array(cols * rows))) {
    // A reflection that matters is one patch of some size; over-exposed paper breaks into many
    // small ones between the lines of print. So the largest counts, not their sum: a pale card's
    // four strips of blank paper, none 0.9% of the picture, had summed to 2.5% (a genuine user
    // sent to review for glare).
    if (edge || patch.length < MIN_PATCH * cols * rows) continue;
    // A reflection is the image of a lamp or a window: one convex blob or streak. Paper burnt out
    // along the print follows the print's gaps and is jagged (dev, measured: 11 reflections over the
    // fields fill 85-95% of their convex hull, 5 over-exposed pale cards 51-58%).
    const solidity = patch.length / hullArea(patch, cols);
    if (solidity < MIN_SOLIDITY) continue;
    const span = new Map<number, [number, number]>();
    for (const i of patch) {
      const r = Math.floor(i / cols);
      const c = i % cols;
      const [lo, hi] = span.get(r) ?? [c, c];
      span.set(r, [Math.min(lo, c), Math.max(hi, c)]);
    }
    let within = 0;
    for (const [lo, hi] of span.values()) within += hi - lo + 1;
    // Print left inside the outline: over-exposed paper, which hides nothing.
    if ((within - patch.length) / within > MAX_PRINT_INSIDE) continue;
    if (overExposedPaper(around(patch, 1)[0]!)) continue;
    hidden = Math.max(hidden, patch.length);
    const boxW = Math.max(...[...span.values()].map(([, hi]) => hi)) - Math.min(...[...span.values()].map(([lo]) => lo)) + 1;
    const boxH = span.size;
    if (solidity >= LAMP_SOLIDITY && Math.max(boxW, boxH) <= LAMP_ASPECT * Math.min(boxW, boxH)) lamp = Math.max(lamp, patch.length);
  }
  return {
    clipped: Math.max(hidden / (cols * rows), judgeHalos ? reflections(around, burnt, cols, rows) : 0),
    lampShaped: lamp / (cols * rows),
  };
}

/**
 * The share of the picture under the largest reflection found by its halo, whatever burnt-out
 * paper it touches. The burnt-out blocks are opened (eroded, then grown back, by REFLECTION_CORE blocks):
 * strips of paper between lines of print vanish, the solid core of a reflection stays (so does a
 * blank part of an over-exposed card). A core is a reflection when the paper around it fades as
 * a lamp's image does, from the core on: the paper's level (the upper quartile of each block,
 * above the print) in bands of 2 blocks around the core is nearly burnt out next to it and falls
 * by HALO_MIN_FALL or more over the next two bands, by no more than HALO_MAX_STEP from one band
 * to the next. A blank area of an over-exposed card is bordered by paper as bright as itself, or
 * by the card's edge, where the level drops at once. Measured on dev and on 540 genuine and 70
 * glare cases of retired held-out seeds: of the 9 reflections over the fields that the patch rules
 * above missed, 5 fade so; no core of 900 genuine fronts does (3 whose level falls only from the
 * third band on, a background beyond a blank margin, would with a third band counted). A core is
 * also a reflection when the print around it fades as under a halo (`printFadesAsHalo`), even
 * joined to the picture's edge (a reflection running into a burnt-out desk), where paper fading
 * proves nothing: a desk lit by a lamp fades so.
 */
function reflections(around: BandsAround, burnt: Uint8Array, cols: number, rows: number): number {
  const core = grow(shrink(burnt, cols, rows, REFLECTION_CORE), cols, rows, REFLECTION_CORE);
  let largest = 0;
  for (const patch of patchesOf(core, cols, rows, new Uint8Array(core.length))) {
    if (patch.blocks.length < MIN_PATCH * cols * rows) continue;
    const bands = around(patch.blocks, 3);
    if (overExposedPaper(bands[0]!)) continue;
    const paper = bands.map((b) => b.paper) as [number, number, number];
    const print = bands.map((b) => b.print ?? 0) as [number, number, number];
    // A core joined to the picture's edge may be a lit background (a white desk), whose level
    // fades as a halo's does: only print fading around it tells a reflection there.
    if ((!patch.edge && fadesAsHalo(paper)) || (bands[0]!.printed >= HALO_MIN_PRINTED && printFadesAsHalo(print))) {
      largest = Math.max(largest, patch.blocks.length);
    }
  }
  return largest / (cols * rows);
}

/** One band of blocks around a patch: its median paper level, and the median print level of its blocks that hold print. */
interface Band {
  paper: number;
  /** Null when no block of the band holds print. */
  print: number | null;
  /** How many of its blocks hold print (their 5th percentile PRINT_CONTRAST or more under their paper level). */
  printed: number;
}

/** The first `count` bands of 2 blocks around a patch of blocks, nearest first. */
type BandsAround = (blocks: number[], count: number) => Band[];

/** Bands around patches of one picture, each block's paper (upper quartile) and print (5th percentile) levels measured once. */
function bandsAround(grey: Buffer, w: number, cols: number, rows: number): BandsAround {
  const paper = new Float32Array(cols * rows).fill(-1);
  const print = new Float32Array(cols * rows);
  const measure = (i: number) => {
    if (paper[i]! >= 0) return;
    const r = Math.floor(i / cols);
    const c = i % cols;
    const values: number[] = [];
    for (let y = r * BLOCK; y < (r + 1) * BLOCK; y++) for (let x = c * BLOCK; x < (c + 1) * BLOCK; x++) values.push(grey[y * w + x]!);
    values.sort((a, b) => a - b);
    paper[i] = values[Math.floor(0.75 * values.length)]!;
    print[i] = values[Math.floor(0.05 * values.length)]!;
  };
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return (blocks, count) => {
    let inner: Uint8Array = new Uint8Array(cols * rows);
    for (const i of blocks) inner[i] = 1;
    const bands: Band[] = [];
    for (let band = 0; band < count; band++) {
      const outer = grow(inner, cols, rows, 2);
      const papers: number[] = [];
      const prints: number[] = [];
      for (let i = 0; i < outer.length; i++) {
        if (!outer[i] || inner[i]) continue;
        measure(i);
        papers.push(paper[i]!);
        if (paper[i]! - print[i]! >= PRINT_CONTRAST) prints.push(print[i]!);
      }
      bands.push({ paper: median(papers) ?? 0, print: median(prints) ?? null, printed: prints.length });
      inner = outer;
    }
    return bands;
  };
}

/**
 * Whether the band next to a burnt-out patch shows over-exposed paper rather than a reflection:
 * paper nearly burnt out there too, and print beside it as dark as print is (a reflection's light
 * lifts the print next to it, over-exposure does not). Measured on six retired held-out seeds: of
 * 79 reflections over the fields of 0.6% of the photo or more, the print next to 77 has a median of
 * 170 or more (the other two, under 1% and beside a larger reflection, do not decide). Of 14 of
 * 720 genuine captures of four seeds sent to review for glare, 8 were so only by patches with paper
 * of 245 or more and print under 160 beside them (beside the others' the print is pale, or there is
 * none, or the paper is darker).
 */
function overExposedPaper(near: Band): boolean {
  return near.paper >= OVEREXPOSED_PAPER && near.printed >= HALO_MIN_PRINTED && near.print! < DARK_PRINT;
}

/** Whether paper levels in bands around a burnt-out core (nearest first) fade as a reflection's halo does (see `reflections`). */
export function fadesAsHalo(levels: readonly [number, number, number]): boolean {
  const [near, middle, far] = levels;
  return near >= HALO_MIN_NEAR && near - far >= HALO_MIN_FALL && Math.max(near - middle, middle - far) <= HALO_MAX_STEP;
}

/**
 * Whether print levels in bands around a burnt-out core (nearest first) fade as under a
 * reflection's halo: a lamp's light adds to the print, lifting it to a light grey next to the
 * core and less so further out; over-exposure multiplies, and print beside over-exposed paper
 * stays dark. So print pale next to the core (PRINT_HALO_MIN_NEAR) and darkening by at least
 * PRINT_HALO_MIN_STEP from band to band, but by no more than PRINT_HALO_MAX_STEP (a card's edge
 * or a dark background beyond).
 */
export function printFadesAsHalo(levels: readonly [number, number, number]): boolean {
  const [near, middle, far] = levels;
  const steps = [near - middle, middle - far];
  return near >= PRINT_HALO_MIN_NEAR && steps.every((d) => d >= PRINT_HALO_MIN_STEP && d <= PRINT_HALO_MAX_STEP);
}

/** The 4-connected patches of set blocks not yet `seen` (marked as they are taken), each with whether it reaches the picture's edge. */
function* patchesOf(mask: Uint8Array, cols: number, rows: number, seen: Uint8Array): Generator<{ blocks: number[]; edge: boolean }> {
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    const blocks: number[] = [];
    const stack = [start];
    seen[start] = 1;
    let edge = false;
    while (stack.length) {
      const i = stack.pop()!;
      blocks.push(i);
      const r = Math.floor(i / cols);
      const c = i % cols;
      if (r === 0 || c === 0 || r === rows - 1 || c === cols - 1) edge = true;
      for (const j of [r > 0 ? i - cols : -1, r < rows - 1 ? i + cols : -1, c > 0 ? i - 1 : -1, c < cols - 1 ? i + 1 : -1]) {
        if (j >= 0 && mask[j] && !seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    yield { blocks, edge };
  }
}

/** The blocks whose square of side 2r + 1 lies wholly in the mask (outside the picture counts as unset). */
function shrink(mask: Uint8Array, cols: number, rows: number, r: number): Uint8Array {
  return squareFilter(mask, cols, rows, r, (set, size) => set === size);
}

/** The blocks whose square of side 2r + 1 touches the mask. */
function grow(mask: Uint8Array, cols: number, rows: number, r: number): Uint8Array {
  return squareFilter(mask, cols, rows, r, (set) => set > 0);
}

/** A square filter done as a row pass then a column pass of counts (`keep(set, size)` per pass). */
function squareFilter(mask: Uint8Array, cols: number, rows: number, r: number, keep: (set: number, size: number) => boolean): Uint8Array {
  const size = 2 * r + 1;
  const pass = (src: Uint8Array, along: 'row' | 'col') => {
    const out = new Uint8Array(src.length);
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        let set = 0;
        for (let d = -r; d <= r; d++) {
          const xx = along === 'row' ? x + d : x;
          const yy = along === 'col' ? y + d : y;
          if (xx >= 0 && xx < cols && yy >= 0 && yy < rows) set += src[yy * cols + xx]!;
        }
        out[y * cols + x] = keep(set, size) ? 1 : 0;
      }
    }
    return out;
  };
  return pass(pass(mask, 'row'), 'col');
}

/** The area of the convex hull of a patch's blocks (their corners, in blocks), by Andrew's monotone chain. */
function hullArea(patch: number[], cols: number): number {
  const corners = patch
    .flatMap((i) => {
      const x = i % cols;
      const y = Math.floor(i / cols);
      return [
        [x, y],
        [x + 1, y],
        [x, y + 1],
        [x + 1, y + 1],
      ] as [number, number][];
    })
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (points: [number, number][]) => {
    const chain: [number, number][] = [];
    for (const p of points) {
      while (chain.length >= 2 && cross(chain[chain.length - 2]!, chain[chain.length - 1]!, p) <= 0) chain.pop();
      chain.push(p);
    }
    return chain.slice(0, -1);
  };
  const hull = [...half(corners), ...half([...corners].reverse())];
  let twice = 0;
  for (let k = 0; k < hull.length; k++) {
    const [a, b] = [hull[k]!, hull[(k + 1) % hull.length]!];
    twice += a[0] * b[1] - b[0] * a[1];
  }
  return Math.abs(twice) / 2;
}
/** Burn-out is judged on blocks of this many pixels square (of the grey copy at QUALITY_WIDTH). */
const BLOCK = 8;
/** Share of its convex hull a burnt-out patch must fill to be a reflection (see `burntOut`). */
const MIN_SOLIDITY = 0.75;
/**
 * A lamp's image: an ellipse fills 0.88-0.97 of its convex hull in blocks, its box 1.1-1.5 times as
 * long as wide (84 reflections over the fields of six retired held-out seeds). No patch of blank
 * paper in 720 genuine captures of four of them is so shaped (the roundest fill 0.87 of their hull,
 * two or more times as long as wide).
 */
const LAMP_SOLIDITY = 0.9;
const LAMP_ASPECT = 1.6;
/** Share of a burnt-out patch's outline that may stay unburnt (print) for it to be a reflection. */
const MAX_PRINT_INSIDE = 0.1;
/** Smallest patch counted, as a share of the picture (half a glare line's worth). */
const MIN_PATCH = 0.004;
/** Blocks shaved off burnt-out patches (and grown back) to find a reflection's core: strips of paper narrower than 5 blocks go. */
const REFLECTION_CORE = 2;
/** A reflection's halo: the paper next to its core at least this bright, ... */
const HALO_MIN_NEAR = 240;
/** ... falling by at least this over the two bands of 2 blocks beyond ... */
const HALO_MIN_FALL = 15;
/** ... and by no more than this from one band to the next (a card's edge drops at once). */
const HALO_MAX_STEP = 35;

/** A block holds print when its 5th percentile is this far under its paper level (upper quartile). */
const PRINT_CONTRAST = 25;
/** Blocks holding print next to a core for its print levels to be judged. */
const HALO_MIN_PRINTED = 10;
/**
 * Print under a reflection's halo (see `printFadesAsHalo`), measured on 84 reflections over the
 * fields of six retired held-out seeds: next to the core 180-210, falling by 28-71 per band of 2
 * blocks. Around the cores of 720 genuine captures of four: never 175 or more next to the core
 * and falling by 25 or more in both bands; the one falling at all fell 46 then 162 (a dark
 * background beyond a margin).
 */
const PRINT_HALO_MIN_NEAR = 175;
const PRINT_HALO_MIN_STEP = 25;
const PRINT_HALO_MAX_STEP = 90;
/** Over-exposed paper (see `overExposedPaper`): the paper next to the patch this bright or more, ... */
const OVEREXPOSED_PAPER = 245;
/** ... and the print there darker than this. */
const DARK_PRINT = 160;

/** The darkest print (0.1th percentile) above: nothing dark left in the picture. */
const WASHED_OUT_DARKEST = 100;

/**
 * `image_quality` in [0, 1] and the problems found. Each aspect scores 1 when comfortably fine
 * (sharpness at 2x its line, highlights 40 above the dark line, burnt-out share under half of
 * its line, short side 1.2x its minimum) and falls linearly to 0 at its line; the score is the
 * worst aspect. A problem is reported only past its line, so the reason names the real cause.
 */
export function judgeQuality(q: ImageQuality, kind: ImageKind): { score: number; problems: QualityProblem[] } {
  const t = QUALITY_THRESHOLDS[kind];
  const ramp = (value: number, bad: number, good: number) => Math.max(0, Math.min(1, (value - bad) / (good - bad)));
  const shortSide = Math.min(q.width, q.height);
  // Print that stays crisp but pale: a veil over the whole picture (blur greys print too, but softly).
  const washedOut = q.darkest > WASHED_OUT_DARKEST && q.sharpness >= t.minSharpness;
  const aspects = {
    blurry_image: ramp(q.sharpness, t.minSharpness, t.minSharpness * 2),
    image_too_dark: ramp(q.highlights, t.minHighlights, t.minHighlights + 40),
    glare: washedOut
      ? 0
      : Math.min(ramp(-q.clipped, -t.maxClipped, -t.maxClipped / 2), ramp(-q.lampShaped, -t.maxLampShaped, -t.maxLampShaped / 2)),
    low_resolution: ramp(shortSide, t.minShortSide, t.minShortSide * 1.2),
  };
  const problems: QualityProblem[] = [];
  if (shortSide < t.minShortSide) problems.push('low_resolution');
  if (q.highlights < t.minHighlights) problems.push('image_too_dark');
  if (washedOut || q.clipped > t.maxClipped || q.lampShaped > t.maxLampShaped) problems.push('glare');
  // A dark, washed-out or tiny image also measures soft: blur is reported only when nothing else explains it.
  if (q.sharpness < t.minSharpness && problems.length === 0) problems.push('blurry_image');
  const score = Math.min(...Object.values(aspects));
  return { score: Math.round(score * 1000) / 1000, problems };
}
