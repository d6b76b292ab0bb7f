import fs from 'node:fs';
import type { CameraFrames } from './fake-camera.js';

/**
 * A sample person to film: a frontal face, the head rendered turned for each liveness beacon, and
 * a specimen passport with the same portrait (public-domain Grace Hopper portrait, US Navy; the
 * name and numbers on the passport are invented). Through the real pipeline (live mode, or test
 * mode with a name that does not force a verdict) a head that follows the prompts is approved
 * with `SAMPLE_PERSON.fullName`; a still photo or a head turning the wrong way gets `liveness_failed`.
 */
export const SAMPLE_PERSON = {
  /** As printed on the specimen passport (surname ORTEGA LINDQVIST, given name MARTA). */
  fullName: 'Marta Ortega Lindqvist',
} as const;

const dir = new URL('../frames/', import.meta.url);
const read = (name: string) => fs.readFileSync(new URL(`${name}.jpg`, dir));

/** The sample person's camera frames (1280x720 JPEG, unmirrored as a webcam films them). */
export function sampleFrames(): Required<CameraFrames> {
  return {
    front: read('front'),
    document: read('document'),
    turn_left: read('turn_left'),
    turn_right: read('turn_right'),
    look_up: read('look_up'),
    look_down: read('look_down'),
  };
}
