import type { WidgetErrorDetail } from '@service/contract';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { ApiClient } from './api/client.js';
import { FlowError } from './api/errors.js';
import { CameraController } from './controllers/camera-controller.js';
import { LocalizeController } from './controllers/localize-controller.js';
import { CAPTURE_STEP_ROLE, captureSteps, initialState, transition, type CaptureRole, type FlowEvent, type FlowState, type Step } from './flow/machine.js';
import { preloadFaceDetector, selfieHasFace } from './quality/face-check.js';
import { blurHint } from './quality/local-check.js';
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
 * @attr publishable-key - `qv_pub_…` or `qv_pubt_…` key (required)
 * @attr api-base - API origin; default: the origin this script was loaded from
 * @attr user-ref - your user id, echoed in webhooks (never in widget events)
 * @attr full-name - the name the user typed; drives the name match
 * @attr document-type - `dni`, `passport`, `drivers_license`, `national_id` or `other`
 * @attr country - ISO 3166-1 alpha-2, uppercase
 * @attr document-back - boolean: also capture the back of the document
 * @attr active-liveness - boolean: reserved for the active-liveness step (not yet captured by this version)
 * @attr locale - `en` (default) or `es`; a regional tag falls back to its language
 *
 * @event service:complete - images uploaded and submit accepted; detail `{verificationId, status}`
 * @event service:error - the flow stopped; detail `{code, message, detail?}` (`detail` = the API's, verbatim)
 *
 * Reflected: `data-step` = intro | document-front | document-back | selfie | liveness | review | uploading | done | error.
 *
 * @csspart start-button, capture-button, retake-button, confirm-button, submit-button, cancel-button, retry-button
 * @csspart preview - the live camera `<video>`
 * @csspart still - a photo just taken; @csspart progress - the upload progress bar; @csspart panel - the card
 *
 * @cssprop --service-accent, --service-accent-fg, --service-bg, --service-fg, --service-muted,
 *   --service-danger, --service-border, --service-focus, --service-radius, --service-font
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

  private readonly camera = new CameraController(this);
  private readonly i18n = new LocalizeController(this, () => this.locale);
  /** Bumped on every start and cancel, so a stale upload run can neither complete nor fail the flow. */
  private run = 0;
  private announcement = '';

  constructor() {
    super();
    this.documentBack = false;
    this.activeLiveness = false;
    this.cameraReady = false;
    this.flow = initialState({ documentBack: false, activeLiveness: false });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.dataset.step = this.flow.step;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.run++;
  }

  private send(event: FlowEvent): void {
    this.flow = transition(this.flow, event);
  }

  private fail(detail: WidgetErrorDetail): void {
    const before = this.flow.step;
    this.send({ type: 'FAILED', error: detail });
    if (before !== this.flow.step) this.emit('service:error', detail);
  }

  private emit(name: 'service:complete' | 'service:error', detail: object): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private errorOf(err: unknown): WidgetErrorDetail {
    if (err instanceof FlowError) return err.detail;
    return { code: 'internal_error', message: err instanceof Error ? err.message : String(err) };
  }

  // ------------------------------------------------------------------ lifecycle: side effects by step

  protected override willUpdate(changed: PropertyValues<this>): void {
    const previous = changed.get('flow') as FlowState | undefined;
    // The live region announces each new step (rendered, never written to by hand).
    if (previous && previous.step !== this.flow.step) this.announcement = this.stepTitle(this.flow.step);
    if ((changed.has('documentBack') || changed.has('activeLiveness')) && this.flow.step === 'intro') {
      // Liveness capture is not in this version: the step stays in the machine, unused.
      this.flow = initialState({ documentBack: this.documentBack, activeLiveness: false });
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    const previous = changed.get('flow') as FlowState | undefined;
    this.camera.attach(this.renderRoot.querySelector('video'));
    if (!changed.has('flow')) return;
    const step = this.flow.step;
    this.dataset.step = step;

    const wantsCamera = CAPTURE_STEP_ROLE[step] !== undefined && !this.flow.pending;
    if (wantsCamera) void this.startCamera(step === 'selfie' ? 'user' : 'environment');
    else {
      this.camera.stop();
      this.cameraReady = false;
    }

    if (!previous || previous.step !== step) {
      if (step === 'selfie') void preloadFaceDetector(this.base);
      // Managed focus: each new step starts at its heading.
      this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
      if (step === 'uploading') void this.upload();
    } else if (previous.pending !== this.flow.pending) {
      this.renderRoot.querySelector<HTMLElement>(this.flow.pending ? '[part="confirm-button"]' : '[part="capture-button"]')?.focus();
    }
  }

  private async startCamera(facing: 'user' | 'environment'): Promise<void> {
    const run = this.run;
    try {
      this.cameraReady = false;
      await this.camera.start(facing);
      if (run === this.run && CAPTURE_STEP_ROLE[this.flow.step]) this.cameraReady = true;
    } catch (err) {
      if (run === this.run) this.fail(this.errorOf(err));
    }
  }

  // ------------------------------------------------------------------ actions

  private onStart = () => {
    this.run++;
    if (!this.publishableKey) {
      this.fail({ code: 'invalid_api_key', message: 'The publishable-key attribute is missing' });
      return;
    }
    this.send({ type: 'START' });
  };

  private onCapture = async () => {
    const role = CAPTURE_STEP_ROLE[this.flow.step];
    if (!role || !this.cameraReady) return;
    try {
      const shot = await this.camera.capture();
      const blur = blurHint(shot.canvas);
      const url = URL.createObjectURL(shot.blob);
      const selfie = role === 'selfie';
      this.send({ type: 'CAPTURED', capture: { blob: shot.blob, url, width: shot.width, height: shot.height, hints: blur ? [blur] : [], checked: !selfie } });
      if (selfie) {
        // In the background: the still shows at once, the hint joins it when the detector answers.
        void selfieHasFace(shot.canvas, this.base).then((found) => {
          this.send({ type: 'CHECKED', url, hints: found === false ? ['no_face_in_selfie'] : [] });
        });
      }
    } catch (err) {
      this.fail(this.errorOf(err));
    }
  };

  private onConfirm = () => this.send({ type: 'CONFIRM' });
  private onRetakePending = () => this.send({ type: 'RETAKE' });
  private onRetake = (role: CaptureRole) => () => this.send({ type: 'RETAKE', role });
  private onSubmit = () => this.send({ type: 'SUBMIT' });

  private onCancel = () => {
    this.run++;
    const before = this.flow.step;
    this.send({ type: 'CANCEL' });
    if (before !== this.flow.step) this.emit('service:error', this.flow.error!);
  };

  private onRetry = () => {
    this.run++;
    this.send({ type: 'RESTART' });
  };

  /** The API origin: the `api-base` attribute, else where this script came from. */
  private get base(): string {
    return (this.apiBase || SCRIPT_ORIGIN).replace(/\/+$/, '');
  }

  /** init -> uploads (with retry) -> submit, then `service:complete`. */
  private async upload(): Promise<void> {
    const run = this.run;
    const api = new ApiClient(this.base, this.publishableKey ?? '');
    const roles = captureSteps(this.flow.options).map((s) => CAPTURE_STEP_ROLE[s]!);
    const captures = this.flow.captures;
    try {
      const init = await api.init({
        ...(this.userRef ? { userRef: this.userRef } : {}),
        ...(this.fullName ? { submittedFullName: this.fullName } : {}),
        ...(this.documentType ? { documentType: this.documentType } : {}),
        ...(this.country ? { country: this.country } : {}),
      });
      if (run !== this.run) return;
      const total = roles.reduce((n, r) => n + captures[r]!.blob.size, 0);
      let done = 0;
      for (const role of roles) {
        const blob = captures[role]!.blob;
        await api.upload(init.uploads[role], blob, (f) => {
          if (run === this.run) this.send({ type: 'PROGRESS', fraction: (done + f * blob.size) / total });
        });
        if (run !== this.run) return;
        done += blob.size;
        this.send({ type: 'PROGRESS', fraction: done / total });
      }
      const keys = { docFront: init.uploads.docFront.key, selfie: init.uploads.selfie.key, ...(roles.includes('docBack') ? { docBack: init.uploads.docBack.key } : {}) };
      const submitted = await api.submit(init.verificationId, keys);
      if (run !== this.run) return;
      // A repeat submit could report `failed`; the event's type allows queued/processing/completed.
      const status = (submitted.status as string) === 'failed' ? 'processing' : submitted.status;
      this.send({ type: 'COMPLETED', verificationId: init.verificationId, status });
      this.emit('service:complete', { verificationId: init.verificationId, status });
    } catch (err) {
      if (run === this.run) this.fail(this.errorOf(err));
    }
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

  private cancelButton(): TemplateResult {
    return html`<button type="button" part="cancel-button" @click=${this.onCancel}>${this.i18n.t.cancel}</button>`;
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
        ${pending
          ? html`<img part="still" class="still" src=${pending.url} alt=${this.stepTitle(step)} />`
          : html`<video part="preview" class=${selfie ? 'mirrored' : ''} muted playsinline autoplay aria-label=${t.previewLabel} aria-describedby="hint"></video>
              <div class="frame ${selfie ? 'oval' : ''}" aria-hidden="true"></div>
              ${this.cameraReady ? nothing : html`<div class="status">${t.startingCamera}</div>`}`}
      </div>
      <div class="actions">
        ${this.cancelButton()}
        ${pending
          ? html`<button type="button" part="retake-button" @click=${this.onRetakePending}>${t.retake}</button>
              <button type="button" part="confirm-button" class="primary" @click=${this.onConfirm}>${t.confirm}</button>`
          : html`<button type="button" part="capture-button" class="primary" ?disabled=${!this.cameraReady} @click=${this.onCapture}>${t.capture}</button>`}
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
            <button type="button" part="retake-button" aria-label=${t.retakePhoto(t.photoOf[role])} @click=${this.onRetake(role)}>${t.retake}</button>
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
          <div class="actions">
            ${this.cancelButton()}
            <button type="button" part="start-button" class="primary" @click=${this.onStart}>${t.start}</button>
          </div>
        `;
      case 'document-front':
      case 'document-back':
      case 'selfie':
        return this.renderCapture(step);
      case 'liveness':
        return html`<h2 tabindex="-1">${t.livenessTitle}</h2>
          <div class="actions">${this.cancelButton()}</div>`;
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
        return html`
          <h2 tabindex="-1">${this.stepTitle('error')}</h2>
          <p class=${code === 'user_cancelled' ? '' : 'error-text'} data-error-code=${code}>${t.errors[code] ?? t.errors.internal_error}</p>
          <div class="actions">
            <button type="button" part="retry-button" class="primary" @click=${this.onRetry}>${t.retry}</button>
          </div>
        `;
      }
    }
  }

  protected override render(): TemplateResult {
    return html`<section class="panel" part="panel" lang=${this.i18n.lang} aria-labelledby="title">
      <span id="title" class="visually-hidden">${this.i18n.t.title}</span>
      ${this.renderStep()}
      <div role="status" aria-live="polite" class="visually-hidden">${this.announcement}</div>
    </section>`;
  }
}
