import type { WidgetErrorDetail } from '@service/contract';
import { html, nothing, type TemplateResult } from 'lit';
import { ApiClient } from '../api/client.js';
import { FlowError, isAborted } from '../api/errors.js';
import type { CameraController } from '../controllers/camera-controller.js';
import type { Messages } from '../i18n/messages.js';
import { loadVision } from '../vision/vision.js';
import { LIVENESS_TIMINGS, runLiveness, type LivenessView, type Reading } from './liveness.js';
import type { VerificationSession } from './session.js';

/**
 * The active-liveness step's screen and its run on the element (a chunk of its own, loaded when a
 * flow with `active-liveness` starts): the get-ready screen, then the challenge with its live
 * guidance (flow/liveness.ts), its words spoken as they change.
 */

/** What the step needs of the element. */
export interface LivenessHost {
  readonly t: Messages;
  readonly base: string;
  readonly publishableKey: string;
  readonly session: VerificationSession | null;
  readonly camera: CameraController;
  readonly cameraReady: boolean;
  /** The screen's state (reactive on the element). */
  live: LivenessView | null;
  /** Bumped whenever the run must stop (cancel, failure, leaving the step). */
  livenessRun: number;
  preview(label: string, mirrored: boolean): TemplateResult;
  cancelButton(): TemplateResult;
  onReady(): void;
  done(): void;
  fail(err: unknown): void;
  failDetail(detail: WidgetErrorDetail): void;
}

/** Live-region messages about the face (not instructions) are spoken at most this often. */
const FEEDBACK_ANNOUNCE_MS = 2_500;
let lastFeedbackAnnounced = 0;

export const READY_VIEW: LivenessView = { phase: 'ready', step: 0, pose: null, feedback: null, reached: false, timedOut: false };

export function livenessInstruction(t: Messages, live: LivenessView): string {
  switch (live.phase) {
    case 'ready':
      return t.livenessTitle;
    case 'anchor':
      return t.livenessAnchor;
    case 'pose':
      return live.reached ? t.livenessHold : t.livenessPose[live.pose!];
    case 'burst':
      return live.timedOut ? t.livenessTimedOut : t.livenessBurst;
    case 'centre':
      return t.livenessCentre;
  }
}

/** What the live region says for this change: instructions when they change, feedback about the face at most every 2.5 s. */
export function livenessAnnouncement(t: Messages, before: LivenessView | null | undefined, now: LivenessView): string | null {
  const instruction = livenessInstruction(t, now);
  if (!before || instruction !== livenessInstruction(t, before)) {
    lastFeedbackAnnounced = performance.now();
    return instruction;
  }
  if (now.feedback && now.feedback !== before.feedback && now.feedback !== 'ok') {
    if (performance.now() - lastFeedbackAnnounced >= FEEDBACK_ANNOUNCE_MS) {
      lastFeedbackAnnounced = performance.now();
      return t.livenessFeedback[now.feedback];
    }
  }
  return null;
}

/** The challenge, after the get-ready screen: anchor, four beacons, their bursts uploaded. */
export async function runLivenessStep(host: LivenessHost): Promise<void> {
  const session = host.session;
  const info = session?.init?.liveness;
  if (!session || !info) return host.failDetail({ code: 'internal_error', message: 'init returned no liveness challenge' });
  const run = ++host.livenessRun;
  const alive = () => {
    if (run !== host.livenessRun || host.session !== session) throw new FlowError({ code: 'user_cancelled', message: 'stopped' });
  };
  const vision = await loadVision(host.base);
  try {
    await runLiveness({
      api: new ApiClient(host.base, host.publishableKey),
      session,
      info,
      grab: async () => {
        alive();
        return (await host.camera.capture(960)).blob;
      },
      read: async (): Promise<Reading> => {
        alive();
        const video = host.camera.liveVideo;
        const detection = video && vision ? await vision.detect(video) : null;
        // A frame that could not be read is a reading without a face, not a device without
        // vision (which would end the wait for the anchor); spaced so a failing read cannot spin.
        if (vision && !detection) await new Promise((resolve) => setTimeout(resolve, LIVENESS_TIMINGS.idleTickMs));
        alive();
        return { face: detection?.face ?? null, luma: detection?.luma ?? 255, vision: vision !== null };
      },
      onView: (view) => {
        if (run === host.livenessRun) host.live = view;
      },
      sleep: (ms, signal) =>
        new Promise((resolve) => {
          const timer = setTimeout(resolve, ms);
          signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        }),
      random: Math.random,
      now: () => performance.now(),
    });
    if (run === host.livenessRun) host.done();
  } catch (err) {
    if (run === host.livenessRun && host.session === session && !isAborted(err)) host.fail(err);
  }
}

/** The direction cue, as the user sees it in the mirrored preview (their left is the screen's left). */
function cue(live: LivenessView): TemplateResult | typeof nothing {
  if (live.phase !== 'pose' || !live.pose) return nothing;
  const arrow = { turn_left: '←', turn_right: '→', look_up: '↑', look_down: '↓' }[live.pose];
  return html`<span class="cue cue-${live.pose}" aria-hidden="true">${arrow}</span>`;
}

export function renderLiveness(host: LivenessHost): TemplateResult {
  const t = host.t;
  const live = host.live ?? READY_VIEW;
  if (live.phase === 'ready') {
    return html`
      <h2 tabindex="-1">${t.livenessTitle}</h2>
      <p id="hint">${t.livenessReadyBody}</p>
      <p class="note" data-no-turn>${t.livenessNoTurn}</p>
      <div class="stage portrait">
        ${host.preview(t.previewLabel, true)}
        <div class="frame oval" aria-hidden="true"></div>
        ${host.cameraReady ? nothing : html`<div class="status">${t.startingCamera}</div>`}
      </div>
      <div class="actions">
        ${host.cancelButton()}
        <button type="button" part="start-button" class="primary" ?disabled=${!host.cameraReady} @click=${() => host.onReady()}>
          ${t.livenessReadyButton}
        </button>
      </div>
    `;
  }
  const instruction = livenessInstruction(t, live);
  const feedback = live.feedback ? t.livenessFeedback[live.feedback] : '';
  return html`
    <p class="step-count">${live.step === 0 ? t.livenessAnchor : t.livenessStepOf(live.step, 4)}</p>
    <h2 tabindex="-1">${t.livenessTitle}</h2>
    <div class="stage portrait">
      ${host.preview(t.previewLabel, true)}
      <div class="frame oval ${live.reached ? 'reached' : ''}" aria-hidden="true"></div>
      <div part="liveness-guide" class="guide" data-phase=${live.phase} data-reached=${String(live.reached)}>
        ${cue(live)}
        <p id="hint" class="instruction">
          ${live.reached && live.phase === 'pose' ? html`<span aria-hidden="true">✓ </span>` : nothing}${instruction}
        </p>
        ${feedback ? html`<p class="feedback" data-feedback=${live.feedback!}>${live.feedback === 'ok' ? '✓ ' : '! '}${feedback}</p>` : nothing}
      </div>
    </div>
    <p class="note">${t.livenessNoTurn}</p>
    <div class="actions">${host.cancelButton()}</div>
  `;
}
