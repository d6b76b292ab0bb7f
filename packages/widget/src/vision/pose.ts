import { LIMITS, type LivenessPose } from '@service/contract';
import type { FaceReading } from './vision.js';

/**
 * Judging a pose on the device, against the user's own frontal anchor (measured angles read
 * a fraction of the true turn, and a frontal face already reads some pitch). The line is a
 * little stricter than the server's (`LIMITS.livenessPoseDegrees`, judged in the API's pipeline
 * with the same library), so a pose the widget accepts is one the server accepts.
 * Signs as the API's `pipeline/liveness.ts` fixes them: turning to one's left lowers yaw.
 */
export const WIDGET_MIN_DELTA_DEGREES = LIMITS.livenessPoseDegrees + 2;
/** Back at the centre: within this many degrees of the anchor on both axes. */
export const CENTRE_DEGREES = 6;

export type Feedback = 'no_face' | 'too_far' | 'off_centre' | 'too_dark' | 'ok';

/** Signed change from the anchor in the direction the pose asks for (unmirrored frames). */
export function poseProgress(
  pose: LivenessPose,
  anchor: Pick<FaceReading, 'yaw' | 'pitch'>,
  face: Pick<FaceReading, 'yaw' | 'pitch'>,
): number {
  const dYaw = face.yaw - anchor.yaw;
  const dPitch = face.pitch - anchor.pitch;
  switch (pose) {
    case 'turn_left':
      return -dYaw;
    case 'turn_right':
      return dYaw;
    case 'look_down':
      return dPitch;
    case 'look_up':
      return -dPitch;
  }
}

export function poseReached(
  pose: LivenessPose,
  anchor: Pick<FaceReading, 'yaw' | 'pitch'>,
  face: Pick<FaceReading, 'yaw' | 'pitch'>,
): boolean {
  return poseProgress(pose, anchor, face) >= WIDGET_MIN_DELTA_DEGREES;
}

export function atCentre(anchor: Pick<FaceReading, 'yaw' | 'pitch'>, face: Pick<FaceReading, 'yaw' | 'pitch'>): boolean {
  return Math.abs(face.yaw - anchor.yaw) <= CENTRE_DEGREES && Math.abs(face.pitch - anchor.pitch) <= CENTRE_DEGREES;
}

/** Mean luma (0-255) under which the frame is too dark to judge. */
export const DARK_LUMA = 45;
/** A face narrower than this share of the frame is too far away. */
export const MIN_FACE_WIDTH = 0.18;
/** The face's centre must lie within these distances (share of the frame) of the frame's centre. */
export const MAX_CENTRE_OFFSET_X = 0.2;
/** Looser up and down: a face's box centre sits above the middle of a well-framed selfie. */
export const MAX_CENTRE_OFFSET_Y = 0.28;

/** What to tell the user about this frame; `ok` when the face is found, near enough, centred and lit. */
export function feedbackFor(face: FaceReading | null, luma: number): Feedback {
  if (luma < DARK_LUMA) return 'too_dark';
  if (!face) return 'no_face';
  const [x, y, w, h] = face.box;
  if (w < MIN_FACE_WIDTH) return 'too_far';
  if (Math.abs(x + w / 2 - 0.5) > MAX_CENTRE_OFFSET_X || Math.abs(y + h / 2 - 0.5) > MAX_CENTRE_OFFSET_Y) return 'off_centre';
  return 'ok';
}
