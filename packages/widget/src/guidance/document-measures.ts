import { DOCUMENT_QUALITY_LINES as LINES, edgeVariance } from '@service/contract';

/**
 * What the document guidance measures on one camera frame, in the frame worker: the pipeline's
 * own quality measures (`DOCUMENT_QUALITY_LINES`) on a grey copy of the frame at the width the
 * pipeline measures blur at (`MEASURE_WIDTH`), and where the document lies. Pure functions of
 * pixels, so they run (and are tested) anywhere.
 */

/** A grey picture, one byte per pixel, row by row. */
export interface Grey {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

/** The frame is measured at the pipeline's blur width (a photo of 854 px or more is judged there). */
export const MEASURE_WIDTH = LINES.sharpnessWidth;
/** Burn-out blocks at MEASURE_WIDTH: the pipeline's blocks of 8 px at 1024 px wide. */
const BLOCK = Math.round((LINES.burnOutBlock * MEASURE_WIDTH) / LINES.qualityWidth);

/** The pipeline's measures of a document photo (`image-quality.ts`), on this frame. */
export interface QualityMeasures {
  /** Edge variance at MEASURE_WIDTH, contrast-normalised as the pipeline does. */
  sharpness: number;
  /** 98th percentile of grey. */
  highlights: number;
  /** 0.1th percentile of grey. */
  darkest: number;
  /** Share of the picture under its largest reflection, and under one shaped as a lamp's image. */
  clipped: number;
  lampShaped: number;
}

function percentiles(grey: Grey): (p: number) => number {
  const hist = new Uint32Array(256);
  for (const v of grey.data) hist[v]!++;
  const n = grey.data.length;
  return (p) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) if ((seen += hist[v]!) >= p * n) return v;
    return 255;
  };
}

export function measureQuality(grey: Grey): QualityMeasures {
  const p = percentiles(grey);
  const highlights = p(0.98);
  const contrast = Math.max(16, highlights - p(0.02));
  const sharpness = edgeVariance(grey.data, grey.width, grey.height) / (contrast / 128) ** 2;
  return { sharpness, highlights, darkest: p(0.001), ...reflections(grey) };
}

/**
 * The pipeline's patch rules for reflections (`burn-out.ts`): burnt-out blocks joined into
 * patches; a patch counts when it is not joined to the picture's edge (a white desk), covers
 * `minBurntOutPatch` of the picture, is solid (`reflectionMinSolidity` of its hull) and keeps no
 * print inside. The pipeline also tells a reflection by the halo around it, which needs the whole
 * photo's detail; the guidance does without (it can only be stricter where a halo would clear a patch).
 */
export function reflections(grey: Grey): { clipped: number; lampShaped: number } {
  const cols = Math.floor(grey.width / BLOCK);
  const rows = Math.floor(grey.height / BLOCK);
  if (!cols || !rows) return { clipped: 0, lampShaped: 0 };
  const burnt = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      let s = 0;
      for (let y = r * BLOCK; y < (r + 1) * BLOCK; y++)
        for (let x = c * BLOCK; x < (c + 1) * BLOCK; x++) s += grey.data[y * grey.width + x]!;
      if (s / (BLOCK * BLOCK) >= LINES.burntOutLevel) burnt[r * cols + c] = 1;
    }
  const seen = new Uint8Array(cols * rows);
  let hidden = 0;
  let lamp = 0;
  for (let start = 0; start < burnt.length; start++) {
    if (!burnt[start] || seen[start]) continue;
    const patch: number[] = [];
    let edge = false;
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const i = stack.pop()!;
      patch.push(i);
      const c = i % cols;
      const r = (i - c) / cols;
      if (c === 0 || r === 0 || c === cols - 1 || r === rows - 1) edge = true;
      for (const j of [c > 0 ? i - 1 : -1, c < cols - 1 ? i + 1 : -1, r > 0 ? i - cols : -1, r < rows - 1 ? i + cols : -1]) {
        if (j >= 0 && burnt[j] && !seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    if (edge || patch.length < LINES.minBurntOutPatch * cols * rows) continue;
    const solidity = patch.length / hullArea(patch, cols);
    if (solidity < LINES.reflectionMinSolidity) continue;
    const span = new Map<number, [number, number]>();
    for (const i of patch) {
      const c = i % cols;
      const r = (i - c) / cols;
      const [lo, hi] = span.get(r) ?? [c, c];
      span.set(r, [Math.min(lo, c), Math.max(hi, c)]);
    }
    let within = 0;
    let left = cols;
    let right = 0;
    for (const [lo, hi] of span.values()) {
      within += hi - lo + 1;
      left = Math.min(left, lo);
      right = Math.max(right, hi);
    }
    if ((within - patch.length) / within > LINES.reflectionMaxPrintInside) continue;
    hidden = Math.max(hidden, patch.length);
    const [w, h] = [right - left + 1, span.size];
    if (solidity >= LINES.lampMinSolidity && Math.max(w, h) <= LINES.lampMaxAspect * Math.min(w, h)) lamp = Math.max(lamp, patch.length);
  }
  return { clipped: hidden / (cols * rows), lampShaped: lamp / (cols * rows) };
}

/** The area of the convex hull of blocks (their corners, in blocks): Andrew's monotone chain. */
function hullArea(patch: number[], cols: number): number {
  const pts: [number, number][] = [];
  for (const i of patch) {
    const x = i % cols;
    const y = (i - x) / cols;
    pts.push([x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1]);
  }
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const chain = (list: [number, number][]) => {
    const out: [number, number][] = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2]!, out[out.length - 1]!, p) <= 0) out.pop();
      out.push(p);
    }
    return out.slice(0, -1);
  };
  const hull = [...chain(pts), ...chain(pts.slice().reverse())];
  let twice = 0;
  for (let k = 0; k < hull.length; k++) {
    const a = hull[k]!;
    const b = hull[(k + 1) % hull.length]!;
    twice += a[0] * b[1] - b[0] * a[1];
  }
  return Math.max(1, Math.abs(twice) / 2);
}

/** The picture at half size (2 x 2 means): where the document's edges are looked for. */
export function halve(grey: Grey): Grey {
  const width = grey.width >> 1;
  const height = grey.height >> 1;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = 2 * y * grey.width + 2 * x;
      data[y * width + x] = (grey.data[i]! + grey.data[i + 1]! + grey.data[i + grey.width]! + grey.data[i + grey.width + 1]! + 2) >> 2;
    }
  return { data, width, height };
}

/** A small copy (mean of cells) to compare consecutive frames: the hand's movement. */
export function thumbnail(grey: Grey, width = 32): Grey {
  const height = Math.max(1, Math.round((grey.height / grey.width) * width));
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * grey.width) / width);
      const x1 = Math.floor(((x + 1) * grey.width) / width);
      const y0 = Math.floor((y * grey.height) / height);
      const y1 = Math.floor(((y + 1) * grey.height) / height);
      let s = 0;
      for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) s += grey.data[yy * grey.width + xx]!;
      data[y * width + x] = Math.round(s / Math.max(1, (x1 - x0) * (y1 - y0)));
    }
  return { data, width, height };
}

/** Mean absolute difference of two thumbnails of the same size (grey levels); Infinity when they cannot be compared. */
export function motionBetween(a: Grey | null, b: Grey): number {
  if (!a || a.width !== b.width || a.height !== b.height) return Infinity;
  let s = 0;
  for (let i = 0; i < a.data.length; i++) s += Math.abs(a.data[i]! - b.data[i]!);
  return s / a.data.length;
}
