import type { DecodedImage } from '../decode/decode.js';
import type { VerificationImages } from '../pipeline.js';
import type { FaceModels } from './faces/face-models.js';
import type { FaceResult } from './faces/faces.js';
import { judgeLiveness } from './liveness/liveness.js';
import { judgeQuality, measureQuality, type QualityProblem } from './quality/image-quality.js';

/** The selfie read: its face, its quality and the liveness frames' judgement (null without them). */
export interface SelfieRead {
  face: FaceResult | null;
  quality: { score: number; problems: QualityProblem[] };
  liveness: number | null;
}

type Timed = <T>(stage: 'quality' | 'faces' | 'liveness', work: () => Promise<T>) => Promise<T>;

/**
 * The selfie's face (asked of the face thread after the document's portrait, which the printed
 * text waits for), its quality beside it, and the liveness challenge's frames once its face is known.
 */
export async function readSelfie(
  faces: FaceModels,
  selfie: DecodedImage,
  liveness: VerificationImages['liveness'],
  timed: Timed,
): Promise<SelfieRead> {
  const face = timed('faces', () => faces.analyseSelfie(selfie));
  const quality = timed('quality', () => measureQuality(selfie, 'selfie')).then((q) => judgeQuality(q, 'selfie'));
  const live = liveness
    ? face.then((f) => timed('liveness', () => judgeLiveness(faces, { anchor: liveness.anchor, selfieFace: f, steps: liveness.steps }))).then((r) => r.score)
    : Promise.resolve(null);
  const [f, q, l] = await Promise.all([face, quality, live]);
  return { face: f, quality: q, liveness: l };
}
