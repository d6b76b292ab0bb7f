import { describe, expect, it } from 'vitest';
import {
  applySimilarity,
  ARCFACE_112,
  DLIB_150,
  eyeDistance,
  invertSimilarity,
  scaledTemplate,
  similarityTransform,
  warpToTemplate,
  type FivePoints,
  type Point,
  type RgbImage,
} from '../../src/faces/align.js';
import { fivePointsOfMesh } from '@service/api/pipeline/read/faces/descriptor/mesh-points';
import { alignedCrop } from '@service/api/pipeline/read/faces/descriptor/face-crop';

const rotateScale = (p: Point, angle: number, s: number, t: Point): Point => [
  s * (Math.cos(angle) * p[0] - Math.sin(angle) * p[1]) + t[0],
  s * (Math.sin(angle) * p[0] + Math.cos(angle) * p[1]) + t[1],
];

/** A black image with a white 3 x 3 dot at each point. */
function dots(width: number, height: number, points: readonly Point[]): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (const [x, y] of points)
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++)
        data.fill(
          255,
          ((Math.round(y) + dy) * width + Math.round(x) + dx) * 3,
          ((Math.round(y) + dy) * width + Math.round(x) + dx) * 3 + 3,
        );
  return { data, width, height };
}

/** The brightness-weighted centre of the crop's pixels within `r` of `near`. */
function brightCentre(img: RgbImage, near: Point, r = 6): Point {
  let sx = 0;
  let sy = 0;
  let sw = 0;
  for (let y = Math.max(0, Math.floor(near[1] - r)); y <= Math.min(img.height - 1, near[1] + r); y++)
    for (let x = Math.max(0, Math.floor(near[0] - r)); x <= Math.min(img.width - 1, near[0] + r); x++) {
      const w = img.data[(y * img.width + x) * 3]!;
      sx += w * x;
      sy += w * y;
      sw += w;
    }
  return [sx / sw, sy / sw];
}

describe('similarityTransform', () => {
  it('recovers a rotation, scale and shift exactly from five points', () => {
    const from = ARCFACE_112.points;
    const to = from.map((p) => rotateScale(p, 0.3, 2.5, [40, -7]));
    const s = similarityTransform(from, to);
    for (let i = 0; i < 5; i++) {
      const [x, y] = applySimilarity(s, from[i]!);
      expect(x).toBeCloseTo(to[i]![0], 6);
      expect(y).toBeCloseTo(to[i]![1], 6);
    }
    const back = invertSimilarity(s);
    const [x, y] = applySimilarity(back, applySimilarity(s, [3, 4]));
    expect(x).toBeCloseTo(3, 9);
    expect(y).toBeCloseTo(4, 9);
  });

  it('is the least-squares fit when the points do not match exactly', () => {
    const from: Point[] = [
      [0, 0],
      [10, 0],
      [0, 10],
    ];
    // A pure scale of 2 with one point pushed off: the fit stays near scale 2, no rotation.
    const s = similarityTransform(from, [
      [0, 0],
      [20, 0],
      [0, 21],
    ]);
    expect(Math.hypot(s.a, s.b)).toBeGreaterThan(1.9);
    expect(Math.hypot(s.a, s.b)).toBeLessThan(2.2);
    expect(Math.abs(Math.atan2(s.b, s.a))).toBeLessThan(0.05);
  });

  it('refuses points that coincide', () => {
    expect(() =>
      similarityTransform(
        [
          [1, 1],
          [1, 1],
        ],
        [
          [0, 0],
          [1, 1],
        ],
      ),
    ).toThrow();
  });
});

describe('warping to a template', () => {
  // A face's five points somewhere in a larger image, turned 20 degrees and 3 times the template's size.
  const template = DLIB_150;
  const face = template.points.map((p) => rotateScale(p, (20 * Math.PI) / 180, 3, [200, 60])) as FivePoints;
  const img = dots(700, 700, face);

  it('puts each of the face points on its template point', () => {
    const crop = warpToTemplate(img, face, template);
    expect(crop.width).toBe(150);
    for (const p of template.points) {
      const [x, y] = brightCentre(crop, p);
      expect(Math.hypot(x - p[0], y - p[1])).toBeLessThan(1);
    }
  });

  it('does so through the lanczos-resampled region as well', async () => {
    const crop = await alignedCrop(img, face, template);
    for (const p of template.points) {
      const [x, y] = brightCentre(crop, p);
      expect(Math.hypot(x - p[0], y - p[1])).toBeLessThan(1.5);
    }
  });

  it('keeps the face turned when asked for an upright crop, at the same scale and place', () => {
    const crop = warpToTemplate(img, face, template, { upright: true });
    const [l, r] = [brightCentre(crop, template.points[0], 12), brightCentre(crop, template.points[1], 12)];
    // The eye line stays at the face's 20 degrees; the eyes' midpoint stays near the template's.
    expect((Math.atan2(r[1] - l[1], r[0] - l[0]) * 180) / Math.PI).toBeCloseTo(20, 0);
    expect(Math.hypot(r[0] - l[0], r[1] - l[1])).toBeCloseTo(eyeDistance(template.points), 0);
  });

  it('scales a template about the crop centre', () => {
    const t = scaledTemplate(ARCFACE_112, 224, 0.5);
    expect(t.width).toBe(224);
    expect(eyeDistance(t.points)).toBeCloseTo(eyeDistance(ARCFACE_112.points), 6);
    expect(scaledTemplate(ARCFACE_112, 224).points[0][0]).toBeCloseTo(2 * 38.2946, 6);
  });
});

describe('fivePointsOfMesh', () => {
  it('takes the eye rings, the nose tip and the mouth corners of the 468-point mesh', () => {
    const mesh = Array.from({ length: 468 }, (_, i) => [i, 1000 + i, 0]);
    const [left, right, nose, mouthL, mouthR] = fivePointsOfMesh(mesh);
    // The eye rings' mean indices: the image-left ring averages 143.8125, the image-right one 371.75.
    expect(left[0]).toBeCloseTo(143.8125, 6);
    expect(right[0]).toBeCloseTo(371.75, 6);
    expect(nose).toEqual([1, 1001]);
    expect(mouthL).toEqual([61, 1061]);
    expect(mouthR).toEqual([291, 1291]);
  });
});
