import { createHash } from 'node:crypto';
import { LIMITS } from '@service/contract';
import { decodeImage, fromDecoded, type DecodedImage } from '../../decode/decode.js';
import type { FaceModels } from '../faces/face-models.js';
import type { FaceResult } from '../faces/faces.js';

/**
 * Active liveness: each step's four frames must show the pose its beacon asked for, relative to
 * the same person's frontal anchor, with the same face throughout, and no picture may serve two
 * beacons (or be the anchor again).
 *
 * Sign convention, in unmirrored frames (what the widget uploads: only its preview is mirrored),
 * as human reads them: the user turning to THEIR left (the nose moves to the image's right) moves
 * yaw DOWN; turning to their right moves it up (a man filmed with his nose to the image's right,
 * `tools/fixtures/faces/camera.png`, reads yaw -43). Looking down moves pitch up, looking up moves it
 * down. Read angles are a fraction of the true turn (about half on real photos, a third or less on
 * the suites' rendered heads, whose flat tilts read at most 3.3 degrees of yaw and 6.9 of pitch),
 * so a frame shows a pose when it moves at least MIN_DELTA degrees from the anchor the right way.
 */
export const LIVENESS_RULES = {
  minDeltaDegrees: LIMITS.livenessPoseDegrees,
  /** Frames of a step that must show the pose. */
  framesNeeded: 3,
  /**
   * face_match (`FaceModels.similarity`, 0-1) to the anchor below which a frame is someone else,
   * and the anchor another face than the selfie's. Measured (evaluation/src/faces/
   * liveness-same-face.ts) on 40 people of the real-face set rendered as the liveness suites render
   * heads (`renderPoseFrames`), each turned frame against its own frontal anchor and every other
   * person's: the same person turned 0.53-0.96 (5th percentile 0.63, median 0.80; 1 of 102 under
   * this line, a look-down), other people's median 0.44, 90th percentile 0.59, 99th 0.68, highest
   * 0.77; the sample person's frames (packages/testing/frames) 0.71-0.84. Human's FaceRes, the
   * descriptor before, on the same frames at its line 0.45: the same person's 5th percentile 0.48,
   * other people's 90th percentile 0.45. A turned head is told from another person less surely
   * than a frontal one: the anchor against the selfie, both frontal, is the stronger check.
   */
  sameFace: 0.55,
  /** Mean absolute difference (0-255) of 32x32 grey thumbnails under which two frames are the same picture. */
  nearDuplicate: 1.5,
} as const;

export type Pose = 'turn_left' | 'turn_right' | 'look_up' | 'look_down';

export function showsPose(pose: Pose, anchor: Pick<FaceResult, 'yaw' | 'pitch'>, frame: Pick<FaceResult, 'yaw' | 'pitch'>): boolean {
  const dYaw = frame.yaw - anchor.yaw;
  const dPitch = frame.pitch - anchor.pitch;
  const t = LIVENESS_RULES.minDeltaDegrees;
  switch (pose) {
    case 'turn_left':
      return dYaw <= -t;
    case 'turn_right':
      return dYaw >= t;
    case 'look_down':
      return dPitch >= t;
    case 'look_up':
      return dPitch <= -t;
  }
}

async function thumbnail(img: DecodedImage): Promise<Buffer> {
  return fromDecoded(img).resize(32, 32, { fit: 'fill' }).greyscale().raw().toBuffer();
}

/** Frames are decoded once (at the face models' size); one that does not decode shows no face. */
const FRAME_SIDE = 512;

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs(a[i]! - b[i]!);
  return d / a.length;
}

export interface LivenessResult {
  /** Share of steps passed, 0-1; 0 when the anchor has no face or the faces differ. */
  score: number;
  /** Per step; `framesWithPose` and `sameFace` count only the frames analysed (none once a step cannot pass). */
  steps: { step: number; pose: string; passed: boolean; framesWithPose: number; duplicate: boolean; sameFace: boolean }[];
}

export async function judgeLiveness(
  faces: FaceModels,
  input: { anchor: Buffer; selfieFace: FaceResult | null; steps: { step: number; pose: string; frames: Buffer[] }[] },
): Promise<LivenessResult> {
  const all = [input.anchor, ...input.steps.flatMap((s) => s.frames)];
  const decoded = await Promise.all(all.map((b) => decodeImage(b, FRAME_SIDE).catch(() => null)));
  const anchor = decoded[0] ? await faces.analyse(decoded[0], FRAME_SIDE) : null;
  if (!anchor) return { score: 0, steps: [] };
  const sameAsSelfie = input.selfieFace
    ? (await faces.similarity(anchor.embedding, input.selfieFace.embedding)) >= LIVENESS_RULES.sameFace
    : false;

  // No picture may serve two beacons or repeat the anchor. Within a burst, frames of a head held
  // still may be alike (a virtual camera's are identical): the pose and the beacon's timing judge those.
  const hashes = all.map((b) => createHash('sha256').update(b).digest('hex'));
  const thumbs = await Promise.all(decoded.map((d) => (d ? thumbnail(d) : Promise.resolve(null))));
  const stepOf = [0, ...input.steps.flatMap((s, k) => s.frames.map(() => k + 1))];
  const duplicateIndex = new Set<number>();
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      if (stepOf[i] === stepOf[j]) continue;
      const a = thumbs[i];
      const b = thumbs[j];
      if (hashes[i] === hashes[j] || (a && b && meanAbsDiff(a, b) < LIVENESS_RULES.nearDuplicate)) {
        duplicateIndex.add(i);
        duplicateIndex.add(j);
      }
    }
  }

  const steps: LivenessResult['steps'] = [];
  let offset = 1;
  for (const s of input.steps) {
    // Pose frame by frame; identity from the first frame with a face, whose analysis includes the
    // embedding (the rest skip that model; one analysis per frame, not a second for the probe).
    const frames = decoded.slice(offset, offset + s.frames.length);
    const duplicate = s.frames.some((_, k) => duplicateIndex.has(offset + k));
    // A step is decided once enough frames showed the pose: the rest of its burst is not analysed.
    // Nor once it can no longer pass: too few frames left to show the pose, a picture that served
    // another beacon, or an anchor that is not the selfie's face (the score is 0 whatever the steps).
    const detected: FaceResult[] = [];
    let probeFace: FaceResult | null = null;
    let framesWithPose = 0;
    for (const [k, f] of frames.entries()) {
      if (probeFace && framesWithPose >= LIVENESS_RULES.framesNeeded) break;
      if (duplicate || !sameAsSelfie || framesWithPose + (frames.length - k) < LIVENESS_RULES.framesNeeded) break;
      if (!f) continue;
      const withEmbedding: FaceResult | null = probeFace ? null : await faces.analyse(f, FRAME_SIDE);
      probeFace ??= withEmbedding;
      const face = withEmbedding ?? (await faces.analyse(f, FRAME_SIDE, { embedding: false }));
      if (!face) continue;
      detected.push(face);
      if (showsPose(s.pose as Pose, anchor, face)) framesWithPose++;
    }
    offset += s.frames.length;
    // A frame where no face was found shows no pose.
    const sameFace =
      detected.length >= LIVENESS_RULES.framesNeeded &&
      probeFace !== null &&
      (await faces.similarity(anchor.embedding, probeFace.embedding)) >= LIVENESS_RULES.sameFace;
    steps.push({
      step: s.step,
      pose: s.pose,
      passed: !duplicate && sameFace && framesWithPose >= LIVENESS_RULES.framesNeeded,
      framesWithPose,
      duplicate,
      sameFace,
    });
  }
  const passed = steps.filter((s) => s.passed).length;
  const score = sameAsSelfie && steps.length ? passed / steps.length : 0;
  return { score: Math.round(score * 1000) / 1000, steps };
}
