import type { Region } from '../../decode/decode.js';
import { DOCUMENT_QUALITY_LINES as LINES } from '@service/contract';
import { QUALITY_TUNING } from './quality-tuning.js';

/**
 * Reflections on a photo: burnt-out patches told from over-exposed paper and a lit background by
 * their shape, by what is left inside them and by how the paper and the print around them fade
 * (`ImageQuality.clipped` and `lampShaped` in image-quality.ts, which judges them).
 */

/**
 * The share of an RGB region's pixels burnt out (luma `BURNT_OUT_LEVEL` or more), for a region too small for
 * blocks: the middle of a document portrait's face, where a reflection leaves the face match
 * nothing to compare (`portraitCore`).
 */
export function burntOutShare(rgb: Buffer): number {
  const n = Math.floor(rgb.length / 3);
  if (!n) return 0;
  let burnt = 0;
  for (let i = 0; i < n * 3; i += 3) if (0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]! >= BURNT_OUT_LEVEL) burnt++;
  return burnt / n;
}

/** The middle 60% of a face box (relative, [x, y, w, h]): the face itself, without hair or background. */
export function portraitCore(box: FaceBox): Region {
  return spanOfFaceBox(box, { left: 0.2, right: 0.8, top: 0.2, bottom: 0.8 });
}

/**
 * The portrait photo around a face box (relative, [x, y, w, h]): hair, shoulders and the photo's
 * own background (0.6 of the box's width each side, 0.6 of its height above and its height
 * below), which `burntOut` leaves out of the print around a burnt-out core (see there).
 */
export function portraitAround(box: FaceBox): Region {
  return spanOfFaceBox(box, { left: -0.6, right: 1.6, top: -0.6, bottom: 2 });
}

type FaceBox = readonly [number, number, number, number];

/** The region from `span`'s edges (in the box's width and height from its top left corner), within the picture. */
function spanOfFaceBox([x, y, w, h]: FaceBox, span: { left: number; right: number; top: number; bottom: number }): Region {
  const left = Math.max(0, x + span.left * w);
  const top = Math.max(0, y + span.top * h);
  return {
    left,
    top,
    width: Math.max(0, Math.min(1, x + span.right * w) - left),
    height: Math.max(0, Math.min(1, y + span.bottom * h) - top),
  };
}

export const PORTRAIT_GLARE_SHARE = QUALITY_TUNING.burnOut.portraitGlareShare;

/**
 * The share of the picture under reflections (see `ImageQuality.clipped`). Blocks, not pixels:
 * JPEG ringing beside dark print on light paper leaves single pixels at 250+, a reflection burns
 * out whole patches.
 */
export function burntOut(
  grey: Buffer,
  w: number,
  h: number,
  judgeHalos: boolean,
  portrait?: Region,
): { clipped: number; lampShaped: number } {
  const cols = Math.floor(w / BLOCK);
  const rows = Math.floor(h / BLOCK);
  if (!cols || !rows) return { clipped: 0, lampShaped: 0 };
  const burnt = new Uint8Array(cols * rows);
  const saturated = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let s = 0;
      for (let y = r * BLOCK; y < r * BLOCK + BLOCK; y++) for (let x = c * BLOCK; x < c * BLOCK + BLOCK; x++) s += grey[y * w + x]!;
      const mean = s / (BLOCK * BLOCK);
      if (mean >= BURNT_OUT_LEVEL) burnt[r * cols + c] = 1;
      if (mean >= QUALITY_TUNING.burnOut.saturatedLevel) saturated[r * cols + c] = 1;
    }
  }
  const around = bandsAround(grey, w, cols, rows, portrait && blocksOf(portrait, cols, rows));
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
    const { bands } = around(patch, 3);
    if (overExposedPaper(bands[0]!) || evenlyLitBlankPaper(bands)) continue;
    hidden = Math.max(hidden, patch.length);
    const boxW = Math.max(...[...span.values()].map(([, hi]) => hi)) - Math.min(...[...span.values()].map(([lo]) => lo)) + 1;
    const boxH = span.size;
    if (solidity >= LAMP_SOLIDITY && Math.max(boxW, boxH) <= LAMP_ASPECT * Math.min(boxW, boxH)) lamp = Math.max(lamp, patch.length);
  }
  return {
    // A cream card's paper burns out at 248-252 and joins a reflection over it into one core the
    // size of the card, bordered by the card's dark print; the reflection itself saturates, and
    // its saturated core, found apart, is bordered by its own halo.
    clipped: Math.max(
      hidden / (cols * rows),
      judgeHalos ? Math.max(reflections(around, burnt, cols, rows), reflections(around, saturated, cols, rows)) : 0,
    ),
    lampShaped: lamp / (cols * rows),
  };
}

/**
 * The share of the picture under the largest reflection found by its halo, whatever burnt-out
 * paper it touches. The burnt-out blocks are opened (eroded, then grown back, by QUALITY_TUNING.burnOut.reflectionCore blocks):
 * strips of paper between lines of print vanish, the solid core of a reflection stays (so does a
 * blank part of an over-exposed card). A core is a reflection when the paper around it fades as
 * a lamp's image does, from the core on: the paper's level (the upper quartile of each block,
 * above the print) in bands of 2 blocks around the core is nearly burnt out next to it and falls
 * by QUALITY_TUNING.burnOut.haloMinFall or more over the next two bands, by no more than QUALITY_TUNING.burnOut.haloMaxStep from one band
 * to the next. A blank area of an over-exposed card is bordered by paper as bright as itself, or
 * by the card's edge, where the level drops at once. Measured on dev and on 540 genuine and 70
 * glare cases of retired held-out seeds: of the 9 reflections over the fields that the patch rules
 * above missed, 5 fade so; no core of 900 genuine fronts does (3 whose level falls only from the
 * third band on, a background beyond a blank margin, would with a third band counted). A core is
 * also a reflection when the print all round it fades as under a halo (`printFadesAsHalo`), or
 * the print on one side of it is lifted (`printLiftedBeside`), even joined to the picture's edge
 * (a reflection running into a burnt-out desk), where paper fading proves nothing: a desk lit by a
 * lamp fades so.
 */
function reflections(around: BandsAround, burnt: Uint8Array, cols: number, rows: number): number {
  const core = grow(shrink(burnt, cols, rows, QUALITY_TUNING.burnOut.reflectionCore), cols, rows, QUALITY_TUNING.burnOut.reflectionCore);
  let largest = 0;
  for (const patch of patchesOf(core, cols, rows, new Uint8Array(core.length))) {
    if (patch.blocks.length < MIN_PATCH * cols * rows) continue;
    const { bands, sectors } = around(patch.blocks, 3);
    // Print lifted around the core, all round or on one side, is a reflection's light whatever
    // the paper: over-exposure multiplies and leaves print dark. One side is enough: a reflection
    // joined to a pale card's burnt-out paper is bordered elsewhere by that paper's dark print,
    // which darkens the medians all round.
    const printHalo = bandsFadeAsHalo(bands) || sectors.some(printLiftedBeside);
    if (!printHalo && overExposedPaper(bands[0]!)) continue;
    const paper = bands.map((b) => b.paper) as [number, number, number];
    // A core joined to the picture's edge may be a lit background (a white desk), whose level
    // fades as a halo's does: only print fading around it tells a reflection there.
    if (printHalo || (!patch.edge && fadesAsHalo(paper))) largest = Math.max(largest, patch.blocks.length);
  }
  return largest / (cols * rows);
}

/** One band of blocks around a patch: its median paper level, and the median print level of its blocks that hold print. */
interface Band extends PrintBand {
  paper: number;
}

/** The print of one band of blocks (within one angle, its paper is not judged). */
interface PrintBand {
  /** Null when no block of the band holds print. */
  print: number | null;
  /** How many of its blocks hold print (their 5th percentile QUALITY_TUNING.burnOut.printContrast or more under their paper level). */
  printed: number;
}

/** Whether the print of bands all round a core (nearest first) fades as under a halo, with enough print next to the core to judge. */
function bandsFadeAsHalo(bands: readonly Band[]): boolean {
  const print = bands.map((b) => b.print ?? 0) as [number, number, number];
  return bands[0]!.printed >= QUALITY_TUNING.burnOut.haloMinPrinted && printFadesAsHalo(print);
}

/**
 * Whether the print within one angle around a core is lifted next to it and darker one band out:
 * a reflection's light seen on one side, where its further fade may run into darker print (a
 * field's value beyond its grey label).
 */
function printLiftedBeside([near, next]: readonly PrintBand[]): boolean {
  if (near!.printed < QUALITY_TUNING.burnOut.sectorMinPrinted || near!.print === null || next!.print === null) return false;
  return near!.print >= QUALITY_TUNING.burnOut.sectorLiftedPrint && isHaloStep(near!.print - next!.print);
}

/**
 * The first `count` bands of 2 blocks around a patch of blocks, nearest first: all round, and cut
 * into QUALITY_TUNING.burnOut.sectors equal angles around the patch's centre (`sectors[k]`, the same bands within one angle).
 */
type BandsAround = (blocks: number[], count: number) => { bands: Band[]; sectors: PrintBand[][] };

/**
 * Bands around patches of one picture, each block's paper (upper quartile) and print (5th
 * percentile) levels measured once; blocks `left` out (a portrait's) belong to no band.
 */
function bandsAround(grey: Buffer, w: number, cols: number, rows: number, left?: Uint8Array): BandsAround {
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
  const printOf = (prints: number[]): PrintBand => ({ print: median(prints) ?? null, printed: prints.length });
  return (blocks, count) => {
    let inner: Uint8Array = new Uint8Array(cols * rows);
    let cx = 0;
    let cy = 0;
    for (const i of blocks) {
      inner[i] = 1;
      cx += i % cols;
      cy += Math.floor(i / cols);
    }
    cx /= blocks.length;
    cy /= blocks.length;
    const bands: Band[] = [];
    const sectors: PrintBand[][] = Array.from({ length: QUALITY_TUNING.burnOut.sectors }, () => []);
    for (let band = 0; band < count; band++) {
      const outer = grow(inner, cols, rows, 2);
      const papers: number[] = [];
      const prints: number[] = [];
      const byAngle = Array.from({ length: QUALITY_TUNING.burnOut.sectors }, () => [] as number[]);
      for (let i = 0; i < outer.length; i++) {
        if (!outer[i] || inner[i] || left?.[i]) continue;
        measure(i);
        papers.push(paper[i]!);
        if (paper[i]! - print[i]! >= QUALITY_TUNING.burnOut.printContrast) {
          const angle = Math.atan2(Math.floor(i / cols) - cy, (i % cols) - cx);
          prints.push(print[i]!);
          byAngle[Math.floor(((angle + Math.PI) / (2 * Math.PI)) * QUALITY_TUNING.burnOut.sectors) % QUALITY_TUNING.burnOut.sectors]!.push(
            print[i]!,
          );
        }
      }
      bands.push({ paper: median(papers) ?? 0, ...printOf(prints) });
      byAngle.forEach((prints, k) => sectors[k]!.push(printOf(prints)));
      inner = outer;
    }
    return { bands, sectors };
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
  return (
    near.paper >= QUALITY_TUNING.burnOut.overexposedPaper &&
    near.printed >= QUALITY_TUNING.burnOut.haloMinPrinted &&
    near.print! < QUALITY_TUNING.burnOut.darkPrint
  );
}

/**
 * Whether the bands around a burnt-out patch show blank paper lit evenly past the burn-out level:
 * no print in the two bands next to it, the paper there nearly burnt out and not fading as a
 * halo does. A lamp's image fades from its core; a pale card's blank paper lit a little too
 * brightly stays as bright beyond the patch (a patch of 1.2% beside the fields,
 * its paper at 247, 247 and 246 for three bands: a genuine user in review for glare). Of
 * 70 reflections of four splits (dev and three retired held-out ones), none is bordered so.
 */
function evenlyLitBlankPaper([near, middle, far]: readonly Band[]): boolean {
  return (
    near!.printed === 0 &&
    middle!.printed === 0 &&
    near!.paper >= QUALITY_TUNING.burnOut.overexposedPaper &&
    !fadesAsHalo([near!.paper, middle!.paper, far!.paper])
  );
}

/** Whether paper levels in bands around a burnt-out core (nearest first) fade as a reflection's halo does (see `reflections`). */
export function fadesAsHalo(levels: readonly [number, number, number]): boolean {
  const [near, middle, far] = levels;
  return (
    near >= QUALITY_TUNING.burnOut.haloMinNear &&
    near - far >= QUALITY_TUNING.burnOut.haloMinFall &&
    Math.max(near - middle, middle - far) <= QUALITY_TUNING.burnOut.haloMaxStep
  );
}

/**
 * Whether print levels in bands around a burnt-out core (nearest first) fade as under a
 * reflection's halo: a lamp's light adds to the print, lifting it to a light grey next to the
 * core and less so further out; over-exposure multiplies, and print beside over-exposed paper
 * stays dark. So print pale next to the core (QUALITY_TUNING.burnOut.printHaloMinNear) and darkening by at least
 * QUALITY_TUNING.burnOut.printHaloMinStep from band to band, but by no more than QUALITY_TUNING.burnOut.printHaloMaxStep (a card's edge
 * or a dark background beyond).
 */
export function printFadesAsHalo(levels: readonly [number, number, number]): boolean {
  const [near, middle, far] = levels;
  if (near >= QUALITY_TUNING.burnOut.printHaloMinNear && isHaloStep(near - middle) && isHaloStep(middle - far)) return true;
  // A large reflection's halo is wide and fades over more bands than two: the print next to it
  // paler still, darkening by less per band, but darkening in both.
  return (
    near >= QUALITY_TUNING.burnOut.wideHaloMinNear &&
    Math.min(near - middle, middle - far) >= QUALITY_TUNING.burnOut.wideHaloMinStep &&
    near - far >= QUALITY_TUNING.burnOut.wideHaloMinFall &&
    Math.max(near - middle, middle - far) <= QUALITY_TUNING.burnOut.printHaloMaxStep
  );
}

/** One band's darkening of print under a halo: enough to be a fade, not so much as a card's edge or a dark background. */
function isHaloStep(d: number): boolean {
  return d >= QUALITY_TUNING.burnOut.printHaloMinStep && d <= QUALITY_TUNING.burnOut.printHaloMaxStep;
}

/** The blocks a relative region touches, as a mask. */
function blocksOf(r: Region, cols: number, rows: number): Uint8Array {
  const mask = new Uint8Array(cols * rows);
  const [c0, c1] = [Math.floor(r.left * cols), Math.min(cols - 1, Math.floor((r.left + r.width) * cols))];
  const [r0, r1] = [Math.floor(r.top * rows), Math.min(rows - 1, Math.floor((r.top + r.height) * rows))];
  for (let y = r0; y <= r1; y++) for (let x = c0; x <= c1; x++) mask[y * cols + x] = 1;
  return mask;
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
const BLOCK = LINES.burnOutBlock;
/** A grey level from which a pixel (or a block's mean) is burnt out: nothing under it shows. */
const BURNT_OUT_LEVEL = LINES.burntOutLevel;
/** Share of its convex hull a burnt-out patch must fill to be a reflection (see `burntOut`). */
const MIN_SOLIDITY = LINES.reflectionMinSolidity;
/**
 * A lamp's image: an ellipse fills 0.88-0.97 of its convex hull in blocks, its box 1.1-1.5 times as
 * long as wide (84 reflections over the fields of six retired held-out seeds). No patch of blank
 * paper in 720 genuine captures of four of them is so shaped (the roundest fill 0.87 of their hull,
 * two or more times as long as wide).
 */
const LAMP_SOLIDITY = LINES.lampMinSolidity;
const LAMP_ASPECT = LINES.lampMaxAspect;
/** Share of a burnt-out patch's outline that may stay unburnt (print) for it to be a reflection. */
const MAX_PRINT_INSIDE = LINES.reflectionMaxPrintInside;
/** Smallest patch counted, as a share of the picture (half a glare line's worth). */
const MIN_PATCH = LINES.minBurntOutPatch;
