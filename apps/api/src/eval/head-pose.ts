/**
 * Renders a frontal portrait with the head turned: the test suites' fake camera needs a head that
 * a landmark model reads as turned (a flat tilt of the photo does not read as a turn). The face
 * mesh (468 points with depth) is rotated about a pivot behind the face and each of its triangles
 * redrawn from the original pixels, nearest last; the picture around the face follows with a
 * smooth falloff so no second face shows where the head was.
 *
 * Signs as the pipeline reads them in unmirrored frames (`pipeline/liveness.ts`): a positive yaw
 * turns the head to the person's left (the nose moves to the image's right), a positive pitch
 * looks down.
 */

export interface RgbImage {
  /** Packed RGB, 3 bytes per pixel. */
  data: Buffer;
  width: number;
  height: number;
}

export interface FaceMesh {
  /** Points in pixels of the image; z nearer the camera is smaller, on about the scale of x. */
  points: [number, number, number][];
  /** Triangles as index triples into `points`. */
  triangles: number[];
}

type Vec3 = [number, number, number];

/** Rotation of the head: yaw about the vertical axis, then pitch about the horizontal one, both through `pivot`. */
function rotator(yawDeg: number, pitchDeg: number, pivot: Vec3): (p: Vec3) => Vec3 {
  const a = (yawDeg * Math.PI) / 180;
  const b = (pitchDeg * Math.PI) / 180;
  const [cx, cy, cz] = pivot;
  return ([x, y, z]) => {
    // Yaw: the nose (z < cz) moves to +x for a positive angle.
    const x1 = (x - cx) * Math.cos(a) - (z - cz) * Math.sin(a);
    const z1 = (x - cx) * Math.sin(a) + (z - cz) * Math.cos(a);
    // Pitch: the nose moves to +y (down) for a positive angle.
    const y2 = (y - cy) * Math.cos(b) - z1 * Math.sin(b);
    const z2 = (y - cy) * Math.sin(b) + z1 * Math.cos(b);
    return [cx + x1, cy + y2, cz + z2];
  };
}

/** Bilinear sample of `src` at (x, y) into `out` at byte offset `o`. */
function sample(src: RgbImage, x: number, y: number, out: Buffer, o: number): void {
  const { width: w, height: h, data } = src;
  const xc = Math.min(Math.max(x, 0), w - 1.001);
  const yc = Math.min(Math.max(y, 0), h - 1.001);
  const x0 = Math.floor(xc);
  const y0 = Math.floor(yc);
  const fx = xc - x0;
  const fy = yc - y0;
  const i00 = (y0 * w + x0) * 3;
  const i01 = i00 + 3;
  const i10 = i00 + w * 3;
  const i11 = i10 + 3;
  for (let c = 0; c < 3; c++) {
    const top = data[i00 + c]! * (1 - fx) + data[i01 + c]! * fx;
    const bottom = data[i10 + c]! * (1 - fx) + data[i11 + c]! * fx;
    out[o + c] = Math.round(top * (1 - fy) + bottom * fy);
  }
}

type P2 = [number, number];

/** Fills the destination triangle `d` with the source triangle `s`'s pixels (affine map through barycentric weights). */
function drawTriangle(src: RgbImage, out: RgbImage, s: [P2, P2, P2], d: [P2, P2, P2]): void {
  const [[x0, y0], [x1, y1], [x2, y2]] = d;
  const det = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2);
  if (Math.abs(det) < 1e-6) return;
  const minX = Math.max(0, Math.floor(Math.min(x0, x1, x2)));
  const maxX = Math.min(out.width - 1, Math.ceil(Math.max(x0, x1, x2)));
  const minY = Math.max(0, Math.floor(Math.min(y0, y1, y2)));
  const maxY = Math.min(out.height - 1, Math.ceil(Math.max(y0, y1, y2)));
  const eps = -1e-4;
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const l0 = ((y1 - y2) * (px - x2) + (x2 - x1) * (py - y2)) / det;
      const l1 = ((y2 - y0) * (px - x2) + (x0 - x2) * (py - y2)) / det;
      const l2 = 1 - l0 - l1;
      if (l0 < eps || l1 < eps || l2 < eps) continue;
      const sx = l0 * s[0][0] + l1 * s[1][0] + l2 * s[2][0] - 0.5;
      const sy = l0 * s[0][1] + l1 * s[1][1] + l2 * s[2][1] - 0.5;
      sample(src, sx, sy, out.data, (y * out.width + x) * 3);
    }
  }
}

/** Twice the signed area: its sign says which way a triangle faces. */
const orientation = (a: P2, b: P2, c: P2) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);

const smoothstep = (t: number) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

/** Spacing (pixels) of the grid that carries the picture around the face. */
const GRID = 12;

export function renderHeadPose(
  src: RgbImage,
  mesh: FaceMesh,
  pose: { yawDeg: number; pitchDeg: number },
  /** `pivot`: depth of the neck's axis behind the nose, in face widths (default 0.75). */
  opts: { pivot?: number } = {},
): RgbImage {
  const pts = mesh.points;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const zs = pts.map((p) => p[2]);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const faceW = maxX - minX;
  const faceH = maxY - minY;
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const nearest = Math.min(...zs);
  const deepest = Math.max(...zs);
  // The neck's axis lies behind the face (a real one about three quarters of its width behind the nose).
  const pivot: Vec3 = [cx, cy + faceH * 0.1, nearest + faceW * (opts.pivot ?? 0.75)];
  const rotate = rotator(pose.yawDeg, pose.pitchDeg, pivot);
  const out: RgbImage = { data: Buffer.alloc(src.data.length), width: src.width, height: src.height };

  // The picture around the face (hair, ears, collar) moves as if at the depth of the face's edge,
  // fully inside the face's ellipse and not at all beyond 2.2 times it.
  const edgeDepth = deepest - (deepest - nearest) * 0.1;
  const moved = (x: number, y: number): P2 => {
    const d = Math.hypot((x - cx) / (faceW / 2), (y - cy) / (faceH / 2));
    const w = 1 - smoothstep((d - 1) / 1.2);
    if (w === 0) return [x, y];
    const [rx, ry] = rotate([x, y, edgeDepth]);
    return [x + (rx - x) * w, y + (ry - y) * w];
  };
  const cols = Math.ceil(src.width / GRID);
  const rows = Math.ceil(src.height / GRID);
  const grid: { s: P2; d: P2 }[] = [];
  for (let j = 0; j <= rows; j++) {
    for (let i = 0; i <= cols; i++) {
      const s: P2 = [Math.min(i * GRID, src.width), Math.min(j * GRID, src.height)];
      grid.push({ s, d: moved(s[0], s[1]) });
    }
  }
  const at = (i: number, j: number) => grid[j * (cols + 1) + i]!;
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const a = at(i, j);
      const b = at(i + 1, j);
      const c = at(i, j + 1);
      const d = at(i + 1, j + 1);
      drawTriangle(src, out, [a.s, b.s, c.s], [a.d, b.d, c.d]);
      drawTriangle(src, out, [b.s, d.s, c.s], [b.d, d.d, c.d]);
    }
  }

  // The face itself: every triangle still facing the camera, farthest first.
  const turned = pts.map((p) => rotate(p));
  const tris: { idx: [number, number, number]; depth: number }[] = [];
  for (let t = 0; t + 2 < mesh.triangles.length; t += 3) {
    const idx: [number, number, number] = [mesh.triangles[t]!, mesh.triangles[t + 1]!, mesh.triangles[t + 2]!];
    const [p, q, r] = idx.map((k) => pts[k]!);
    const [P, Q, R] = idx.map((k) => turned[k]!);
    const before = orientation([p![0], p![1]], [q![0], q![1]], [r![0], r![1]]);
    const after = orientation([P![0], P![1]], [Q![0], Q![1]], [R![0], R![1]]);
    if (Math.sign(before) !== Math.sign(after)) continue;
    tris.push({ idx, depth: (P![2] + Q![2] + R![2]) / 3 });
  }
  tris.sort((a, b) => b.depth - a.depth);
  for (const { idx } of tris) {
    const s = idx.map((k) => [pts[k]![0], pts[k]![1]] as P2) as [P2, P2, P2];
    const d = idx.map((k) => [turned[k]![0], turned[k]![1]] as P2) as [P2, P2, P2];
    drawTriangle(src, out, s, d);
  }
  return out;
}
