import type { WidgetErrorDetail } from '@service/contract';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { ApiClient } from './api/client.js';
import { FlowError, isAborted } from './api/errors.js';
import type { CameraController } from './controllers/camera-controller.js';
import type { GuidanceController } from './controllers/guidance-controller.js';
import { LocalizeController } from './controllers/localize-controller.js';
import { errorMessage } from './i18n/messages.js';
import {
  CAMERA_ERRORS,
  CAPTURE_STEP_ROLE,
  captureSteps,
  initialState,
  transition,
  type CaptureRole,
  type FlowEvent,
  type FlowState,
  type Step,
} from './flow/machine.js';
import type { LivenessView } from './flow/liveness.js';
import type * as LivenessScreenModule from './flow/liveness-screen.js';
import type { LivenessHost } from './flow/liveness-screen.js';
import type { SessionBackend, VerificationSession } from './flow/session.js';
import type * as HandoffModule from './handoff/handoff.js';
import type { HandoffView } from './handoff/handoff.js';
import type * as CaptureKit from './capture-kit.js';
import { styles } from './service-widget.styles.js';

/** The origin this module was served from: the default `api-base`. Read without touching the DOM. */
const SCRIPT_ORIGIN = (() => {
  try {
    return new URL(import.meta.url).origin;
  } catch {
    return '';
  }
})();

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
 * @attr locale - `en` (default), `es`, `fr`, `de`, `it`, `pt`, `nl`, `pl`, `tr`, `ar` (right to left), `ja` or `zh`
 *   (Simplified); a regional tag falls back to its language, anything else to `en`
 * @attr manual-capture - boolean: never take the document photo automatically (the guidance stays)
 * @attr cross-device - boolean: offer "Continue on your phone" (a QR code) on the intro and when the camera fails
 * @attr handoff - boolean: the phone's side of a handoff (set by the API's `/continue/<code>` page, not by integrators)
 *
 * @fires {CustomEvent<WidgetCompleteDetail>} service:complete - images uploaded and submit accepted; detail `{verificationId, status}`
 * @fires {CustomEvent<WidgetErrorDetail>} service:error - the flow stopped; detail `{code, message, detail?}` (`detail` = the API's, verbatim)
 *
 * @csspart start-button - and likewise capture-button, retake-button, confirm-button, submit-button, cancel-button, retry-button
 * @csspart preview - the live camera `<video>`
 * @csspart liveness-guide - the liveness guidance overlay
 * @csspart guidance - the document guidance's advice in words (a polite live region)
 * @csspart handoff-button - "Continue on your phone" (with `cross-device`)
 * @csspart handoff-qr - the QR code of the phone's link; handoff-link, copy-button and handoff-status beside it
 * @csspart still - a photo just taken
 * @csspart progress - the upload progress bar
 * @csspart panel - the card
 *
 * @cssprop --service-accent - and likewise --service-accent-fg, --service-bg, --service-fg, --service-muted,
 *   --service-danger, --service-border, --service-focus, --service-radius, --service-font
 *
 * @summary Reflected for tests and styling: `data-step` = intro | document-front | document-back |
 * selfie | liveness | handoff | review | uploading | done | error; on the document steps
 * `data-guidance` = searching | move_closer | hold_still | too_dark | glare | ready; during liveness
 * `data-liveness-step` = anchor | 1..4 and `data-pose` = the current beacon's pose.
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
    manualCapture: { type: Boolean, attribute: 'manual-capture' },
    crossDevice: { type: Boolean, attribute: 'cross-device' },
    handoff: { type: Boolean },
    flow: { state: true },
    cameraReady: { state: true },
    live: { state: true },
    link: { state: true },
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
  declare manualCapture: boolean;
  declare crossDevice: boolean;
  declare handoff: boolean;
  declare flow: FlowState;
  declare cameraReady: boolean;
  /** The liveness screen's state while the step runs. */
  declare live: LivenessView | null;
  /** The desktop's phone link while `data-step="handoff"`. */
  declare link: HandoffView | null;

  /** The capture machinery (capture-kit.ts), loaded when the user presses Start. */
  private kit: typeof CaptureKit | null = null;
  private camera: CameraController | null = null;
  private guidance: GuidanceController | null = null;
  // The phone's page of a handoff speaks the phone's language until its claim brings the desktop's.
  private readonly i18n = new LocalizeController(this, () => this.locale ?? (this.handoff ? globalThis.navigator?.language : undefined));
  /** Stops the desktop's polling of its phone link. */
  private linkWatch: AbortController | null = null;
  /** The liveness chunk, once loaded (its screen renders from it). */
  private liveUi: typeof LivenessScreenModule | null = null;
  /** The handoff chunk, once loaded (its screen renders from it). */
  private handoffUi: typeof HandoffModule | null = null;
  /** The verification in progress: init, background uploads, submit, all abortable. */
  private session: VerificationSession | null = null;
  /** Bumped whenever the liveness run must stop (cancel, failure, leaving the step). */
  private livenessRun = 0;
  private announcement = '';
  /** The API's code behind the current error (a dead phone link is told apart from other errors). */
  private apiError: string | null = null;
  /** A photo is being taken (the button and the automatic capture must not take two). */
  private capturing = false;

  constructor() {
    super();
    this.documentBack = false;
    this.activeLiveness = false;
    this.manualCapture = false;
    this.crossDevice = false;
    this.handoff = false;
    this.cameraReady = false;
    this.live = null;
    this.link = null;
    this.flow = initialState({ documentBack: false, activeLiveness: false });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.session?.abort();
    this.session = null;
    this.livenessRun++;
    this.stopLink();
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
      // The liveness chunk, as soon as a flow that needs it starts.
      if (after.options.activeLiveness && !this.liveUi && after.step !== 'intro') {
        void import('./flow/liveness-screen.js').then(
          (m) => {
            this.liveUi = m;
            this.requestUpdate();
          },
          () => this.fail({ code: 'internal_error', message: 'The liveness step could not load' }),
        );
      }
      if (after.step === 'selfie' || after.step === 'liveness') this.kit?.preloadFaceDetector(this.base);
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
        if (before.step === 'handoff') this.stopLink(true);
        this.session?.abort();
        this.session = null;
        break;
      case 'HANDOFF':
        void this.showLink();
        break;
      default:
        break;
    }
  }

  private fail(detail: WidgetErrorDetail, apiError?: string): void {
    const before = this.flow.step;
    this.apiError = apiError ?? null;
    if (before === 'handoff') this.stopLink(true);
    this.dispatch({ type: 'FAILED', error: detail });
    // While the user can still continue on a phone (a camera error with `cross-device`), the flow has not stopped.
    if (before !== this.flow.step && !this.offersPhone) this.emit('service:error', detail);
  }

  /** A desktop with `cross-device` on a camera error screen: the phone is offered instead of ending there. */
  private get offersPhone(): boolean {
    return this.crossDevice && !this.handoff && this.flow.step === 'error' && CAMERA_ERRORS.includes(this.flow.error?.code ?? '');
  }

  private emit(name: 'service:complete' | 'service:error', detail: object): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private errorOf(err: unknown): WidgetErrorDetail {
    if (err instanceof FlowError) return err.detail;
    return { code: 'internal_error', message: err instanceof Error ? err.message : String(err) };
  }

  private failWith(err: unknown): void {
    this.fail(this.errorOf(err), err instanceof FlowError ? err.apiError : undefined);
  }

  /**
   * init when the user presses start (so key, origin and credit errors show before the camera is
   * asked for); after "Try again", the same verification when it is still valid (uploading again
   * only what did not arrive), else a new one with every kept capture uploaded again.
   */
  private async loadKit(): Promise<typeof CaptureKit> {
    const kit = (this.kit ??= await import('./capture-kit.js'));
    this.camera ??= new kit.CameraController(this);
    this.guidance ??= new kit.GuidanceController(this, {
      video: () => this.camera?.liveVideo ?? null,
      autoCapture: () => !this.manualCapture,
      capture: () => void this.onCapture(),
    });
    return kit;
  }

  private async openSession(): Promise<void> {
    let session = this.session;
    try {
      const kit = await this.loadKit();
      if (session && !session.aborted) {
        const { renewed } = await session.resume();
        if (renewed) this.dispatch({ type: 'LIVENESS_LOST' });
      } else {
        const api = new kit.ApiClient(this.base, this.publishableKey ?? '');
        session = new kit.VerificationSession(
          api,
          this.initFields(),
          {
            onUploadFailed: (err) => {
              if (this.session === session && !isAborted(err)) this.failWith(err);
            },
            onProgress: (fraction) => {
              if (this.session === session) this.dispatch({ type: 'PROGRESS', fraction });
            },
          },
          undefined,
          this.handoff ? await this.phoneBackend(api) : undefined,
        );
        this.session = session;
        await session.start();
        for (const [role, capture] of Object.entries(this.flow.captures)) session.put(role as CaptureRole, capture.blob);
        this.dispatch({ type: 'LIVENESS_LOST' });
      }
      if (this.session === session) this.dispatch({ type: this.flow.viaHandoff ? 'HANDOFF' : 'START' });
    } catch (err) {
      if (this.session === session && !isAborted(err)) this.failWith(err);
    }
  }

  // ------------------------------------------------------------------ continue on a phone

  /** The phone's side: the verification comes from claiming the link in this page's address. */
  private async phoneBackend(api: ApiClient): Promise<SessionBackend> {
    const { codeFromAddress, phoneBackend } = await import('./handoff/handoff.js');
    const code = codeFromAddress();
    if (!code) throw new FlowError({ code: 'internal_error', message: 'This page holds no handoff code' }, 'handoff_expired');
    return phoneBackend(api, this.base, code, (claim) => {
      // The desktop's options: its document back, liveness and language.
      this.flow = { ...this.flow, options: { documentBack: claim.options.documentBack, activeLiveness: claim.options.activeLiveness } };
      if (!this.getAttribute('locale')) this.locale = claim.options.locale;
    });
  }

  /** The desktop's side: a link for the phone, shown until the phone submits (or the link dies). */
  private async showLink(): Promise<void> {
    const session = this.session;
    const token = session?.uploadToken;
    if (!session?.init || !token) return this.fail({ code: 'internal_error', message: 'No verification is open' });
    this.stopLink();
    const watch = new AbortController();
    this.linkWatch = watch;
    try {
      const ui = await import('./handoff/handoff.js');
      this.handoffUi = ui;
      const { createLink, followLink } = ui;
      const api = new (await this.loadKit()).ApiClient(this.base, this.publishableKey ?? '');
      const verificationId = session.init.verificationId;
      const made = await createLink(
        api,
        this.base,
        token,
        { verificationId, documentBack: this.flow.options.documentBack, locale: this.i18n.lang },
        watch.signal,
      );
      if (watch.signal.aborted) return;
      this.link = { url: made.handoffUrl, state: 'waiting', copied: false };
      const last = await followLink(api, this.base, token, watch.signal, (s) => {
        if (this.link && (s.state === 'waiting' || s.state === 'in_progress') && s.state !== this.link.state)
          this.link = { ...this.link, state: s.state };
      });
      if (!last || watch.signal.aborted) return;
      this.linkWatch = null;
      if (last.state === 'submitted') {
        // As if this page had submitted: `service:complete` once.
        const status = !last.status || last.status === 'failed' ? 'processing' : last.status;
        this.dispatch({ type: 'HANDOFF_COMPLETED', verificationId, status });
        if (this.flow.step === 'done') this.emit('service:complete', { verificationId, status });
      } else {
        this.session?.abort();
        this.session = null;
        this.fail({ code: 'internal_error', message: 'The link for the phone expired' }, 'handoff_expired');
      }
    } catch (err) {
      if (!watch.signal.aborted && !isAborted(err)) this.failWith(err);
    }
  }

  /** Stops following the phone link; `revoke` also kills it on the server (the user cancelled). */
  private stopLink(revoke = false): void {
    this.linkWatch?.abort();
    this.linkWatch = null;
    const token = this.session?.uploadToken;
    if (revoke && this.link && token) void import('./handoff/handoff.js').then((h) => h.cancelLink(this.base, token));
    this.link = null;
  }

  private onHandoff = () => {
    if (this.flow.step === 'intro') {
      if (!this.publishableKey) return this.fail({ code: 'invalid_api_key', message: 'The publishable-key attribute is missing' });
      // init first (so key, origin and credit errors show here), then the link.
      this.flow = { ...this.flow, viaHandoff: true };
      this.dispatch({ type: 'STARTING' });
    } else if (this.session?.init && !this.session.aborted && !this.session.expired) {
      this.dispatch({ type: 'HANDOFF' });
    } else {
      // The camera failed before or after the verification expired: a new one, then the link.
      this.session?.abort();
      this.session = null;
      this.flow = { ...initialState(this.flow.options), viaHandoff: true };
      this.dispatch({ type: 'STARTING' });
    }
  };

  private onCopyLink = () => {
    const link = this.link;
    if (!link) return;
    void navigator.clipboard
      ?.writeText(link.url)
      .then(() => {
        if (this.link === link) this.link = { ...link, copied: true };
      })
      .catch(() => {
        this.renderRoot.querySelector<HTMLInputElement>('[part="handoff-link"]')?.select();
      });
  };

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
      if (this.session === session && !isAborted(err)) this.failWith(err);
    }
  }

  // ------------------------------------------------------------------ lifecycle: rendering side effects

  protected override willUpdate(changed: PropertyValues<this>): void {
    const previous = changed.get('flow') as FlowState | undefined;
    // The live region announces each new step (rendered, never written to by hand).
    if (previous && previous.step !== this.flow.step) this.announcement = this.stepTitle(this.flow.step);
    if (changed.has('live') && this.live && this.liveUi) {
      const said = this.liveUi.livenessAnnouncement(this.i18n.t, changed.get('live') as LivenessView | null | undefined, this.live);
      if (said !== null) this.announcement = said;
    }
    if ((changed.has('documentBack') || changed.has('activeLiveness')) && this.flow.step === 'intro' && !this.flow.starting) {
      this.flow = initialState({ documentBack: this.documentBack, activeLiveness: this.activeLiveness });
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    const previous = changed.get('flow') as FlowState | undefined;
    this.camera?.attach(this.renderRoot.querySelector('video'));
    this.reflectLiveness();
    this.steerGuidance();
    // `data-step` appears once the step is on screen in its language (another language's chunk may still be loading).
    if (!this.i18n.ready) return;
    const shown = this.dataset.step;
    if (!changed.has('flow') && shown === this.flow.step) return;
    const step = this.flow.step;
    this.dataset.step = step;

    const wantsCamera = (CAPTURE_STEP_ROLE[step] !== undefined && !this.flow.pending) || step === 'liveness';
    if (wantsCamera) void this.startCamera(step === 'document-front' || step === 'document-back' ? 'environment' : 'user');
    else if (this.camera?.stream || this.cameraReady) {
      this.camera?.stop();
      this.cameraReady = false;
    }

    if (!previous || previous.step !== step || shown !== step) {
      // Managed focus: each new step starts at its heading.
      this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
    } else if (previous.pending !== this.flow.pending) {
      this.renderRoot.querySelector<HTMLElement>(this.flow.pending ? '[part="confirm-button"]' : '[part="capture-button"]')?.focus();
    }
  }

  /**
   * The document guidance runs while a document step shows the live camera (not while a photo
   * waits for confirmation); the host reflects its advice in `data-guidance`.
   */
  private steerGuidance(): void {
    const step = this.flow.step;
    const wanted = (step === 'document-front' || step === 'document-back') && this.cameraReady && !this.flow.pending;
    const guidance = this.guidance;
    if (!guidance) return;
    if (wanted) guidance.start();
    else if (guidance.active || guidance.advice) guidance.stop();
    const advice = wanted ? guidance.advice : null;
    if (advice) this.dataset.guidance = advice;
    else delete this.dataset.guidance;
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
    const camera = this.camera;
    if (!camera) return;
    try {
      if (camera.facing !== facing || !camera.stream) this.cameraReady = false;
      await camera.start(facing);
      if (this.flow.step === flow.step && (CAPTURE_STEP_ROLE[this.flow.step] || this.flow.step === 'liveness')) this.cameraReady = true;
    } catch (err) {
      if (this.flow.step === flow.step) this.failWith(err);
    }
  }

  // ------------------------------------------------------------------ actions

  private onStart = () => {
    if (!this.publishableKey && !this.handoff) {
      this.fail({ code: 'invalid_api_key', message: 'The publishable-key attribute is missing' });
      return;
    }
    this.dispatch({ type: 'STARTING' });
  };

  private onCapture = async () => {
    const role = CAPTURE_STEP_ROLE[this.flow.step];
    const { camera, kit } = this;
    if (!role || !camera || !kit || !this.cameraReady || this.flow.pending || this.capturing) return;
    this.capturing = true;
    try {
      // A document at the camera's full size (the pipeline reads its print); a selfie smaller.
      const shot = await camera.capture(role === 'selfie' ? undefined : kit.DOCUMENT_MAX_SIDE, true);
      if (CAPTURE_STEP_ROLE[this.flow.step] !== role) return;
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
        void kit.selfieHasFace(shot.blob, this.base).then((found) => {
          this.dispatch({ type: 'CHECKED', url, hints: found === false ? ['no_face_in_selfie'] : [] });
        });
      }
    } catch (err) {
      this.failWith(err);
    } finally {
      this.capturing = false;
    }
  };

  private onConfirm = () => this.dispatch({ type: 'CONFIRM' });
  private onRetakePending = () => this.dispatch({ type: 'RETAKE' });
  private onRetake = (role: CaptureRole) => () => this.dispatch({ type: 'RETAKE', role });
  private onSubmit = () => this.dispatch({ type: 'SUBMIT' });

  private onLivenessReady = () => {
    if (this.flow.step !== 'liveness' || this.live?.phase !== 'ready' || !this.cameraReady || !this.liveUi) return;
    this.live = { ...this.live, phase: 'anchor' };
    void this.liveUi.runLivenessStep(this.livenessHost());
  };

  /** The liveness chunk's view of this element. */
  private livenessHost(): LivenessHost {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const el = this;
    return {
      get t() {
        return el.i18n.t;
      },
      base: el.base,
      publishableKey: el.publishableKey ?? '',
      get session() {
        return el.session;
      },
      camera: el.camera!,
      get cameraReady() {
        return el.cameraReady;
      },
      get live() {
        return el.live;
      },
      set live(view) {
        el.live = view;
      },
      get livenessRun() {
        return el.livenessRun;
      },
      set livenessRun(n) {
        el.livenessRun = n;
      },
      preview: (label, mirrored) => el.preview(label, mirrored),
      cancelButton: () => el.cancelButton(),
      onReady: el.onLivenessReady,
      done: () => el.dispatch({ type: 'LIVENESS_DONE' }),
      fail: (err) => el.failWith(err),
      failDetail: (detail) => el.fail(detail),
    };
  }

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
      case 'handoff':
        return t.handoffTitle;
      case 'review':
        return t.reviewTitle;
      case 'uploading':
        return t.uploadingTitle;
      case 'done':
        return this.handoff ? t.phoneDoneTitle : t.doneTitle;
      case 'error':
        return this.flow.error?.code === 'user_cancelled' ? t.cancelledTitle : t.errorTitle;
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
    const advice = !selfie && !pending && this.cameraReady ? (this.guidance?.advice ?? null) : null;
    const words = advice === 'ready' && this.manualCapture ? t.guidanceReadyManual : advice ? t.guidance[advice] : '';
    return html`
      <p class="step-count">${t.stepOf(steps.indexOf(step) + 1, steps.length)}</p>
      <h2 tabindex="-1">${this.stepTitle(step)}</h2>
      <p id="hint">${hint}${selfie || this.manualCapture ? nothing : html` <span class="muted">${t.autoCaptureNote}</span>`}</p>
      <div class="stage ${selfie ? 'portrait' : ''}">
        ${
          pending
            ? html`<img part="still" class="still" src=${pending.url} alt=${this.stepTitle(step)} />`
            : html`${this.preview(t.previewLabel, selfie)}
                <div class="frame ${selfie ? 'oval' : ''} ${advice === 'ready' ? 'reached' : ''}" aria-hidden="true"></div>
                ${this.cameraReady ? nothing : html`<div class="status">${t.startingCamera}</div>`}`
        }
        ${
          selfie
            ? nothing
            : html`<p part="guidance" class="guidance" aria-live="polite" data-advice=${advice ?? ''} ?hidden=${!words}>${words}</p>`
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
          ${this.offersHandoff ? html`<p class="muted">${t.handoffOffer}</p>` : nothing}
          ${this.flow.starting ? html`<p class="status-line">${t.connecting}</p>` : nothing}
          <div class="actions">
            ${this.cancelButton()} ${this.offersHandoff ? this.handoffButton(this.flow.starting) : nothing}
            <button type="button" part="start-button" class="primary" ?disabled=${this.flow.starting} @click=${this.onStart}>
              ${t.start}
            </button>
          </div>
        `;
      case 'handoff':
        return this.renderHandoff();
      case 'document-front':
      case 'document-back':
      case 'selfie':
        return this.renderCapture(step);
      case 'liveness':
        return this.liveUi
          ? this.liveUi.renderLiveness(this.livenessHost())
          : html`<h2 tabindex="-1">${t.livenessTitle}</h2>
              <p class="status-line">${t.connecting}</p>`;
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
        return html`<h2 tabindex="-1">${this.stepTitle('done')}</h2>
          <p>${this.handoff ? t.phoneDoneBody : t.doneBody}</p>`;
      case 'error': {
        const code = this.flow.error?.code ?? 'internal_error';
        const cancelled = code === 'user_cancelled';
        const phoneLink = this.handoff && (this.apiError === 'handoff_in_use' || this.apiError === 'handoff_expired');
        const message = cancelled
          ? errorMessage(t, code)
          : this.apiError === 'handoff_in_use' && this.handoff
            ? t.phoneLinkInUse
            : this.apiError === 'handoff_expired'
              ? this.handoff
                ? t.phoneLinkExpired
                : t.handoffExpired
              : errorMessage(t, code);
        return html`
          <h2 tabindex="-1">${this.stepTitle('error')}</h2>
          <p class=${cancelled ? '' : 'error-text'} data-error-code=${code}>${message}</p>
          ${this.offersPhone ? html`<p>${t.handoffOffer}</p>` : nothing}
          ${
            phoneLink
              ? nothing
              : html`<div class="actions">
                  ${cancelled ? nothing : this.cancelButton()}
                  <button type="button" part="retry-button" class=${this.offersPhone ? '' : 'primary'} @click=${this.onRetry}>
                    ${t.retry}
                  </button>
                  ${this.offersPhone ? this.handoffButton(false, true) : nothing}
                </div>`
          }
        `;
      }
    }
  }

  /** The intro offers the phone with `cross-device` (not on the phone itself). */
  private get offersHandoff(): boolean {
    return this.crossDevice && !this.handoff;
  }

  private handoffButton(disabled: boolean, primary = false): TemplateResult {
    return html`<button
      type="button"
      part="handoff-button"
      class=${primary ? 'primary' : ''}
      ?disabled=${disabled}
      @click=${this.onHandoff}
    >
      ${this.i18n.t.handoffButton}
    </button>`;
  }

  private renderHandoff(): TemplateResult {
    const t = this.i18n.t;
    if (!this.link || !this.handoffUi) {
      return html`<h2 tabindex="-1">${t.handoffTitle}</h2>
        <p class="status-line">${t.connecting}</p>
        <div class="actions">${this.cancelButton()}</div>`;
    }
    return this.handoffUi.renderHandoff(t, this.link, this.onCopyLink, this.cancelButton());
  }

  protected override render(): TemplateResult {
    // Nothing until this language's messages are here: never a flash of English.
    if (!this.i18n.ready) return html`<section class="panel" part="panel" aria-busy="true"></section>`;
    const assertive = this.flow.step === 'liveness';
    return html`<section class="panel" part="panel" lang=${this.i18n.lang} dir=${this.i18n.dir} aria-labelledby="title">
      ${
        // On the phone's page the widget is the page: its title is the page's heading.
        this.handoff
          ? html`<h1 id="title" class="visually-hidden">${this.i18n.t.title}</h1>`
          : html`<span id="title" class="visually-hidden">${this.i18n.t.title}</span>`
      }
      ${this.renderStep()}
      <div role=${assertive ? 'alert' : 'status'} aria-live=${assertive ? 'assertive' : 'polite'} class="visually-hidden">
        ${this.announcement}
      </div>
    </section>`;
  }
}
