import type { FivePoints, Point } from './face-align.js';

/**
 * Mesh indices (MediaPipe's 468-point face mesh, as human returns it): the eye rings, the nose
 * tip, the mouth corners. The eye on the image's left is the subject's right.
 */
const EYE_IMAGE_LEFT = [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7];
const EYE_IMAGE_RIGHT = [263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249];
const NOSE_TIP = 1;
const MOUTH_LEFT = 61;
const MOUTH_RIGHT = 291;

/** The five points from a 468-point mesh. */
export function fivePointsOfMesh(mesh: readonly (readonly number[])[]): FivePoints {
  const mean = (idx: number[]): Point => [
    idx.reduce((s, i) => s + mesh[i]![0]!, 0) / idx.length,
    idx.reduce((s, i) => s + mesh[i]![1]!, 0) / idx.length,
  ];
  const at = (i: number): Point => [mesh[i]![0]!, mesh[i]![1]!];
  return [mean(EYE_IMAGE_LEFT), mean(EYE_IMAGE_RIGHT), at(NOSE_TIP), at(MOUTH_LEFT), at(MOUTH_RIGHT)];
}
