import { html, nothing } from 'lit';
import { api, DashboardApiError } from '../api.js';
import { errorText, LightElement } from '../light-element.js';

/**
 * Approve or reject a `review` verdict with a note. The API takes the operator route's decision
 * path, so the tenant receives `verification.reviewed`. Fires `decided` when done.
 */
export class ReviewPanel extends LightElement {
  static override properties = { verificationId: {}, busy: { state: true }, error: { state: true }, shortcuts: { type: Boolean } };
  declare verificationId: string;
  declare busy: boolean;
  declare error: string | null;
  declare shortcuts: boolean;
  constructor() {
    super();
    this.busy = false;
    this.error = null;
    this.shortcuts = false;
  }

  async decide(verdict: 'approved' | 'rejected') {
    if (this.busy) return;
    const note = (this.querySelector('wa-textarea') as HTMLTextAreaElement | null)?.value?.trim() ?? '';
    this.busy = true;
    this.error = null;
    try {
      await api('POST', `/verifications/${encodeURIComponent(this.verificationId)}/review`, { verdict, ...(note ? { note } : {}) });
      this.dispatchEvent(new CustomEvent('decided', { detail: { verificationId: this.verificationId, verdict }, bubbles: true }));
    } catch (err) {
      this.error =
        err instanceof DashboardApiError && err.code === 'not_in_review' ? 'This verification was already decided.' : errorText(err);
    } finally {
      this.busy = false;
    }
  }

  focusNote() {
    (this.querySelector('wa-textarea') as HTMLElement | null)?.focus();
  }

  override render() {
    return html`<section class="review-panel" aria-labelledby="decide-h">
      <h2 id="decide-h">Decision</h2>
      ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
      <wa-textarea label="Note" rows="2" maxlength="2000" hint="Optional. Kept with the decision."></wa-textarea>
      <div class="buttons">
        <wa-button variant="success" ?loading=${this.busy} @click=${() => void this.decide('approved')}>Approve</wa-button>
        <wa-button variant="danger" ?loading=${this.busy} @click=${() => void this.decide('rejected')}>Reject</wa-button>
      </div>
      ${
        this.shortcuts
          ? html`<p id="shortcuts">
              Keyboard: <kbd>a</kbd> approve, <kbd>r</kbd> reject, <kbd>n</kbd> note, <kbd>j</kbd>/<kbd>k</kbd> next/previous in the queue.
            </p>`
          : nothing
      }
    </section>`;
  }
}
customElements.define('review-panel', ReviewPanel);
