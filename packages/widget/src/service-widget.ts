import type { WidgetErrorDetail } from '@service/contract';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { ApiClient, isAborted } from './api/client.js';
import { FlowError } from './api/errors.js';
import { CameraController } from './controllers/camera-controller.js';
import { LocalizeController } from './controllers/localize-controller.js';
import { errorMessage } from './i18n/messages.js';
import {
  CAPTURE_STEP_ROLE,
  captureSteps,
  initialState,
  transition,
  type CaptureRole,
  type FlowEvent,
  type FlowState,
  type Step,
} from './flow/machine.js';
import { LIVENESS_TIMINGS, runLiveness, type LivenessView, type Reading } from './flow/liveness.js';
import { VerificationSession } from './flow/session.js';
import { preloadFaceDetector, selfieHasFace } from './quality/face-check.js';
import { loadVision } from './vision/vision.js';
import { styles } from './service-widget.styles.js';

/** The origin this module was served from: the default `api-base`. Read without touching the DOM. */
const SCRIPT_ORIGIN = (() => {
  try {
    return new URL(import.meta.url).origin;
  } catch {
    return '';
  }
})();

/** Live-region messages about the face (not instructions) are spoken at most this often. */
const FEEDBACK_ANNOUNCE_MS = 2_500;

/**
 * `<service-widget>`: guided capture of an ID document and a selfie, uploaded to the
 * identity-verification API.
 *
 * @tag service-widget
 * @attr publishable-key - `qv_pub_…` or `qv_pubt_…` key (required)
 * @attr api-base - API origin; default: the origin this script was loaded from
 * @attr user-ref - your user id, echoed in webhooks (never in widget events)
 * @attr full-name - the name the user typed; drives the name match
 * @attr document-type - `dni`, `passport`, `drivers_license`, `national_id` or `other`
 * @attr country - ISO 3166-1 alpha-2, uppercase
 * @attr document-back - boolean: also capture the back of the document
 * @attr active-liveness - boolean: add the active-liveness step (four head movements guided on the device)
 * @attr locale - `en` (default) or `es`; a regional tag falls back to its language
 *
 * @fires {CustomEvent<WidgetCompleteDetail>} service:complete - images uploaded and submit accepted; detail `{verificationId, status}`
 * @fires {CustomEvent<WidgetErrorDetail>} service:error - the flow stopped; detail `{code, message, detail?}` (`detail` = the API's, verbatim)
 *
 * @csspart start-button - and likewise capture-button, retake-button, confirm-button, submit-button, cancel-button, retry-button
 * @csspart preview - the live camera `<video>`
 * @csspart liveness-guide - the liveness guidance overlay
 * @csspart still - a photo just taken
 * @csspart progress - the upload progress bar
 * @csspart panel - the card
 *
 * @cssprop --service-accent - and likewise --service-accent-fg, --service-bg, --service-fg, --service-muted,
 *   --service-danger, --service-border, --service-focus, --service-radius, --service-font
 *
 * @summary Reflected for tests and styling: `data-step` = intro | document-front | document-back |
 * selfie | liveness | review | uploading | done | error; during liveness `data-liveness-step` =
 * anchor | 1..4 and `data-pose` = the current beacon's pose.
 */
export class ServiceWidget extends LitElement {
  static override styles = styles;

  static override properties = {
    publishableKey: { attribute: 'publishable-key' },
    apiBase: { attribute: 'api-base' },
    userRef: { attribute: 'user-ref' },
    fullName: { attribute: 'full-name' },
    documentType: { attribute: 'document-type' },
    country: {},
    documentBack: { type: Boolean, attribute: 'document-back' },
    activeLiveness: { type: Boolean, attribute: 'active-liveness' },
    locale: {},
    flow: { state: true },
    cameraReady: { state: true },
    live: { state: true },
  };

  declare publishableKey: string | undefined;
  declare apiBase: string | undefined;
  declare userRef: string | undefined;
  declare fullName: string | undefined;
  declare documentType: string | undefined;
  declare country: string | undefined;
  declare documentBack: boolean;
  declare activeLiveness: boolean;
  declare locale: string | undefined;
  declare flow: FlowState;
  declare cameraReady: boolean;
  /** The liveness screen's state while the step runs. */
  declare live: LivenessView | null;

  private readonly camera = new CameraController(this);
  private readonly i18n = new LocalizeController(this, () => this.locale);
  /** The verification in progress: init, background uploads, submit, all abortable. */
  private session: VerificationSession | null = null;
  /** Bumped whenever the liveness run must stop (cancel, failure, leaving the step). */
  private livenessRun = 0;
  private announcement = '';
  private lastFeedbackAnnounced = 0;

  constructor() {
    super();
    this.documentBack = false;
    this.activeLiveness = false;
    this.cameraReady = false;
    this.live = null;
    this.flow = initialState({ documentBack: false, activeLiveness: false });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.dataset.step = this.flow.step;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.session?.abort();
    this.session = null;
    this.livenessRun++;
  }

  // ------------------------------------------------------------------ transitions and their effects

  /** Every change of the flow goes through here: the reducer, then the effect of that transition. */
  private dispatch(event: FlowEvent): void {
    const before = this.flow;
    this.flow = transition(before, event);
    if (this.flow === before) return;
    this.effects(before, this.flow, event);
  }

  private effects(before: FlowState, after: FlowState, event: FlowEvent): void {
    if (before.step !== after.step) {
      if (before.step === 'liveness') {
        this.livenessRun++;
        this.live = null;
      }
      if (after.step === 'liveness') this.live = { phase: 'ready', step: 0, pose: null, feedback: null, reached: false, timedOut: false };
      if (after.step === 'selfie' || after.step === 'liveness') preloadFaceDetector(this.base);
    }
    switch (event.type) {
      case 'STARTING':
        void this.openSession();
        break;
      case 'RESTART':
        if (after.starting) void this.openSession();
        break;
      case 'CONFIRM': {
        const role = CAPTURE_STEP_ROLE[before.step];
        const shot = role ? after.captures[role] : undefined;
        if (role && shot) this.session?.put(role, shot.blob);
        break;
      }
      case 'SUBMIT':
        void this.submit();
        break;
      case 'CANCEL':
        this.session?.abort();
        this.session = null;
        break;
      default:
        break;
    }
  }

  private fail(detail: WidgetErrorDetail): void {
    const before = this.flow.step;
    this.dispatch({ type: 'FAILED', error: detail });
    if (before !== this.flow.step) this.emit('service:error', detail);
  }

  private emit(name: 'service:complete' | 'service:error', detail: object): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private errorOf(err: unknown): WidgetErrorDetail {
    if (err instanceof FlowError) return err.detail;
    return { code: 'internal_error', message: err instanceof Error ? err.message : String(err) };
  }

  /**
   * init when the user presses start (so key, origin and credit errors show before the camera is
   * asked for); after "Try again", the same verification when it is still valid (uploading again
   * only what did not arrive), else a new one with every kept capture uploaded again.
   */
  private async openSession(): Promise<void> {
    let session = this.session;
    try {
      if (session && !session.aborted) {
        const { renewed } = await session.resume();
        if (renewed) this.dispatch({ type: 'LIVENESS_LOST' });
      } else {
        session = new VerificationSession(new ApiClient(this.base, this.publishableKey ?? ''), this.initFields(), {
          onUploadFailed: (err) => {
            if (this.session === session && !isAborted(err)) this.fail(this.errorOf(err));
          },
          onProgress: (fraction) => {
            if (this.session === session) this.dispatch({ type: 'PROGRESS', fraction });
          },
        });
        this.session = session;
        await session.start();
        for (const [role, capture] of Object.entries(this.flow.captures)) session.put(role as CaptureRole, capture.blob);
        this.dispatch({ type: 'LIVENESS_LOST' });
      }
      if (this.session === session) this.dispatch({ type: 'START' });
    } catch (err) {
      if (this.session === session && !isAborted(err)) this.fail(this.errorOf(err));
    }
  }

  private initFields() {
    return {
      ...(this.userRef ? { userRef: this.userRef } : {}),
      ...(this.fullName ? { submittedFullName: this.fullName } : {}),
      ...(this.documentType ? { documentType: this.documentType } : {}),
      ...(this.country ? { country: this.country } : {}),
      ...(this.flow.options.activeLiveness ? { activeLiveness: true } : {}),
    };
  }

  /** Submit follows the last background upload; then `service:complete`. */
  private async submit(): Promise<void> {
    const session = this.session;
    if (!session) return this.fail({ code: 'internal_error', message: 'No verification is open' });
    try {
      const { renewed } = session.expired ? await session.resume() : { renewed: false };
      if (renewed && this.flow.options.activeLiveness) {
        // The liveness frames belonged to the expired verification: the challenge runs again.
        this.dispatch({ type: 'LIVENESS_LOST' });
        throw new FlowError({ code: 'internal_error', message: 'The verification expired during the liveness step; please try again' });
      }
      const result = await session.submit();
      if (this.session !== session) return;
      this.dispatch({ type: 'COMPLETED', verificationId: result.verificationId, status: result.status });
      this.emit('service:complete', { verificationId: result.verificationId, status: result.status });
    } catch (err) {
      if (this.session === session && !isAborted(err)) this.fail(this.errorOf(err));
    }
  }

  // ------------------------------------------------------------------ liveness

  private async runLivenessStep(): Promise<void> {
    const session = this.session;
    const info = session?.init?.liveness;
    if (!session || !info) return this.fail({ code: 'internal_error', message: 'init returned no liveness challenge' });
    const run = ++this.livenessRun;
    const alive = () => {
      if (run !== this.livenessRun || this.session !== session) throw new FlowError({ code: 'user_cancelled', message: 'stopped' });
    };
    const vision = await loadVision(this.base);
    try {
      await runLiveness({
        api: new ApiClient(this.base, this.publishableKey ?? ''),
        session,
        info,
        grab: async () => {
          alive();
          return (await this.camera.capture(960)).blob;
        },
        read: async (): Promise<Reading> => {
          alive();
          const video = this.camera.liveVideo;
          const detection = video && vision ? await vision.detect(video) : null;
          // A frame that could not be read is a reading without a face, not a device without
          // vision (which would end the wait for the anchor); spaced so a failing read cannot spin.
          if (vision && !detection) await new Promise((resolve) => setTimeout(resolve, LIVENESS_TIMINGS.idleTickMs));
          alive();
          return { face: detection?.face ?? null, luma: detection?.luma ?? 255, vision: vision !== null };
        },
        onView: (view) => {
          if (run === this.livenessRun) this.live = view;
        },
        sleep: (ms, signal) =>
          new Promise((resolve) => {
            const timer = setTimeout(resolve, ms);
            signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
          }),
        random: Math.random,
        now: () => performance.now(),
      });
      if (run === this.livenessRun) this.dispatch({ type: 'LIVENESS_DONE' });
    } catch (err) {
      if (run === this.livenessRun && this.session === session && !isAborted(err)) this.fail(this.errorOf(err));
    }
  }

  // ------------------------------------------------------------------ lifecycle: rendering side effects

  protected override willUpdate(changed: PropertyValues<this>): void {
    const previous = changed.get('flow') as FlowState | undefined;
    // The live region announces each new step (rendered, never written to by hand).
    if (previous && previous.step !== this.flow.step) this.announcement = this.stepTitle(this.flow.step);
    if (changed.has('live') && this.live) this.announceLiveness(changed.get('live') as LivenessView | null | undefined, this.live);
    if ((changed.has('documentBack') || changed.has('activeLiveness')) && this.flow.step === 'intro' && !this.flow.starting) {
      this.flow = initialState({ documentBack: this.documentBack, activeLiveness: this.activeLiveness });
    }
  }

  /** Instructions are spoken when they change; feedback about the face at most every 2.5 s. */
  private announceLiveness(before: LivenessView | null | undefined, now: LivenessView): void {
    const instruction = this.livenessInstruction(now);
    if (!before || instruction !== this.livenessInstruction(before)) {
      this.announcement = instruction;
      this.lastFeedbackAnnounced = performance.now();
      return;
    }
    if (now.feedback && now.feedback !== before.feedback && now.feedback !== 'ok') {
      if (performance.now() - this.lastFeedbackAnnounced >= FEEDBACK_ANNOUNCE_MS) {
        this.announcement = this.i18n.t.livenessFeedback[now.feedback];
        this.lastFeedbackAnnounced = performance.now();
      }
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    const previous = changed.get('flow') as FlowState | undefined;
    this.camera.attach(this.renderRoot.querySelector('video'));
    this.reflectLiveness();
    if (!changed.has('flow')) return;
    const step = this.flow.step;
    this.dataset.step = step;

    const wantsCamera = (CAPTURE_STEP_ROLE[step] !== undefined && !this.flow.pending) || step === 'liveness';
    if (wantsCamera) void this.startCamera(step === 'document-front' || step === 'document-back' ? 'environment' : 'user');
    else {
      this.camera.stop();
      this.cameraReady = false;
    }

    if (!previous || previous.step !== step) {
      // Managed focus: each new step starts at its heading.
      this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
    } else if (previous.pending !== this.flow.pending) {
      this.renderRoot.querySelector<HTMLElement>(this.flow.pending ? '[part="confirm-button"]' : '[part="capture-button"]')?.focus();
    }
  }

  /** QA surface: `data-liveness-step` and `data-pose` on the host while the liveness step runs. */
  private reflectLiveness(): void {
    const live = this.flow.step === 'liveness' ? this.live : null;
    if (live && live.phase !== 'ready') this.dataset.livenessStep = live.step === 0 ? 'anchor' : String(live.step);
    else delete this.dataset.livenessStep;
    if (live?.pose) this.dataset.pose = live.pose;
    else delete this.dataset.pose;
  }

  private async startCamera(facing: 'user' | 'environment'): Promise<void> {
    const flow = this.flow;
    try {
      if (this.camera.facing !== facing || !this.camera.stream) this.cameraReady = false;
      await this.camera.start(facing);
      if (this.flow.step === flow.step && (CAPTURE_STEP_ROLE[this.flow.step] || this.flow.step === 'liveness')) this.cameraReady = true;
    } catch (err) {
      if (this.flow.step === flow.step) this.fail(this.errorOf(err));
    }
  }

  // ------------------------------------------------------------------ actions

  private onStart = () => {
    if (!this.publishableKey) {
      this.fail({ code: 'invalid_api_key', message: 'The publishable-key attribute is missing' });
      return;
    }
    this.dispatch({ type: 'STARTING' });
  };

  private onCapture = async () => {
    const role = CAPTURE_STEP_ROLE[this.flow.step];
    if (!role || !this.cameraReady) return;
    try {
      const shot = await this.camera.capture(undefined, true);
      const url = URL.createObjectURL(shot.blob);
      const selfie = role === 'selfie';
      this.dispatch({
        type: 'CAPTURED',
        capture: {
          blob: shot.blob,
          url,
          width: shot.width,
          height: shot.height,
          hints: shot.blurry ? ['blurry_image'] : [],
          checked: !selfie,
        },
      });
      if (selfie) {
        // In the background (in the frame worker): the still shows at once, the hint joins it later.
        void selfieHasFace(shot.blob, this.base).then((found) => {
          this.dispatch({ type: 'CHECKED', url, hints: found === false ? ['no_face_in_selfie'] : [] });
        });
      }
    } catch (err) {
      this.fail(this.errorOf(err));
    }
  };

  private onConfirm = () => this.dispatch({ type: 'CONFIRM' });
  private onRetakePending = () => this.dispatch({ type: 'RETAKE' });
  private onRetake = (role: CaptureRole) => () => this.dispatch({ type: 'RETAKE', role });
  private onSubmit = () => this.dispatch({ type: 'SUBMIT' });

  private onLivenessReady = () => {
    if (this.flow.step !== 'liveness' || this.live?.phase !== 'ready' || !this.cameraReady) return;
    this.live = { ...this.live, phase: 'anchor' };
    void this.runLivenessStep();
  };

  private onCancel = () => {
    const before = this.flow.step;
    const wasError = before === 'error';
    this.dispatch({ type: 'CANCEL' });
    if (wasError || before !== this.flow.step) this.emit('service:error', this.flow.error!);
  };

  private onRetry = () => this.dispatch({ type: 'RESTART' });

  /** The API origin: the `api-base` attribute, else where this script came from. */
  private get base(): string {
    return (this.apiBase || SCRIPT_ORIGIN).replace(/\/+$/, '');
  }

  // ------------------------------------------------------------------ rendering

  private stepTitle(step: Step): string {
    const t = this.i18n.t;
    switch (step) {
      case 'intro':
        return t.title;
      case 'document-front':
        return t.documentFrontTitle;
      case 'document-back':
        return t.documentBackTitle;
      case 'selfie':
        return t.selfieTitle;
      case 'liveness':
        return t.livenessTitle;
      case 'review':
        return t.reviewTitle;
      case 'uploading':
        return t.uploadingTitle;
      case 'done':
        return t.doneTitle;
      case 'error':
        return this.flow.error?.code === 'user_cancelled' ? t.cancelledTitle : t.errorTitle;
    }
  }

  private livenessInstruction(live: LivenessView): string {
    const t = this.i18n.t;
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

  private cancelButton(): TemplateResult {
    return html`<button type="button" part="cancel-button" @click=${this.onCancel}>${this.i18n.t.cancel}</button>`;
  }

  private preview(label: string, mirrored: boolean): TemplateResult {
    return html`<video
      part="preview"
      class=${mirrored ? 'mirrored' : ''}
      muted
      playsinline
      autoplay
      aria-label=${label}
      aria-describedby="hint"
    ></video>`;
  }

  private renderCapture(step: Step): TemplateResult {
    const t = this.i18n.t;
    const steps = captureSteps(this.flow.options);
    const hint = step === 'document-front' ? t.documentFrontHint : step === 'document-back' ? t.documentBackHint : t.selfieHint;
    const pending = this.flow.pending;
    const selfie = step === 'selfie';
    return html`
      <p class="step-count">${t.stepOf(steps.indexOf(step) + 1, steps.length)}</p>
      <h2 tabindex="-1">${this.stepTitle(step)}</h2>
      <p id="hint">${hint}</p>
      <div class="stage ${selfie ? 'portrait' : ''}">
        ${
          pending
            ? html`<img part="still" class="still" src=${pending.url} alt=${this.stepTitle(step)} />`
            : html`${this.preview(t.previewLabel, selfie)}
                <div class="frame ${selfie ? 'oval' : ''}" aria-hidden="true"></div>
                ${this.cameraReady ? nothing : html`<div class="status">${t.startingCamera}</div>`}`
        }
      </div>
      <div class="actions">
        ${this.cancelButton()}
        ${
          pending
            ? html`<button type="button" part="retake-button" @click=${this.onRetakePending}>${t.retake}</button>
                <button type="button" part="confirm-button" class="primary" @click=${this.onConfirm}>${t.confirm}</button>`
            : html`<button type="button" part="capture-button" class="primary" ?disabled=${!this.cameraReady} @click=${this.onCapture}>
                ${t.capture}
              </button>`
        }
      </div>
    `;
  }

  /** The direction cue, as the user sees it in the mirrored preview (their left is the screen's left). */
  private cue(live: LivenessView): TemplateResult | typeof nothing {
    if (live.phase !== 'pose' || !live.pose) return nothing;
    const arrow = { turn_left: '←', turn_right: '→', look_up: '↑', look_down: '↓' }[live.pose];
    return html`<span class="cue cue-${live.pose}" aria-hidden="true">${arrow}</span>`;
  }

  private renderLiveness(): TemplateResult {
    const t = this.i18n.t;
    const live = this.live ?? { phase: 'ready', step: 0, pose: null, feedback: null, reached: false, timedOut: false };
    if (live.phase === 'ready') {
      return html`
        <h2 tabindex="-1">${t.livenessTitle}</h2>
        <p id="hint">${t.livenessReadyBody}</p>
        <p class="note" data-no-turn>${t.livenessNoTurn}</p>
        <div class="stage portrait">
          ${this.preview(t.previewLabel, true)}
          <div class="frame oval" aria-hidden="true"></div>
          ${this.cameraReady ? nothing : html`<div class="status">${t.startingCamera}</div>`}
        </div>
        <div class="actions">
          ${this.cancelButton()}
          <button type="button" part="start-button" class="primary" ?disabled=${!this.cameraReady} @click=${this.onLivenessReady}>
            ${t.livenessReadyButton}
          </button>
        </div>
      `;
    }
    const instruction = this.livenessInstruction(live);
    const feedback = live.feedback ? t.livenessFeedback[live.feedback] : '';
    return html`
      <p class="step-count">${live.step === 0 ? t.livenessAnchor : t.livenessStepOf(live.step, 4)}</p>
      <h2 tabindex="-1">${t.livenessTitle}</h2>
      <div class="stage portrait">
        ${this.preview(t.previewLabel, true)}
        <div class="frame oval ${live.reached ? 'reached' : ''}" aria-hidden="true"></div>
        <div part="liveness-guide" class="guide" data-phase=${live.phase} data-reached=${String(live.reached)}>
          ${this.cue(live)}
          <p id="hint" class="instruction">
            ${live.reached && live.phase === 'pose' ? html`<span aria-hidden="true">✓ </span>` : nothing}${instruction}
          </p>
          ${feedback ? html`<p class="feedback" data-feedback=${live.feedback!}>${live.feedback === 'ok' ? '✓ ' : '! '}${feedback}</p>` : nothing}
        </div>
      </div>
      <p class="note">${t.livenessNoTurn}</p>
      <div class="actions">${this.cancelButton()}</div>
    `;
  }

  private renderReview(): TemplateResult {
    const t = this.i18n.t;
    const roles = captureSteps(this.flow.options).map((s) => CAPTURE_STEP_ROLE[s]!);
    return html`
      <h2 tabindex="-1">${t.reviewTitle}</h2>
      <p>${t.reviewHint}</p>
      <div class="review">
        ${roles.map((role) => {
          const c = this.flow.captures[role]!;
          return html`<figure data-role=${role} data-checked=${String(c.checked)}>
            <img src=${c.url} alt=${t.photoOf[role]} />
            <figcaption>${t.photoOf[role]}</figcaption>
            ${c.hints.map((h) => html`<p class="hint" data-hint=${h}>${h === 'blurry_image' ? t.hintBlurry : t.hintNoFace}</p>`)}
            <button type="button" part="retake-button" aria-label=${t.retakePhoto(t.photoOf[role])} @click=${this.onRetake(role)}>
              ${t.retake}
            </button>
          </figure>`;
        })}
      </div>
      <div class="actions">
        ${this.cancelButton()}
        <button type="button" part="submit-button" class="primary" @click=${this.onSubmit}>${t.submit}</button>
      </div>
    `;
  }

  private renderStep(): TemplateResult {
    const t = this.i18n.t;
    const step = this.flow.step;
    switch (step) {
      case 'intro':
        return html`
          <h2 tabindex="-1">${t.title}</h2>
          <p>${t.introBody}</p>
          <p>${t.introSteps}</p>
          <p class="muted">${t.privacy}</p>
          <p>${t.cameraPrimer}</p>
          ${this.flow.starting ? html`<p class="status-line">${t.connecting}</p>` : nothing}
          <div class="actions">
            ${this.cancelButton()}
            <button type="button" part="start-button" class="primary" ?disabled=${this.flow.starting} @click=${this.onStart}>
              ${t.start}
            </button>
          </div>
        `;
      case 'document-front':
      case 'document-back':
      case 'selfie':
        return this.renderCapture(step);
      case 'liveness':
        return this.renderLiveness();
      case 'review':
        return this.renderReview();
      case 'uploading':
        return html`
          <h2 tabindex="-1">${t.uploadingTitle}</h2>
          <p>${t.uploadingBody}</p>
          <progress part="progress" max="100" .value=${Math.round(this.flow.progress * 100)} aria-label=${t.uploadingTitle}></progress>
          <div class="actions">${this.cancelButton()}</div>
        `;
      case 'done':
        return html`<h2 tabindex="-1">${t.doneTitle}</h2>
          <p>${t.doneBody}</p>`;
      case 'error': {
        const code = this.flow.error?.code ?? 'internal_error';
        const cancelled = code === 'user_cancelled';
        return html`
          <h2 tabindex="-1">${this.stepTitle('error')}</h2>
          <p class=${cancelled ? '' : 'error-text'} data-error-code=${code}>${errorMessage(t, code)}</p>
          <div class="actions">
            ${cancelled ? nothing : this.cancelButton()}
            <button type="button" part="retry-button" class="primary" @click=${this.onRetry}>${t.retry}</button>
          </div>
        `;
      }
    }
  }

  protected override render(): TemplateResult {
    const assertive = this.flow.step === 'liveness';
    return html`<section class="panel" part="panel" lang=${this.i18n.lang} aria-labelledby="title">
      <span id="title" class="visually-hidden">${this.i18n.t.title}</span>
      ${this.renderStep()}
      <div role=${assertive ? 'alert' : 'status'} aria-live=${assertive ? 'assertive' : 'polite'} class="visually-hidden">
        ${this.announcement}
      </div>
    </section>`;
  }
}
