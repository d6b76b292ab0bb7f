import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PERSON } from '@service/fixtures/pose-frames';
import type { VerificationImages } from '../../src/pipeline/pipeline.js';
import { VisionPipeline } from '../../src/pipeline/vision-pipeline.js';

/**
 * The sample person `@service/testing` ships (written by `eval/write-pose-frames.ts`): through the
 * real pipeline, a head that follows every beacon is approved in live mode, and a still photo, a
 * head turning the wrong way or a frame sent for two beacons is not.
 */
const FRAMES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'packages', 'testing', 'frames');
const frame = (name: string) => fs.readFileSync(path.join(FRAMES, `${name}.jpg`));
const POSES = ['turn_left', 'look_up', 'turn_right', 'look_down'] as const;
const OPPOSITE = { turn_left: 'turn_right', turn_right: 'turn_left', look_up: 'look_down', look_down: 'look_up' } as const;
const FULL_NAME = `${SAMPLE_PERSON.givenNames} ${SAMPLE_PERSON.surname}`;

let pipeline: VisionPipeline;
beforeAll(async () => {
  pipeline = await VisionPipeline.start({ ocrWorkers: 1, now: () => new Date('2026-11-26T12:00:00Z') });
}, 90_000);
afterAll(() => pipeline?.stop());

/** Four identical frames per step, as a virtual camera showing one picture per pose gives them. */
function images(show: (pose: (typeof POSES)[number]) => string): VerificationImages {
  return {
    docFront: frame('document'),
    docBack: null,
    selfie: frame('front'),
    liveness: { anchor: frame('front'), steps: POSES.map((pose, k) => ({ step: k + 1, pose, frames: Array(4).fill(frame(show(pose))) })) },
  };
}
const run = (show: (pose: (typeof POSES)[number]) => string) =>
  pipeline.run({ submittedFullName: FULL_NAME, documentType: null, country: null }, images(show));

describe('the sample person of @service/testing through the real pipeline', () => {
  it('a head that follows every beacon is approved', async () => {
    const r = await run((pose) => pose);
    expect(r).toMatchObject({ verdict: 'approved', reasons: [] });
    expect(r.scores.liveness).toBe(1);
  }, 120_000);

  it('a still frontal photo is not approved: liveness_failed', async () => {
    const r = await run(() => 'front');
    expect(r.verdict).not.toBe('approved');
    expect(r.reasons).toContain('liveness_failed');
    expect(r.scores.liveness).toBe(0);
  }, 120_000);

  it('a head turning the wrong way fails every step', async () => {
    const r = await run((pose) => OPPOSITE[pose]);
    expect(r.reasons).toContain('liveness_failed');
    expect(r.scores.liveness).toBe(0);
  }, 120_000);
});
