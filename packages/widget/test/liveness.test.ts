import { describe, expect, it } from 'vitest';
import { LIMITS, type ChallengeBeacon, type LivenessInfo, type LivenessPose, type UploadSlot } from '@service/contract';
import type { ApiClient } from '../src/api/client.js';
import { FlowError } from '../src/api/errors.js';
import { LIVENESS_TIMINGS, runLiveness, type LivenessView, type Reading } from '../src/flow/liveness.js';
import type { VerificationSession } from '../src/flow/session.js';
import { feedbackFor, poseReached, WIDGET_MIN_DELTA_DEGREES } from '../src/vision/pose.js';

const headers = { 'X-Service-Upload-Token': 'tok', 'Content-Type': 'image/jpeg' as const };
const info: LivenessInfo = {
  challengeUrl: 'https://api.test/v1/verify/challenge/vf_x/next',
  steps: 4,
  burst: 4,
  anchor: { url: 'https://api.test/v1/verify/upload/vf_x/liveness-anchor', key: 'k', method: 'PUT', headers },
  frameUrlTemplate: 'https://api.test/v1/verify/upload/vf_x/liveness-{step}-{frame}',
};
const POSES: LivenessPose[] = ['turn_left', 'look_up', 'turn_right', 'look_down'];

/**
 * A scripted challenge: `expire(step)` answers that step's frames with challenge_expired this many times.
 * `modelsAnswerAt`: the face models answer nothing before this time (a slow first inference); a
 * reading asked for earlier either answers then or, if the step's deadline comes first, times out.
 */
function harness(
  opts: {
    expire?: Record<number, number>;
    readings?: (t: number, pose: LivenessPose | null) => Reading;
    modelsAnswerAt?: number;
  } = {},
) {
  let clock = 0;
  let deadline: { at: number; fire: () => void } | null = null;
  let step = 0;
  const uploads: { role: string; url: string; at: number }[] = [];
  const sleeps: number[] = [];
  const views: LivenessView[] = [];
  const expire = { ...(opts.expire ?? {}) };
  let current: LivenessPose | null = null;
  const api = {
    challenge: async (): Promise<ChallengeBeacon> => {
      const done = uploads.filter((u) => u.role.startsWith(`liveness-${step}-`)).length >= 4;
      if (step === 0 || done) step++;
      if (step > 4) return { verificationId: 'vf_x', done: true, requestId: 'r' };
      current = POSES[step - 1]!;
      return {
        verificationId: 'vf_x',
        step,
        totalSteps: 4,
        pose: current,
        burst: 4,
        roles: [1, 2, 3, 4].map((k) => `liveness-${step}-${k}`),
        nonce: 'n',
        expiresAt: 0,
        done: false,
        requestId: 'r',
      };
    },
  };
  const session = {
    signal: new AbortController().signal,
    putFrame: async (role: string, slot: UploadSlot) => {
      const s = Number(role.split('-')[1]);
      if (expire[s]) {
        if (role.endsWith('-4')) expire[s]--;
        throw new FlowError({ code: 'internal_error', message: 'x', detail: { reason: 'challenge_expired' } });
      }
      uploads.push({ role, url: slot.url, at: clock });
    },
  };
  const run = () =>
    runLiveness({
      api: api as unknown as ApiClient,
      session: session as unknown as VerificationSession,
      info,
      grab: async () => new Blob(['jpeg']),
      read: async () => {
        const answerAt = opts.modelsAnswerAt ?? 0;
        if (clock < answerAt) {
          // The step's deadline (asked for just before this reading) comes first: the reading is late.
          if (deadline !== null && deadline.at < answerAt) {
            clock = deadline.at;
            deadline.fire();
            return new Promise<Reading>(() => {});
          }
          clock = answerAt;
        }
        clock += 50;
        return opts.readings
          ? opts.readings(clock, views.at(-1)?.phase === 'pose' ? current : null)
          : { face: null, luma: 128, vision: false };
      },
      onView: (v) => views.push(v),
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
      readTimeout: (ms) => new Promise<void>((fire) => (deadline = { at: clock + ms, fire })),
      random: () => 0.5,
      now: () => clock,
    });
  return { run, uploads, sleeps, views };
}

/** A centred frontal face, and the same face turned well past the widget's line for a pose. */
const front = { score: 0.9, box: [0.35, 0.25, 0.3, 0.45] as [number, number, number, number], yaw: 2, pitch: 10 };
const turned = (pose: LivenessPose) => {
  const d = WIDGET_MIN_DELTA_DEGREES + 5;
  const yaw = pose === 'turn_left' ? front.yaw - d : pose === 'turn_right' ? front.yaw + d : front.yaw;
  const pitch = pose === 'look_down' ? front.pitch + d : pose === 'look_up' ? front.pitch - d : front.pitch;
  return { ...front, yaw, pitch };
};

describe('the liveness run', () => {
  it('without on-device vision: the anchor, then four beacons each timing out after 10 s, bursts of 4 frames 150-300 ms apart', async () => {
    const h = harness();
    await h.run();
    expect(h.uploads.map((u) => u.role)).toEqual([
      'liveness-anchor',
      ...[1, 2, 3, 4].flatMap((s) => [1, 2, 3, 4].map((k) => `liveness-${s}-${k}`)),
    ]);
    expect(h.uploads[1]!.url).toBe('https://api.test/v1/verify/upload/vf_x/liveness-1-1');
    // random() = 0.5 puts each burst gap mid-range: 225 ms (the idle reading tick is 200 ms).
    const mid = (LIVENESS_TIMINGS.burstGapMinMs + LIVENESS_TIMINGS.burstGapMaxMs) / 2;
    expect(h.sleeps.filter((ms) => ms === mid)).toHaveLength(12);
    // Each step waited its full 10 s before the burst was taken anyway.
    const step1 = h.uploads.find((u) => u.role === 'liveness-1-1')!.at;
    expect(step1).toBeGreaterThanOrEqual(LIVENESS_TIMINGS.poseTimeoutMs);
    expect(h.views.filter((v) => v.timedOut && v.phase === 'burst')).toHaveLength(4);
    expect(new Set(h.views.filter((v) => v.phase === 'pose').map((v) => v.step))).toEqual(new Set([1, 2, 3, 4]));
  });

  it('with a head that follows: the burst is taken once the pose is held, well before the timeout', async () => {
    const h = harness({ readings: (_t, pose) => ({ face: pose ? turned(pose) : front, luma: 128, vision: true }) });
    await h.run();
    const step1 = h.uploads.find((u) => u.role === 'liveness-1-1')!.at;
    expect(step1).toBeLessThan(2_000);
    expect(h.views.some((v) => v.phase === 'pose' && v.reached)).toBe(true);
    expect(h.views.some((v) => v.timedOut)).toBe(false);
    expect(h.views.some((v) => v.phase === 'centre')).toBe(true);
  });

  it('face models that first answer after 6 s: the anchor waits for them, and every pose is still judged', async () => {
    const h = harness({ modelsAnswerAt: 6_000, readings: (_t, pose) => ({ face: pose ? turned(pose) : front, luma: 128, vision: true }) });
    await h.run();
    const anchorAt = h.uploads.find((u) => u.role === 'liveness-anchor')!.at;
    expect(anchorAt).toBeGreaterThanOrEqual(6_000);
    expect(anchorAt).toBeLessThan(LIVENESS_TIMINGS.anchorMaxWaitMs);
    expect(new Set(h.views.filter((v) => v.phase === 'pose' && v.reached).map((v) => v.step))).toEqual(new Set([1, 2, 3, 4]));
    expect(h.views.some((v) => v.timedOut)).toBe(false);
  });

  it('models that never answer: the anchor is taken at the 12 s bound and each step times out, nobody is stuck', async () => {
    const h = harness({ modelsAnswerAt: Infinity, readings: () => ({ face: front, luma: 128, vision: true }) });
    await h.run();
    expect(h.uploads.find((u) => u.role === 'liveness-anchor')!.at).toBe(LIVENESS_TIMINGS.anchorMaxWaitMs);
    expect(h.views.filter((v) => v.timedOut && v.phase === 'burst')).toHaveLength(4);
    expect(h.uploads).toHaveLength(17);
  });

  it('a face found but never centred: the anchor frame 4 s after the first face, and poses judged against that face', async () => {
    const aside = { ...front, box: [0.02, 0.25, 0.3, 0.45] as [number, number, number, number] };
    expect(feedbackFor(aside, 128)).toBe('off_centre');
    const h = harness({
      readings: (t, pose) =>
        t < 1_000 ? { face: null, luma: 128, vision: true } : { face: pose ? turned(pose) : aside, luma: 128, vision: true },
    });
    await h.run();
    const anchorAt = h.uploads.find((u) => u.role === 'liveness-anchor')!.at;
    expect(anchorAt).toBeGreaterThanOrEqual(1_000 + LIVENESS_TIMINGS.anchorWaitMs);
    expect(anchorAt).toBeLessThan(1_000 + LIVENESS_TIMINGS.anchorWaitMs + 200);
    expect(new Set(h.views.filter((v) => v.phase === 'pose' && v.reached).map((v) => v.step))).toEqual(new Set([1, 2, 3, 4]));
  });

  it('challenge_expired repeats the step with the re-issued beacon', async () => {
    const h = harness({ expire: { 2: 1 } });
    await h.run();
    expect(h.uploads.filter((u) => u.role.startsWith('liveness-')).length).toBe(17);
    expect(h.views.filter((v) => v.phase === 'pose' && v.step === 2 && !v.reached && v.feedback === null).length).toBeGreaterThan(1);
  });

  it('after two repeats, a third challenge_expired stops with internal_error and the API detail', async () => {
    const h = harness({ expire: { 1: 3 } });
    await expect(h.run()).rejects.toMatchObject({ detail: { code: 'internal_error', detail: { reason: 'challenge_expired' } } });
  });
});

describe('pose judgement against the anchor', () => {
  const anchor = { yaw: 3, pitch: 12 };
  it('each pose needs a change the right way beyond the widget line (stricter than the server`s)', () => {
    expect(WIDGET_MIN_DELTA_DEGREES).toBeGreaterThan(LIMITS.livenessPoseDegrees);
    // Turning to one's left moves the nose to the image's right: yaw goes down.
    expect(poseReached('turn_left', anchor, { yaw: 3 - 11, pitch: 12 })).toBe(true);
    expect(poseReached('turn_left', anchor, { yaw: 3 - 9, pitch: 12 })).toBe(false);
    expect(poseReached('turn_left', anchor, { yaw: 3 + 14, pitch: 12 })).toBe(false);
    expect(poseReached('turn_right', anchor, { yaw: 3 + 11, pitch: 12 })).toBe(true);
    expect(poseReached('turn_right', anchor, { yaw: 3 - 14, pitch: 12 })).toBe(false);
    expect(poseReached('look_down', anchor, { yaw: 3, pitch: 12 + 11 })).toBe(true);
    expect(poseReached('look_up', anchor, { yaw: 3, pitch: 12 - 14 })).toBe(true);
    expect(poseReached('look_up', anchor, { yaw: 3, pitch: 12 + 14 })).toBe(false);
  });
  it('feedback: dark, no face, too far, off centre, ok', () => {
    const face = { score: 0.9, box: [0.35, 0.25, 0.3, 0.45] as [number, number, number, number], yaw: 0, pitch: 0 };
    expect(feedbackFor(face, 20)).toBe('too_dark');
    expect(feedbackFor(null, 128)).toBe('no_face');
    expect(feedbackFor({ ...face, box: [0.45, 0.4, 0.1, 0.15] }, 128)).toBe('too_far');
    expect(feedbackFor({ ...face, box: [0.0, 0.25, 0.3, 0.45] }, 128)).toBe('off_centre');
    expect(feedbackFor(face, 128)).toBe('ok');
  });
});
