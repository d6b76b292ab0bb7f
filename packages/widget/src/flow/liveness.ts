import { LIMITS, LIVENESS_ANCHOR_ROLE, type LivenessInfo, type LivenessPose, type UploadSlot } from '@service/contract';
import { AbortedError, type ApiClient } from '../api/client.js';
import { FlowError } from '../api/errors.js';
import { atCentre, feedbackFor, poseReached, type Feedback } from '../vision/pose.js';
import type { FaceReading } from '../vision/vision.js';
import type { VerificationSession } from './session.js';

/** What the liveness screen shows; `step` 0 is the anchor frame. */
export interface LivenessView {
  phase: 'ready' | 'anchor' | 'pose' | 'burst' | 'centre';
  step: number;
  pose: LivenessPose | null;
  feedback: Feedback | null;
  /** True once the pose is held (or the step timed out and the burst is taken anyway). */
  reached: boolean;
  timedOut: boolean;
}

export const LIVENESS_TIMINGS = {
  /** Without the pose, the burst is taken anyway after this long: nobody is stuck. */
  poseTimeoutMs: 10_000,
  /** The pose must be held this long, plus a random 0-holdJitterMs, before the burst. */
  holdMs: 300,
  holdJitterMs: 400,
  /** Frames of a burst are 150-300 ms apart. */
  burstGapMinMs: 150,
  burstGapMaxMs: 300,
  /** Longest wait for a centred face, counted from the first face the models find, before the anchor frame is taken anyway. */
  anchorWaitMs: 4_000,
  /**
   * Longest wait for the anchor in all. The face models' first inferences can take seconds on a
   * slow phone or a busy machine; the 4 s above only start once they answer with a face, so a
   * late model does not leave the run without an anchor (and every pose unjudgeable).
   */
  anchorMaxWaitMs: 12_000,
  /** "Back to centre" waits for the face near the anchor, at least the first, at most the second. */
  centreMinMs: 600,
  centreMaxMs: 2_500,
  /** Spacing of live readings when the device cannot read faces. */
  idleTickMs: 200,
  /** A step whose frames answer `challenge_expired` is repeated at most this many times. */
  expiredRepeats: 2,
} as const;

export interface Reading {
  face: FaceReading | null;
  luma: number;
  /** False when no on-device vision runs: only the timeout path is possible. */
  vision: boolean;
}

export interface LivenessDeps {
  api: ApiClient;
  session: VerificationSession;
  info: LivenessInfo;
  grab(): Promise<Blob>;
  read(): Promise<Reading>;
  onView(view: LivenessView): void;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Resolves when a reading has taken too long (defaults to `sleep`; a test clock replaces it). */
  readTimeout?(ms: number, signal: AbortSignal): Promise<void>;
  random(): number;
  now(): number;
}

const frameSlot = (info: LivenessInfo, role: string): UploadSlot => ({
  url: info.frameUrlTemplate.replace('{step}', role.split('-')[1]!).replace('{frame}', role.split('-')[2]!),
  key: '',
  method: 'PUT',
  headers: info.anchor.headers,
});

const reasonOf = (err: unknown): unknown => (err instanceof FlowError ? err.detail.detail?.['reason'] : undefined);

/**
 * The active-liveness challenge after the get-ready screen: the anchor frame, then each beacon
 * with live guidance until the pose is held (or 10 s pass), its burst of four frames uploaded at
 * once, and back to the centre. `challenge_expired` repeats the step with the re-issued beacon.
 */
export async function runLiveness(d: LivenessDeps): Promise<void> {
  const signal = d.session.signal;
  const check = () => {
    if (signal.aborted) throw new AbortedError();
  };
  const token = d.info.anchor.headers['X-Service-Upload-Token'];
  let view: LivenessView = { phase: 'anchor', step: 0, pose: null, feedback: null, reached: false, timedOut: false };
  const show = (patch: Partial<LivenessView>) => {
    view = { ...view, ...patch };
    d.onView(view);
  };
  /**
   * One live reading, spaced so a device without vision does not spin, and never waited for past
   * `deadline`: a slow device still moves on at the step's timeout (the reading then counts as
   * no face).
   */
  const tick = async (deadline: number): Promise<Reading> => {
    const wait = new AbortController();
    const late = (d.readTimeout ?? d.sleep)(Math.max(0, deadline - d.now()), wait.signal).then((): Reading => ({
      face: null,
      luma: 255,
      vision: true,
    }));
    const reading = await Promise.race([d.read(), late]);
    wait.abort();
    check();
    if (!reading.vision) await d.sleep(LIVENESS_TIMINGS.idleTickMs, signal);
    check();
    return reading;
  };

  // The anchor: a frontal frame, taken once the face is centred, or 4 s after the models first
  // found a face (12 s at most). Poses are judged against the centred face, else the last face seen.
  show({});
  let anchor: FaceReading | null = null;
  let lastFace: FaceReading | null = null;
  const anchorStart = d.now();
  let anchorDeadline = anchorStart + LIVENESS_TIMINGS.anchorMaxWaitMs;
  while (d.now() < anchorDeadline) {
    const r = await tick(anchorDeadline);
    show({ feedback: r.vision ? feedbackFor(r.face, r.luma) : null });
    if (!r.vision) break;
    if (r.face && lastFace === null) anchorDeadline = Math.min(anchorDeadline, d.now() + LIVENESS_TIMINGS.anchorWaitMs);
    lastFace = r.face ?? lastFace;
    if (r.face && feedbackFor(r.face, r.luma) === 'ok') {
      anchor = r.face;
      break;
    }
  }
  anchor ??= lastFace;
  await d.session.putFrame(LIVENESS_ANCHOR_ROLE, d.info.anchor, await d.grab());
  check();

  let expiredRepeats = 0;
  for (;;) {
    const beacon = await d.api.challenge(d.info.challengeUrl, token, signal);
    check();
    if (beacon.done) return;
    show({ phase: 'pose', step: beacon.step, pose: beacon.pose, feedback: null, reached: false, timedOut: false });

    // Follow the head live until the pose is held briefly (a random extra so timing cannot be scripted).
    const start = d.now();
    const hold = LIVENESS_TIMINGS.holdMs + d.random() * LIVENESS_TIMINGS.holdJitterMs;
    let heldSince: number | null = null;
    for (;;) {
      const r = await tick(start + LIVENESS_TIMINGS.poseTimeoutMs);
      const reached = anchor !== null && r.face !== null && poseReached(beacon.pose, anchor, r.face);
      const feedback = r.vision ? (reached ? 'ok' : feedbackFor(r.face, r.luma)) : null;
      heldSince = reached ? (heldSince ?? d.now()) : null;
      show({ feedback, reached });
      if (heldSince !== null && d.now() - heldSince >= hold) break;
      if (d.now() - start >= LIVENESS_TIMINGS.poseTimeoutMs) {
        show({ timedOut: true });
        break;
      }
    }

    // The burst: four frames, each uploaded as soon as it is taken.
    show({ phase: 'burst', reached: true });
    const sent: Promise<void>[] = [];
    for (let k = 0; k < beacon.roles.length; k++) {
      const role = beacon.roles[k]!;
      const blob = await d.grab();
      check();
      const upload = d.session.putFrame(role, frameSlot(d.info, role), blob);
      upload.catch(() => {}); // examined below, after the burst
      sent.push(upload);
      if (k < beacon.roles.length - 1) {
        const { burstGapMinMs: min, burstGapMaxMs: max } = LIVENESS_TIMINGS;
        await d.sleep(min + d.random() * (max - min), signal);
        check();
      }
    }
    const outcomes = await Promise.allSettled(sent);
    check();
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) {
      if (reasonOf(failure.reason) !== 'challenge_expired') throw failure.reason;
      expiredRepeats++;
      if (expiredRepeats > LIVENESS_TIMINGS.expiredRepeats) {
        const detail = failure.reason instanceof FlowError ? failure.reason.detail.detail : undefined;
        throw new FlowError({
          code: 'internal_error',
          message: `liveness step ${beacon.step}: the beacon expired ${expiredRepeats} times`,
          ...(detail ? { detail } : {}),
        });
      }
      continue; // the same step again, with the re-issued beacon
    }
    expiredRepeats = 0;

    // Back to the centre before the next beacon.
    if (beacon.step < LIMITS.livenessSteps) {
      show({ phase: 'centre', pose: null, reached: false, timedOut: false });
      const centreStart = d.now();
      for (;;) {
        const r = await tick(centreStart + LIVENESS_TIMINGS.centreMaxMs);
        const elapsed = d.now() - centreStart;
        const centred = anchor !== null && r.face !== null && atCentre(anchor, r.face);
        show({ feedback: r.vision ? feedbackFor(r.face, r.luma) : null });
        if (elapsed >= LIVENESS_TIMINGS.centreMaxMs || (elapsed >= LIVENESS_TIMINGS.centreMinMs && (centred || !r.vision))) break;
      }
    }
  }
}
