import { greyProduct, type DecodedImage, type Region } from '../decode/decode.js';
import { angleBetween, apply, convex, homography, meet as meetAt, segmentSupport as edgeSupport, signedDistance } from '@service/contract';
import { LOCATE_TUNING } from './locate-tuning.js';

/** A point in pixels of the decoded image. */
export type Point = [number, number];
/** The document's corners, clockwise from its top left, in pixels of the decoded image. */
export type Quad = [Point, Point, Point, Point];

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
  const scale = Math.min(1, LOCATE_TUNING.documentQuad.analysisWidth / img.pixelWidth);
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
      const minLength = LOCATE_TUNING.documentQuad.minSupport * (s % 2 === 0 ? box.x1 - box.x0 : box.y1 - box.y0);
      return lines
        .filter(
          (l) =>
            angleBetween(l.angle, inward + flip) <= (LOCATE_TUNING.documentQuad.maxSideTurn * Math.PI) / 180 &&
            l.votes >= minLength &&
            corners.every((p) => sign * signedDistance(l, p) > 2),
        )
        .sort((a, b) => b.votes - a.votes)
        .slice(0, LOCATE_TUNING.documentQuad.candidates);
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
        const pick = weighed.filter((c) => c.support >= LOCATE_TUNING.documentQuad.nearBest * most).sort((a, b) => a.depth - b.depth)[0];
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
    if (turn > (LOCATE_TUNING.documentQuad.guideTurn * Math.PI) / 180 || turn < 0.5 * (Math.PI / 180)) continue;
    const a = meet(l, before);
    const b = meet(l, after);
    if (!a || !b) continue;
    // On the document, away from the opposite side towards the cut one: not that side's own second
    // edge (a border, its shadow), whose meeting with it lies on the document, nor a line of the
    // background beyond it.
    const offset = signedDistance(opposite, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
    if (offset * towardsCut <= 0 || Math.abs(offset) < LOCATE_TUNING.documentQuad.guideMinOffset * dist(a, b)) continue;
    const cover = segmentSupport(edges, l, a, b);
    if (cover >= LOCATE_TUNING.documentQuad.guideCover * dist(a, b) && (!guide || cover > guide.cover)) guide = { line: l, cover };
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
  if (
    aspect < (cut ? LOCATE_TUNING.documentQuad.minCutAspect : LOCATE_TUNING.documentQuad.minAspect) ||
    aspect > LOCATE_TUNING.documentQuad.maxAspect
  )
    return null;
  // A document's sides are long lines: each holds edge pixels along much of its own length.
  const lengths = [dist(q[0]!, q[1]!), dist(q[1]!, q[2]!), dist(q[2]!, q[3]!), dist(q[3]!, q[0]!)];
  if (lines.some((l, i) => !l.frame && l.votes < LOCATE_TUNING.documentQuad.minSupport * lengths[i]!)) return null;
  return q.map(([x, y]) => [Math.min(w, Math.max(0, x)), Math.min(h, Math.max(0, y))]);
}

/** Lines of the Hough accumulator that are local peaks, by votes (an edge pixel votes for its own direction and the bins beside it). */
function houghLines(grey: Buffer, w: number, h: number): { lines: Line[]; edges: Edges } {
  const angles = 360 / LOCATE_TUNING.documentQuad.angleStep;
  const diag = Math.ceil(Math.hypot(w, h));
  const rhos = 2 * diag + 1;
  const acc = new Float32Array(angles * rhos);
  const edges: Edges = Array.from({ length: angles }, () => []);
  const cos = Float64Array.from({ length: angles }, (_, a) => Math.cos((a * LOCATE_TUNING.documentQuad.angleStep * Math.PI) / 180));
  const sin = Float64Array.from({ length: angles }, (_, a) => Math.sin((a * LOCATE_TUNING.documentQuad.angleStep * Math.PI) / 180));
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = grey[i - w + 1]! + 2 * grey[i + 1]! + grey[i + w + 1]! - grey[i - w - 1]! - 2 * grey[i - 1]! - grey[i + w - 1]!;
      const gy = grey[i + w - 1]! + 2 * grey[i + w]! + grey[i + w + 1]! - grey[i - w - 1]! - 2 * grey[i - w]! - grey[i - w + 1]!;
      if (gx * gx + gy * gy < LOCATE_TUNING.documentQuad.edgeMagnitude * LOCATE_TUNING.documentQuad.edgeMagnitude) continue;
      const dir = (((Math.atan2(gy, gx) * 180) / Math.PI + 360) % 360) / LOCATE_TUNING.documentQuad.angleStep;
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
      if (peak) lines.push({ angle: (a * LOCATE_TUNING.documentQuad.angleStep * Math.PI) / 180, rho: r - diag, votes: v });
    }
  }
  return { lines, edges };
}

/** Edge pixels (analysis px), x and y pairs, by their direction's Hough bin. */
type Edges = number[][];

/** Pixels of the segment a-b of line l covered by edge pixels of its direction (bins one either side count). */
const segmentSupport = (edges: Edges, l: Line, a: Point, b: Point): number =>
  edgeSupport(edges, l, a, b, { angleStep: LOCATE_TUNING.documentQuad.angleStep, spread: 1 });

/** Where two lines cross (null when they cross at an angle whose sine is under `minSine`: nearly parallel). */
const meet = (a: Line, b: Line, minSine: number = LOCATE_TUNING.documentQuad.cornerMinSine): Point | null => meetAt(a, b, minSine);

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
