/**
 * The alignment of winner/face-align.ts (five points, similarity transform, warp, dlib's chip),
 * and what the evaluation adds: insightface's template and templates scaled to other crops.
 */
import type { FivePoints, Point, Template } from '@service/api/pipeline/read/faces/descriptor/face-align';

export * from '@service/api/pipeline/read/faces/descriptor/face-align';

/** insightface's ArcFace template for 112 x 112 crops (arcface_dst in insightface's face_align.py). */
export const ARCFACE_112: Template = {
  width: 112,
  height: 112,
  points: [
    [38.2946, 51.6963],
    [73.5318, 51.5014],
    [56.0252, 71.7366],
    [41.5493, 92.3655],
    [70.7299, 92.2041],
  ],
};

/**
 * A template moved to a crop of `size` x `size`, the face scaled by `zoom` about the crop's centre
 * (zoom < 1 leaves a looser crop, more of the head around the face).
 */
export function scaledTemplate(t: Template, size: number, zoom = 1): Template {
  const sx = size / t.width;
  const sy = size / t.height;
  const c = size / 2;
  const points = t.points.map(([x, y]) => [c + (x * sx - c) * zoom, c + (y * sy - c) * zoom] as Point) as FivePoints;
  return { width: size, height: size, points };
}
