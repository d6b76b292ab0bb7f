/**
 * Straight edges in normal form, as a Hough transform finds them, and what a document finder asks
 * of them: the server's locate stage and the widget's guidance both look for a document's four
 * sides this way, so both measure lines alike.
 */
import type { Point } from './geometry.js';

export interface EdgeLine {
  /** The line's normal, radians (a document finder points it from dark to light). */
  angle: number;
  /** Its distance from the origin along the normal, in the analysed image's pixels. */
  rho: number;
}

/** The smaller angle between two directions, radians. */
export function angleBetween(a: number, b: number): number {
  const d = Math.abs(a - b) % (2 * Math.PI);
  return d > Math.PI ? 2 * Math.PI - d : d;
}

/** How far a point lies from a line, along its normal (positive on the side the normal points to). */
export function signedDistance(l: EdgeLine, [x, y]: Point): number {
  return x * Math.cos(l.angle) + y * Math.sin(l.angle) - l.rho;
}

/** Where two lines cross; null when the sine of the angle they cross at is under `minSine` (nearly parallel). */
export function meet(a: EdgeLine, b: EdgeLine, minSine: number): [number, number] | null {
  const [c1, s1, c2, s2] = [Math.cos(a.angle), Math.sin(a.angle), Math.cos(b.angle), Math.sin(b.angle)];
  const det = c1 * s2 - s1 * c2;
  if (Math.abs(det) < minSine) return null;
  return [(a.rho * s2 - b.rho * s1) / det, (c1 * b.rho - c2 * a.rho) / det];
}

/** Whether four corners, in order, make a convex quadrilateral (every turn the same way, none straight). */
export function convex(q: readonly Point[]): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = q[i]!;
    const [bx, by] = q[(i + 1) % 4]!;
    const [cx, cy] = q[(i + 2) % 4]!;
    const z = Math.sign((bx - ax) * (cy - by) - (by - ay) * (cx - bx));
    if (z === 0 || (sign && z !== sign)) return false;
    sign = z;
  }
  return true;
}

/**
 * How many pixels of the segment a-b of line `l` have an edge pixel of the line's direction within
 * a pixel and a half. `edges[bin]` holds the edge pixels (x, y pairs) whose gradient points in
 * that bin of `angleStep` degrees; bins up to `spread` either side count too. Coverage, not a
 * count: a sharp stripe's edge puts three pixels across the line where a card's softer edge puts
 * two, and would outvote it.
 */
export function segmentSupport(
  edges: readonly (readonly number[])[],
  l: EdgeLine,
  a: Point,
  b: Point,
  { angleStep, spread }: { angleStep: number; spread: number },
): number {
  const c = Math.cos(l.angle);
  const s = Math.sin(l.angle);
  const angles = Math.round(360 / angleStep);
  const bin = Math.round((l.angle * 180) / Math.PI / angleStep) % angles;
  // Along the line: t = -x sin + y cos.
  const ta = -a[0] * s + a[1] * c;
  const tb = -b[0] * s + b[1] * c;
  const [t0, t1] = ta < tb ? [ta, tb] : [tb, ta];
  const covered = new Uint8Array(Math.max(1, Math.ceil(t1 - t0) + 1));
  for (let d = -spread; d <= spread; d++) {
    const near = edges[(((bin + d) % angles) + angles) % angles]!;
    for (let i = 0; i < near.length; i += 2) {
      const x = near[i]!;
      const y = near[i + 1]!;
      if (Math.abs(x * c + y * s - l.rho) > 1.5) continue;
      const t = -x * s + y * c;
      if (t >= t0 && t <= t1) covered[Math.floor(t - t0)] = 1;
    }
  }
  let n = 0;
  for (const v of covered) n += v;
  return n;
}
