import { angleBetween, convex, meet as meetAt, segmentSupport as edgeSupport, signedDistance } from '@service/contract';
import type { Grey } from './document-measures.js';

/**
 * Where the document lies in a live frame: a card or a data page held over the middle of the
 * picture is a bright (or dark) quadrilateral against what is behind it, its four sides the
 * strongest straight edges of one polarity around the middle, with print inside. Edge pixels
 * vote in a Hough accumulator by their own direction (so a card's top, light below, is never a
 * shadow's edge, dark below); per side the best-voted lines are tried, and the quadrilateral of
 * a document's shape whose sides are best covered by edge pixels wins. Null when there is none:
 * a wall, a desk, a document cut by the frame.
 */

/** A corner in 0-1 of the frame. */
export type Point = [number, number];
export interface DocumentQuad {
  /** Clockwise from the top left. */
  corners: [Point, Point, Point, Point];
  /** The mean of its top and bottom sides over the frame's width. */
  widthShare: number;
}

/** An edge pixel: a Sobel magnitude of at least this on the smoothed grey picture. */
const EDGE_MAGNITUDE = 28;
/** Hough bins: the edge's direction in degrees (polarity kept), its distance in px. */
const ANGLE_STEP = 2;
/** A side's normal at most this far from its place's (a card tilted or seen at an angle). */
const MAX_SIDE_TURN = 30;
/** The best-voted lines tried per side. */
const CANDIDATES = 4;
/** Each side covered by edge pixels along at least this share of its length. */
const MIN_SUPPORT = 0.5;
/** Long over short side: ID-1 cards 1.59, passport pages 1.42, with room for perspective. */
const MIN_ASPECT = 1.2;
const MAX_ASPECT = 1.9;
/** A quad narrower than this share of the frame is texture, not a document held to the camera. */
const MIN_WIDTH_SHARE = 0.15;
/** Edge pixels inside the quad over its area: a document carries print. */
const MIN_PRINT = 0.02;

interface Line {
  /** The edge's normal (dark to light), radians. */
  angle: number;
  rho: number;
  votes: number;
}

export function findDocument(grey: Grey): DocumentQuad | null {
  const { width: w, height: h } = grey;
  const smooth = boxBlur(grey);
  const { lines, edges, edgeMap } = hough(smooth);
  const centre: Point = [w / 2, h / 2];
  const sides = [90, 180, 270, 0].map((d) => (d * Math.PI) / 180);
  let best: { quad: Point[]; score: number } | null = null;
  for (const flip of [0, Math.PI]) {
    const sign = flip ? -1 : 1;
    const candidates = sides.map((inward) =>
      lines
        .filter((l) => angleBetween(l.angle, inward + flip) <= (MAX_SIDE_TURN * Math.PI) / 180 && sign * signedDistance(l, centre) > 4)
        .sort((a, b) => b.votes - a.votes)
        .slice(0, CANDIDATES),
    );
    if (candidates.some((c) => c.length === 0)) continue;
    for (const top of candidates[0]!)
      for (const right of candidates[1]!)
        for (const bottom of candidates[2]!)
          for (const left of candidates[3]!) {
            const four = [top, right, bottom, left];
            const quad = cornersOf(four, w, h);
            if (!quad) continue;
            let score = 0;
            let ok = true;
            for (let s = 0; s < 4 && ok; s++) {
              const a = quad[s]!;
              const b = quad[(s + 1) % 4]!;
              const support = segmentSupport(edges, four[s]!, a, b);
              if (support < MIN_SUPPORT * dist(a, b)) ok = false;
              score += support;
            }
            if (ok && (!best || score > best.score)) best = { quad, score };
          }
  }
  if (!best) return null;
  const q = best.quad;
  const widthShare = (dist(q[0]!, q[1]!) + dist(q[3]!, q[2]!)) / 2 / w;
  if (widthShare < MIN_WIDTH_SHARE || printInside(edgeMap, w, h, q) < MIN_PRINT) return null;
  return { corners: q.map(([x, y]) => [x / w, y / h]) as DocumentQuad['corners'], widthShare };
}

function boxBlur(grey: Grey): Grey {
  const { width: w, height: h, data } = grey;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      let n = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < w && yy < h) {
            s += data[yy * w + xx]!;
            n++;
          }
        }
      out[y * w + x] = Math.round(s / n);
    }
  return { data: out, width: w, height: h };
}

/** Edge pixels by direction bin (x, y pairs), the map of all of them, and the accumulator's peaks. */
function hough(grey: Grey): { lines: Line[]; edges: number[][]; edgeMap: Uint8Array } {
  const { width: w, height: h, data } = grey;
  const angles = 360 / ANGLE_STEP;
  const diag = Math.ceil(Math.hypot(w, h));
  const rhos = 2 * diag + 1;
  const acc = new Float32Array(angles * rhos);
  const edges: number[][] = Array.from({ length: angles }, () => []);
  const edgeMap = new Uint8Array(w * h);
  const cos = Float64Array.from({ length: angles }, (_, a) => Math.cos((a * ANGLE_STEP * Math.PI) / 180));
  const sin = Float64Array.from({ length: angles }, (_, a) => Math.sin((a * ANGLE_STEP * Math.PI) / 180));
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = data[i - w + 1]! + 2 * data[i + 1]! + data[i + w + 1]! - data[i - w - 1]! - 2 * data[i - 1]! - data[i + w - 1]!;
      const gy = data[i + w - 1]! + 2 * data[i + w]! + data[i + w + 1]! - data[i - w - 1]! - 2 * data[i - w]! - data[i - w + 1]!;
      if (gx * gx + gy * gy < EDGE_MAGNITUDE * EDGE_MAGNITUDE) continue;
      edgeMap[i] = 1;
      const a0 = Math.round((((Math.atan2(gy, gx) * 180) / Math.PI + 360) % 360) / ANGLE_STEP) % angles;
      edges[a0]!.push(x, y);
      for (let da = -1; da <= 1; da++) {
        const a = (a0 + da + angles) % angles;
        acc[a * rhos + Math.round(x * cos[a]! + y * sin[a]!) + diag]! += 1;
      }
    }
  const lines: Line[] = [];
  for (let a = 0; a < angles; a++)
    for (let r = 2; r < rhos - 2; r++) {
      const v = acc[a * rhos + r]!;
      if (v < 12) continue;
      let peak = true;
      for (let da = -1; da <= 1 && peak; da++) {
        const row = ((a + da + angles) % angles) * rhos;
        for (let dr = -2; dr <= 2; dr++) if ((da || dr) && acc[row + r + dr]! > v) peak = false;
      }
      if (peak) lines.push({ angle: (a * ANGLE_STEP * Math.PI) / 180, rho: r - diag, votes: v });
    }
  return { lines, edges, edgeMap };
}

/** Corners of four sides (top, right, bottom, left) when they make a document: in the frame, convex, of a document's shape. */
function cornersOf([top, right, bottom, left]: Line[], w: number, h: number): Point[] | null {
  const q = [meet(left!, top!), meet(top!, right!), meet(right!, bottom!), meet(bottom!, left!)];
  if (q.some((p) => p === null)) return null;
  const quad = q as Point[];
  if (quad.some(([x, y]) => x < -2 || y < -2 || x > w + 2 || y > h + 2)) return null;
  if (!convex(quad)) return null;
  const across = (dist(quad[0]!, quad[1]!) + dist(quad[3]!, quad[2]!)) / 2;
  const down = (dist(quad[0]!, quad[3]!) + dist(quad[1]!, quad[2]!)) / 2;
  const aspect = Math.max(across, down) / Math.max(1, Math.min(across, down));
  return aspect >= MIN_ASPECT && aspect <= MAX_ASPECT ? quad : null;
}

/** Pixels of the segment a-b of line l covered by edge pixels of its direction (bins two either side count). */
const segmentSupport = (edges: number[][], l: Line, a: Point, b: Point): number =>
  edgeSupport(edges, l, a, b, { angleStep: ANGLE_STEP, spread: 2 });

/** Edge pixels inside the quad (shrunk by a tenth, away from its own sides) over that area. */
function printInside(edgeMap: Uint8Array, w: number, h: number, quad: Point[]): number {
  const cx = quad.reduce((s, p) => s + p[0], 0) / 4;
  const cy = quad.reduce((s, p) => s + p[1], 0) / 4;
  const inner = quad.map(([x, y]) => [cx + 0.9 * (x - cx), cy + 0.9 * (y - cy)] as Point);
  const xs = inner.map((p) => p[0]);
  const ys = inner.map((p) => p[1]);
  let inside = 0;
  let edgesIn = 0;
  for (let y = Math.max(0, Math.floor(Math.min(...ys))); y < Math.min(h, Math.ceil(Math.max(...ys))); y++)
    for (let x = Math.max(0, Math.floor(Math.min(...xs))); x < Math.min(w, Math.ceil(Math.max(...xs))); x++) {
      if (!contains(inner, [x, y])) continue;
      inside++;
      edgesIn += edgeMap[y * w + x]!;
    }
  return inside ? edgesIn / inside : 0;
}

function contains(quad: Point[], p: Point): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = quad[i]!;
    const b = quad[(i + 1) % 4]!;
    const z = Math.sign((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]));
    if (z === 0) continue;
    if (sign && z !== sign) return false;
    sign = z;
  }
  return true;
}

/** Where two lines cross; null when nearly parallel (under 11.5 degrees apart). */
const meet = (a: Line, b: Line): Point | null => meetAt(a, b, 0.2);

const dist = ([ax, ay]: Point, [bx, by]: Point) => Math.hypot(ax - bx, ay - by);
