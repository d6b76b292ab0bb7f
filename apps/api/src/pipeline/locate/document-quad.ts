import { greyProduct, type DecodedImage, type Region } from '../decode/decode.js';
import { apply, homography } from '@service/contract';

/** A point in pixels of the decoded image. */
export type Point = [number, number];
/** The document's corners, clockwise from its top left, in pixels of the decoded image. */
export type Quad = [Point, Point, Point, Point];

/** The edges are looked for on the photo scaled to this width (a card's edge is a long, plain line; no detail is needed). */
const ANALYSIS_WIDTH = 640;
/** An edge pixel: a Sobel magnitude of at least this on the blurred grey picture (a light card on a light desk: about 40). */
const EDGE_MAGNITUDE = 24;
/** Hough bins: the edge's direction (the grey's gradient, so its polarity is kept) in degrees, its distance in px. */
const ANGLE_STEP = 2;
/** A side's normal at most this far from its place's (the top's points down or up): a document tilted 15 degrees and turned 12. */
const MAX_SIDE_TURN = 40;
/** A side must hold edge pixels along this share of the length it would have at least (a shadow or a finger can hide the rest). */
const MIN_SUPPORT = 0.35;
/** The strongest lines weighed per side (a striped desk holds dozens longer than the card's side). */
const CANDIDATES = 80;
/** Lines supported nearly as well as a side's best (this share) are its candidates; the innermost wins. */
const NEAR_BEST = 0.85;
/** Width over height of the quad found, its opposite sides averaged: ID-1 cards 1.59, TD3 pages 1.42, TD2 1.41, with room for perspective. */
const MIN_ASPECT = 1.15;
const MAX_ASPECT = 1.95;
/** The least for the part of a document the frame cut on one side: more than half an ID-1 card seen. */
const MIN_CUT_ASPECT = 0.8;
/** A line on the document guiding a side the frame cut off: within this many degrees of the opposite side, covered along this share between its neighbours. */
const GUIDE_TURN = 25;
const GUIDE_COVER = 0.3;
/** ... and this far from the opposite side, as a share of its own length between the neighbours (an ID-1 portrait's edge: about 1.1). */
const GUIDE_MIN_OFFSET = 0.25;
/** Two lines make a corner only when they cross at 11.5 degrees or more (the sine of the angle between them). */
const CORNER_MIN_SINE = 0.2;
/** A vanishing point is looked for between lines at least the guide's least turn apart (0.5 degrees). */
const VANISHING_MIN_SINE = Math.sin((0.5 * Math.PI) / 180);

interface Line {
  /** The edge's normal, pointing from dark to light, radians. */
  angle: number;
  /** Its distance from the origin along the normal, analysis px. */
  rho: number;
  votes: number;
  /** Drawn for a side the frame cut off (the photo's edge, or `cutSide`'s line), not found. */
  frame?: true;
}

/** The document's corners as found; `cut` when one side was drawn, the document running off the frame there. */
export interface FoundQuad {
  corners: Quad;
  cut: boolean;
}

/**
 * The document's four edges in a photo, found around something known to be on it (`inside`: its
 * printed portrait, or the middle of the photo for a side without one), for the perspective
 * correction (`rectify`). A card or a data page on a desk is a bright (or dark) quadrilateral
 * against its background: its four edges are the longest straight edges of one polarity around
 * what it holds. Edges of the grey picture vote in a Hough accumulator by their own direction (so a
 * card's top edge, light below, is never confused with a shadow's, dark below); per side, among the
 * lines with `inside` wholly on the document's side, the innermost of those covering the segment
 * between its neighbours nearly as well as the best is kept, for the polarity whose four sides are
 * covered most. A document that runs off the frame on one side has that side drawn where its
 * neighbours leave the photo (`cutSide`), and the part in the picture is returned (`cut`). Null
 * when it runs off on two sides, the quad is not a document's shape, or a side is too faint (a
 * white card on a white table): the stages then read the photo as before.
 */
export async function findDocumentQuad(img: DecodedImage, inside: Region): Promise<FoundQuad | null> {
  const scale = Math.min(1, ANALYSIS_WIDTH / img.pixelWidth);
  const { data, info } = await greyProduct(img, (p) => p.resize({ width: Math.round(img.pixelWidth * scale) }).blur(1.2));
  const w = info.width;
  const h = info.height;
  const k = w / img.pixelWidth;
  const { lines, edges } = houghLines(data, w, h);
  const box = {
    x0: inside.left * w,
    y0: inside.top * h,
    x1: (inside.left + inside.width) * w,
    y1: (inside.top + inside.height) * h,
  };
  const corners: Point[] = [
    [box.x0, box.y0],
    [box.x1, box.y0],
    [box.x1, box.y1],
    [box.x0, box.y1],
  ];
  const centre: Point = [(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2];
  // Normals pointing into the document from each side: down from the top, left from the right...
  const sides = [90, 180, 270, 0].map((d) => (d * Math.PI) / 180);
  // The photo's own edges, as the sides they would stand in for (normals pointing into the photo).
  const frame: Line[] = [
    { angle: sides[0]!, rho: 0, votes: 0, frame: true },
    { angle: sides[1]!, rho: -w, votes: 0, frame: true },
    { angle: sides[2]!, rho: -h, votes: 0, frame: true },
    { angle: sides[3]!, rho: 0, votes: 0, frame: true },
  ];
  let best: { lines: Line[]; votes: number } | null = null;
  // A light document has its normals (dark to light) pointing inward; a dark one outward.
  for (const flip of [0, Math.PI]) {
    // The document lies on the normal's side (light) for a light document, the other for a dark one.
    const sign = flip ? -1 : 1;
    const candidates = sides.map((inward, s) => {
      const minLength = MIN_SUPPORT * (s % 2 === 0 ? box.x1 - box.x0 : box.y1 - box.y0);
      return lines
        .filter(
          (l) =>
            angleBetween(l.angle, inward + flip) <= (MAX_SIDE_TURN * Math.PI) / 180 &&
            l.votes >= minLength &&
            corners.every((p) => sign * signedDistance(l, p) > 2),
        )
        .sort((a, b) => b.votes - a.votes)
        .slice(0, CANDIDATES);
    });
    // A document running off the frame on one side (a card held close, a page's edge past the
    // photo's): that side is drawn (`cutSide`, below), and the quad is the part in the picture.
    const missing = candidates.flatMap((c, s) => (c.length === 0 ? [s] : []));
    if (missing.length > 1) continue;
    const chosen = candidates.map((c, s) => c[0] ?? frame[s]!);
    // A line's votes count its whole length: a wood grain's stripe or a table's edge across the
    // photo outvotes a card's side. Each side is chosen again by its coverage between its two
    // neighbours (`segmentSupport`), the innermost of those nearly as well covered
    // as the best: a desk's stripe beyond the card holds that segment as fully as the card's edge,
    // and a portrait's edge holds only its own part of it.
    let supports = [0, 0, 0, 0];
    for (let pass = 0; pass < 2; pass++) {
      for (let s = 0; s < 4; s++) {
        if (chosen[s]!.frame) continue;
        const prev = chosen[(s + 3) % 4]!;
        const next = chosen[(s + 1) % 4]!;
        const weighed = candidates[s]!.flatMap((l) => {
          const a = meet(l, prev);
          const b = meet(l, next);
          if (!a || !b) return [];
          const depth = Math.abs(signedDistance(l, centre));
          return [{ l, support: segmentSupport(edges, l, a, b), depth }];
        });
        const most = Math.max(0, ...weighed.map((c) => c.support));
        const pick = weighed.filter((c) => c.support >= NEAR_BEST * most).sort((a, b) => a.depth - b.depth)[0];
        if (pick) [chosen[s], supports[s]] = [pick.l, pick.support];
      }
    }
    const votes = supports.reduce((a, v) => a + v, 0);
    if (!best || votes > best.votes) best = { lines: chosen.map((l, i) => ({ ...l, votes: supports[i]! })), votes };
    supports = [0, 0, 0, 0];
  }
  if (!best) return null;
  const sides4 = best.lines;
  // Where the four lines make no document, one of them may be a line on it standing in for a side
  // the frame cut off (the portrait's edge, a line of print): each side in turn, the least
  // covered first, is drawn as one the frame cut off (`cutSide`).
  const covered = sides4.map((l, i) => {
    const a = meet(l, sides4[(i + 3) % 4]!);
    const b = meet(l, sides4[(i + 1) % 4]!);
    return a && b ? l.votes / Math.max(1, dist(a, b)) : 0;
  });
  const cutAt = (s: number) => sides4.map((l, i) => (i === s ? cutSide(sides4, s, frame[s]!, lines, edges) : l));
  const tries = [sides4, ...[0, 1, 2, 3].sort((a, b) => covered[a]! - covered[b]!).map(cutAt)];
  const missing = sides4.findIndex((l) => l.frame);
  for (const sides of missing >= 0 ? [cutAt(missing)] : tries) {
    const found = quadOf(sides, w, h);
    if (found) return { corners: found.map(([x, y]) => [x / k, y / k]) as Quad, cut: sides.some((l) => l.frame) };
  }
  return null;
}

/**
 * A side the frame cut off, for the part of the document in the picture: a line through the point
 * where the side's neighbours leave the photo and through the vanishing point of the opposite
 * side and the longest line on the document that runs beside it (a portrait's edge, a column of
 * print): under perspective a card's sides converge, and a side drawn parallel to the opposite
 * one, or the photo's own edge, leaves the part sheared, its portrait's edge leaning (the blank
 * over it then takes the letters beside it). With no such line, parallel to the opposite side.
 * As far out as keeps both its corners in the photo.
 */
function cutSide(sides: Line[], s: number, edge: Line, lines: Line[], edges: Edges): Line {
  const opposite = sides[(s + 2) % 4]!;
  const [before, after] = [sides[(s + 3) % 4]!, sides[(s + 1) % 4]!];
  const inPhoto = (p: Point | null) => p !== null && signedDistance(edge, p) >= -1;
  // Where the neighbours leave the photo: the cut side runs through one of them.
  const ends = [meet(before, edge), meet(after, edge)];
  const cutEnd = ends[0] ?? ends[1];
  const towardsCut = cutEnd ? Math.sign(signedDistance(opposite, cutEnd)) : 0;
  // The guide: the line beside the opposite side (either polarity) best covered between the neighbours.
  let guide: { line: Line; cover: number } | null = null;
  for (const l of lines) {
    // Either polarity: the turn between the two lines, whichever way their normals point.
    const between = angleBetween(l.angle, opposite.angle);
    const turn = Math.min(between, Math.PI - between);
    if (turn > (GUIDE_TURN * Math.PI) / 180 || turn < 0.5 * (Math.PI / 180)) continue;
    const a = meet(l, before);
    const b = meet(l, after);
    if (!a || !b) continue;
    // On the document, away from the opposite side towards the cut one: not that side's own second
    // edge (a border, its shadow), whose meeting with it lies on the document, nor a line of the
    // background beyond it.
    const offset = signedDistance(opposite, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
    if (offset * towardsCut <= 0 || Math.abs(offset) < GUIDE_MIN_OFFSET * dist(a, b)) continue;
    const cover = segmentSupport(edges, l, a, b);
    if (cover >= GUIDE_COVER * dist(a, b) && (!guide || cover > guide.cover)) guide = { line: l, cover };
  }
  // Nearly parallel (a few degrees apart under a slight tilt): `meet` keeps corners only, so the
  // far meeting point is taken without its limit (with it, no tilt under 11.5 degrees had a guide).
  const vanishing = guide && meet(guide.line, opposite, VANISHING_MIN_SINE);
  let pick: Line = edge;
  let widest = -Infinity;
  for (const at of ends) {
    if (!at) continue;
    // Towards the vanishing point, or parallel to the opposite side; through `at` either way.
    const angle = vanishing ? Math.atan2(at[0] - vanishing[0], vanishing[1] - at[1]) : opposite.angle + Math.PI;
    const line: Line = { angle, rho: at[0] * Math.cos(angle) + at[1] * Math.sin(angle), votes: 0, frame: true };
    const [a, b] = [meet(line, before), meet(line, after)];
    if (!inPhoto(a) || !inPhoto(b)) continue;
    // The most of the document kept: the cut side's corners farthest from the opposite side.
    const reach = dist(a!, meet(opposite, before) ?? a!) + dist(b!, meet(opposite, after) ?? b!);
    if (reach > widest) [pick, widest] = [line, reach];
  }
  return pick;
}

/**
 * The corners of four sides (top, right, bottom, left; analysis px), when they make a document: within
 * the photo, convex, of a document's shape (where no side is the photo's edge) and each side
 * covered along much of its length.
 */
function quadOf(lines: Line[], w: number, h: number): Point[] | null {
  const [top, right, bottom, left] = lines as [Line, Line, Line, Line];
  const quad = [meet(left, top), meet(top, right), meet(right, bottom), meet(bottom, left)];
  if (quad.some((p) => p === null)) return null;
  const q = quad as Point[];
  // Corners within the photo (a few pixels of slack): a document cut by the frame on two sides is not rectified.
  if (q.some(([x, y]) => x < -3 || y < -3 || x > w + 3 || y > h + 3)) return null;
  if (!convex(q)) return null;
  const width = (dist(q[0]!, q[1]!) + dist(q[3]!, q[2]!)) / 2;
  const height = (dist(q[0]!, q[3]!) + dist(q[1]!, q[2]!)) / 2;
  const aspect = width / height;
  // Cut by the frame, the part in the picture is narrower than the document, never a sliver.
  const cut = lines.some((l) => l.frame);
  if (aspect < (cut ? MIN_CUT_ASPECT : MIN_ASPECT) || aspect > MAX_ASPECT) return null;
  // A document's sides are long lines: each holds edge pixels along much of its own length.
  const lengths = [dist(q[0]!, q[1]!), dist(q[1]!, q[2]!), dist(q[2]!, q[3]!), dist(q[3]!, q[0]!)];
  if (lines.some((l, i) => !l.frame && l.votes < MIN_SUPPORT * lengths[i]!)) return null;
  return q.map(([x, y]) => [Math.min(w, Math.max(0, x)), Math.min(h, Math.max(0, y))]);
}

/** Lines of the Hough accumulator that are local peaks, by votes (an edge pixel votes for its own direction and the bins beside it). */
function houghLines(grey: Buffer, w: number, h: number): { lines: Line[]; edges: Edges } {
  const angles = 360 / ANGLE_STEP;
  const diag = Math.ceil(Math.hypot(w, h));
  const rhos = 2 * diag + 1;
  const acc = new Float32Array(angles * rhos);
  const edges: Edges = Array.from({ length: angles }, () => []);
  const cos = Float64Array.from({ length: angles }, (_, a) => Math.cos((a * ANGLE_STEP * Math.PI) / 180));
  const sin = Float64Array.from({ length: angles }, (_, a) => Math.sin((a * ANGLE_STEP * Math.PI) / 180));
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = grey[i - w + 1]! + 2 * grey[i + 1]! + grey[i + w + 1]! - grey[i - w - 1]! - 2 * grey[i - 1]! - grey[i + w - 1]!;
      const gy = grey[i + w - 1]! + 2 * grey[i + w]! + grey[i + w + 1]! - grey[i - w - 1]! - 2 * grey[i - w]! - grey[i - w + 1]!;
      if (gx * gx + gy * gy < EDGE_MAGNITUDE * EDGE_MAGNITUDE) continue;
      const dir = (((Math.atan2(gy, gx) * 180) / Math.PI + 360) % 360) / ANGLE_STEP;
      const a0 = Math.round(dir) % angles;
      edges[a0]!.push(x, y);
      for (let da = -1; da <= 1; da++) {
        const a = (a0 + da + angles) % angles;
        const rho = Math.round(x * cos[a]! + y * sin[a]!);
        acc[a * rhos + rho + diag]! += 1;
      }
    }
  }
  const lines: Line[] = [];
  for (let a = 0; a < angles; a++) {
    for (let r = 1; r < rhos - 1; r++) {
      const v = acc[a * rhos + r]!;
      if (v < 20) continue;
      let peak = true;
      for (let da = -1; da <= 1 && peak; da++) {
        const row = ((a + da + angles) % angles) * rhos;
        for (let dr = -2; dr <= 2; dr++) if ((da || dr) && acc[row + r + dr]! > v) peak = false;
      }
      if (peak) lines.push({ angle: (a * ANGLE_STEP * Math.PI) / 180, rho: r - diag, votes: v });
    }
  }
  return { lines, edges };
}

/** Edge pixels (analysis px), x and y pairs, by their direction's Hough bin. */
type Edges = number[][];

/** How many pixels of the line between its points a and b have an edge pixel of its direction within a pixel and a half. */
function segmentSupport(edges: Edges, l: Line, a: Point, b: Point): number {
  const c = Math.cos(l.angle);
  const s = Math.sin(l.angle);
  const bin = Math.round((l.angle * 180) / Math.PI / ANGLE_STEP);
  const angles = 360 / ANGLE_STEP;
  // Along the line: t = -x sin + y cos.
  const ta = -a[0] * s + a[1] * c;
  const tb = -b[0] * s + b[1] * c;
  const [t0, t1] = ta < tb ? [ta, tb] : [tb, ta];
  // Coverage, not a count: a sharp stripe's edge puts three pixels across the line where a card's
  // softer edge puts two, and would outvote it.
  const covered = new Uint8Array(Math.max(1, Math.ceil(t1 - t0) + 1));
  for (let d = -1; d <= 1; d++) {
    const near = edges[(bin + d + angles) % angles]!;
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

/** The smaller angle between two directions, radians. */
function angleBetween(a: number, b: number): number {
  const d = Math.abs(a - b) % (2 * Math.PI);
  return d > Math.PI ? 2 * Math.PI - d : d;
}

/** How far a point lies from a line, along its normal (positive on the side the normal points to). */
function signedDistance(l: Line, [x, y]: Point): number {
  return x * Math.cos(l.angle) + y * Math.sin(l.angle) - l.rho;
}

/** Where two lines cross (null when they cross at an angle whose sine is under `minSine`: nearly parallel). */
function meet(a: Line, b: Line, minSine = CORNER_MIN_SINE): Point | null {
  const [c1, s1, c2, s2] = [Math.cos(a.angle), Math.sin(a.angle), Math.cos(b.angle), Math.sin(b.angle)];
  const det = c1 * s2 - s1 * c2;
  if (Math.abs(det) < minSine) return null;
  return [(a.rho * s2 - b.rho * s1) / det, (c1 * b.rho - c2 * a.rho) / det];
}

function convex(q: Point[]): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = q[i]!;
    const [bx, by] = q[(i + 1) % 4]!;
    const [cx, cy] = q[(i + 2) % 4]!;
    const z = (bx - ax) * (cy - by) - (by - ay) * (cx - bx);
    if (z === 0 || (sign && Math.sign(z) !== sign)) return false;
    sign = Math.sign(z);
  }
  return true;
}

const dist = ([ax, ay]: Point, [bx, by]: Point) => Math.hypot(ax - bx, ay - by);

/** Width over height of the cards the pipeline reads (ID-1: 85.6 x 54 mm) and of a passport's data page (TD3: 125 x 88 mm). */
const SHAPES = [85.6 / 54, 125 / 88];

/**
 * The document cut out along its quad and seen square on: a perspective warp (a homography from
 * the four corners) onto an upright rectangle as wide as the quad's longer horizontal side, its
 * height from the nearer of the shapes documents have (a side's apparent ratio is foreshortened by
 * the tilt). Bilinear, on the decoded pixels.
 */
export function rectify(img: DecodedImage, { corners: quad, cut }: FoundQuad): Squared {
  const [tl, tr, br, bl] = quad;
  const width = Math.round(Math.max(dist(tl, tr), dist(bl, br)));
  const seen = (dist(tl, tr) + dist(bl, br)) / (dist(tl, bl) + dist(tr, br));
  // The part of a document in the picture has no known shape: its own, as seen.
  const shape = cut ? seen : SHAPES.reduce((a, b) => (Math.abs(b - seen) < Math.abs(a - seen) ? b : a));
  const height = Math.round(width / shape);
  const H = homography(
    [
      [0, 0],
      [width, 0],
      [width, height],
      [0, height],
    ],
    quad,
  );
  const W = img.pixelWidth;
  const Hh = img.pixelHeight;
  const src = img.pixels;
  const out = Buffer.alloc(width * height * 3, 255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // `apply`, inlined: a tuple per pixel would cost a garbage collection or two per page.
      const d = H[6]! * x + H[7]! * y + H[8]!;
      const sx = (H[0]! * x + H[1]! * y + H[2]!) / d;
      const sy = (H[3]! * x + H[4]! * y + H[5]!) / d;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 >= W - 1 || y0 >= Hh - 1) continue;
      const fx = sx - x0;
      const fy = sy - y0;
      const i = (y0 * W + x0) * 3;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const top = src[i + c]! + (src[i + 3 + c]! - src[i + c]!) * fx;
        const bottom = src[i + W * 3 + c]! + (src[i + W * 3 + 3 + c]! - src[i + W * 3 + c]!) * fx;
        out[o + c] = Math.round(top + (bottom - top) * fy);
      }
    }
  }
  const image = { width, height, pixels: out, pixelWidth: width, pixelHeight: height };
  // From the photo to the squared document, for regions found on the photo (the portrait).
  const inverse = homography(quad, [
    [0, 0],
    [width, 0],
    [width, height],
    [0, height],
  ]);
  const region = (r: Region): Region => {
    const x0 = r.left * W;
    const y0 = r.top * Hh;
    const x1 = (r.left + r.width) * W;
    const y1 = (r.top + r.height) * Hh;
    const ps = (
      [
        [x0, y0],
        [x1, y0],
        [x1, y1],
        [x0, y1],
      ] as Point[]
    ).map((p) => apply(inverse, p));
    const left = Math.max(0, Math.min(...ps.map(([x]) => x)) / width);
    const top = Math.max(0, Math.min(...ps.map(([, y]) => y)) / height);
    const right = Math.min(1, Math.max(...ps.map(([x]) => x)) / width);
    const bottom = Math.min(1, Math.max(...ps.map(([, y]) => y)) / height);
    return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
  };
  return { image, region };
}

/** A document seen square on (`rectify`), and where a region of the photo lies on it (the box around its corners carried over). */
export interface Squared {
  image: DecodedImage;
  region(r: Region): Region;
}

/** The document found around `inside` (`findDocumentQuad`) and seen square on (`rectify`); null when no quad is found. */
export async function squareUp(img: DecodedImage, inside: Region): Promise<Squared | null> {
  const quad = await findDocumentQuad(img, inside);
  return quad && rectify(img, quad);
}
