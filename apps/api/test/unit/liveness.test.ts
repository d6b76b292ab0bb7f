import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { FACES_DIR } from '@service/fixtures/synthetic-documents';
import type { FaceModels } from '../../src/pipeline/read/faces/face-models.js';
import { FaceAnalyzer } from '../../src/pipeline/read/faces/faces.js';
import { judgeLiveness, showsPose } from '../../src/pipeline/read/liveness/liveness.js';

const fixtures = FACES_DIR;
let faces: FaceAnalyzer;
beforeAll(async () => {
  faces = await FaceAnalyzer.start();
}, 60_000);

describe('pose rules (unmirrored frames)', () => {
  const anchor = { yaw: 2, pitch: 10 };
  it.each([
    ['turn_left', { yaw: -8, pitch: 10 }, true],
    ['turn_left', { yaw: -4, pitch: 10 }, false],
    ['turn_left', { yaw: 15, pitch: 10 }, false],
    ['turn_right', { yaw: 12, pitch: 10 }, true],
    ['turn_right', { yaw: -12, pitch: 10 }, false],
    ['look_down', { yaw: 2, pitch: 25 }, true],
    ['look_up', { yaw: 2, pitch: -5 }, true],
    ['look_up', { yaw: 2, pitch: 15 }, false],
  ] as const)('%s with %o: %s', (pose, frame, expected) => {
    expect(showsPose(pose, anchor, frame)).toBe(expected);
  });
});

describe('judging a challenge with real faces', () => {
  // camera.png: a man filmed with his nose toward the image's right, turned to HIS left (he looks
  // into a camera on his left), yaw about -43. Its mirror image is the same man turned to his right. Variants differ in light and JPEG
  // quality, as consecutive frames do (crops are avoided: a 43-degree turn is at the edge of
  // what the detector finds).
  const variant = (img: Sharp, i: number) =>
    img
      .modulate({ brightness: 0.85 + 0.06 * i })
      .jpeg({ quality: 92 - 2 * i })
      .toBuffer();
  const turnedLeft = (i: number) => variant(sharp(path.join(fixtures, 'camera.png')), i);
  const turnedRight = (i: number) => variant(sharp(path.join(fixtures, 'camera.png')).flop(), i);

  it('passes a step whose frames show the asked pose, fails one whose frames do not, and voids a picture that serves two beacons', async () => {
    const anchor = await turnedRight(0);
    const selfieFace = await faces.analyse(await turnedRight(1));
    const left = await Promise.all([1, 2, 3, 4].map(turnedLeft));
    // Asked to turn right, these frames stay as the anchor is: no pose shown.
    const notRight = await Promise.all([1, 2, 3, 4].map(turnedRight));
    // A head held still in a virtual camera: one picture four times within its own step is fine...
    const held = await turnedLeft(5);
    // ...but a picture sent again for another beacon voids both steps.
    const r = await judgeLiveness(faces, {
      anchor,
      selfieFace,
      steps: [
        { step: 1, pose: 'turn_left', frames: left },
        { step: 2, pose: 'turn_right', frames: notRight },
        { step: 3, pose: 'turn_left', frames: [held, held, held, held] },
      ],
    });
    expect(r.steps[0]).toMatchObject({ passed: true, sameFace: true, duplicate: false });
    expect(r.steps[0]!.framesWithPose).toBeGreaterThanOrEqual(3);
    expect(r.steps[1]).toMatchObject({ passed: false, framesWithPose: 0 });
    expect(r.steps[2]).toMatchObject({ passed: true, duplicate: false });
    expect(r.score).toBeCloseTo(2 / 3, 3);

    const replayed = await judgeLiveness(faces, {
      anchor,
      selfieFace,
      steps: [
        { step: 1, pose: 'turn_left', frames: left },
        { step: 2, pose: 'turn_left', frames: [left[0]!, held, held, held] },
      ],
    });
    expect(replayed.steps.map((s) => s.duplicate)).toEqual([true, true]);
    expect(replayed.score).toBe(0);
  }, 60_000);

  it('analyses no frame of a step once it cannot pass: too few frames left, a replayed picture, another face at the anchor', async () => {
    // Frames analysed, counted through the port the pipeline passes (its face thread in production).
    let analysed = 0;
    const counting: FaceModels = {
      analyse: (...a) => (analysed++, faces.analyse(...a)),
      analyseDocument: (...a) => faces.analyseDocument(...a),
      analyseSelfie: (...a) => faces.analyseSelfie(...a),
      similarity: (...a) => faces.similarity(...a),
    };
    const anchor = await turnedRight(0);
    const selfieFace = await faces.analyse(await turnedRight(1));
    const left = await Promise.all([1, 2, 3, 4].map(turnedLeft));
    const notRight = await Promise.all([1, 2, 3, 4].map(turnedRight));
    const shown = await judgeLiveness(counting, { anchor, selfieFace, steps: [{ step: 1, pose: 'turn_left', frames: left }] });
    expect(shown.score).toBe(1);
    expect(analysed).toBe(1 + 3); // the anchor, then three frames showing the pose
    analysed = 0;
    // Two frames without the pose: two left cannot make the three needed.
    const lost = await judgeLiveness(counting, { anchor, selfieFace, steps: [{ step: 1, pose: 'turn_right', frames: notRight }] });
    expect(lost.steps[0]).toMatchObject({ passed: false, framesWithPose: 0 });
    expect(analysed).toBe(1 + 2);
    analysed = 0;
    // A picture sent for two beacons voids both steps before any of their frames is analysed.
    const replayed = await judgeLiveness(counting, {
      anchor,
      selfieFace,
      steps: [
        { step: 1, pose: 'turn_left', frames: left },
        { step: 2, pose: 'turn_left', frames: left },
      ],
    });
    expect(replayed.score).toBe(0);
    expect(analysed).toBe(1);
    analysed = 0;
    // Someone else at the anchor: the score is 0 whatever the frames show.
    const hopper = await faces.analyse(await sharp(path.join(fixtures, 'grace_hopper.jpg')).jpeg().toBuffer());
    const other = await judgeLiveness(counting, { anchor, selfieFace: hopper, steps: [{ step: 1, pose: 'turn_left', frames: left }] });
    expect(other.score).toBe(0);
    expect(analysed).toBe(1);
  }, 60_000);

  it('scores 0 when the anchor is someone else than the selfie', async () => {
    const hopper = await faces.analyse(await sharp(path.join(fixtures, 'grace_hopper.jpg')).jpeg().toBuffer());
    const r = await judgeLiveness(faces, {
      anchor: await turnedRight(0),
      selfieFace: hopper,
      steps: [{ step: 1, pose: 'turn_left', frames: await Promise.all([1, 2, 3, 4].map(turnedLeft)) }],
    });
    expect(r.score).toBe(0);
  }, 60_000);
});
