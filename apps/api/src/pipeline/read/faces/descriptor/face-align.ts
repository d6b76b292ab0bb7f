/**
 * Face alignment by five landmarks: the similarity transform (rotation, uniform scale,
 * translation) that best maps a face's eye centres, nose tip and mouth corners onto a model's
 * canonical template (least squares, Umeyama 1991), and the crop warped through it.
 * Face-recognition models are trained on crops made this way; a crop that is merely boxed puts
 * the eyes elsewhere than the model learnt them.
 */

export type Point = [number, number];

/** Five points in image order: eye on the image's left, eye on its right, nose tip, mouth corner left, mouth corner right. */
export type FivePoints = [Point, Point, Point, Point, Point];

/** A model's canonical five points in its own crop's pixels, and that crop's size. */
export interface Template {
  width: number;
  height: number;
  points: FivePoints;
}

/**
 * dlib's 150 x 150 face chip with padding 0.25 (get_face_chip_details), as its ResNet face
 * descriptor (face-api's recognition net) was trained on: the eye centres, nose tip and mouth
 * corners of dlib's mean face shape, mapped as ((p + 0.25) / 1.5) * 150.
 */
export const DLIB_150: Template = {
  width: 150,
  height: 150,
  points: [
    [47.55, 46.6],
    [100.48, 46.6],
    [74.01, 76.56],
    [50.41, 103.02],
    [97.61, 103.02],
  ],
};

/** x' = a x - b y + tx, y' = b x + a y + ty. */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

/** The least-squares similarity mapping `from` onto `to` (same length, at least two distinct points). */
export function similarityTransform(from: readonly Point[], to: readonly Point[]): Similarity {
  const n = from.length;
  if (n !== to.length || n < 2) throw new Error('similarityTransform needs matching lists of two or more points');
  let fx = 0;
  let fy = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i]![0];
    fy += from[i]![1];
    tx += to[i]![0];
    ty += to[i]![1];
  }
  fx /= n;
  fy /= n;
  tx /= n;
  ty /= n;
  // With centred points p (from) and q (to): a = sum(p.q) / |p|^2, b = sum(p x q) / |p|^2.
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const px = from[i]![0] - fx;
    const py = from[i]![1] - fy;
    const qx = to[i]![0] - tx;
    const qy = to[i]![1] - ty;
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
    norm += px * px + py * py;
  }
  if (norm === 0) throw new Error('similarityTransform: the points coincide');
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: tx - (a * fx - b * fy), ty: ty - (b * fx + a * fy) };
}

export const applySimilarity = (s: Similarity, [x, y]: Point): Point => [s.a * x - s.b * y + s.tx, s.b * x + s.a * y + s.ty];

export function invertSimilarity(s: Similarity): Similarity {
  const d = s.a * s.a + s.b * s.b;
  const a = s.a / d;
  const b = -s.b / d;
  return { a, b, tx: -(a * s.tx - b * s.ty), ty: -(b * s.tx + a * s.ty) };
}

/** Interleaved 8-bit RGB pixels. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * The crop of `template`'s size whose pixel (u, v) shows the source at the inverse transform of
 * (u, v): bilinear, pixel centres at .5, outside the source black (insightface's cv2.warpAffine
 * borderValue 0). A crop much smaller than the face is first brought nearer its size by the
 * caller (the evaluation's prepare.ts; `face-descriptor.ts` here); bilinear sampling alone aliases a large face.
 */
export function warpToTemplate(img: RgbImage, points: FivePoints, template: Template, opts: { upright?: boolean } = {}): RgbImage {
  const toCrop = opts.upright
    ? withoutRotation(similarityTransform(points, template.points), points)
    : similarityTransform(points, template.points);
  const back = invertSimilarity(toCrop);
  const { width: W, height: H } = template;
  const out = new Uint8Array(W * H * 3);
  const src = img.data;
  for (let v = 0; v < H; v++)
    for (let u = 0; u < W; u++) {
      // cv2.warpAffine maps integer pixel positions; insightface's template is in those terms.
      const [x, y] = applySimilarity(back, [u, v]);
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const fx = x - x0;
      const fy = y - y0;
      const o = (v * W + u) * 3;
      for (let c = 0; c < 3; c++) {
        const at = (xx: number, yy: number) =>
          xx < 0 || yy < 0 || xx >= img.width || yy >= img.height ? 0 : src[(yy * img.width + xx) * 3 + c]!;
        const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
        const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
        out[o + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  return { data: out, width: W, height: H };
}

/**
 * The same scale, the points' centroid still mapped where `s` maps it, no rotation: the crop a
 * box around the face gives (measured against alignment, `upright` in the evaluation).
 */
export function withoutRotation(s: Similarity, points: readonly Point[]): Similarity {
  const cx = points.reduce((t, p) => t + p[0], 0) / points.length;
  const cy = points.reduce((t, p) => t + p[1], 0) / points.length;
  const [tx, ty] = applySimilarity(s, [cx, cy]);
  const a = Math.hypot(s.a, s.b);
  return { a, b: 0, tx: tx - a * cx, ty: ty - a * cy };
}

/** The distance between the eye centres: the face's size for the purposes of alignment. */
export const eyeDistance = (p: FivePoints) => Math.hypot(p[1][0] - p[0][0], p[1][1] - p[0][1]);
