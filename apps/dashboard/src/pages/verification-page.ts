import type { VerificationDetail } from '@service/contract';
import { html, nothing, type PropertyValues } from 'lit';
import { api, DashboardApiError } from '../api.js';
import { errorText, LightElement } from '../light-element.js';
import './review-panel.js';
import './verification-detail.js';

/** /dashboard/verifications/:id (deep link, test or live): another tenant's id reads "not found". */
export class VerificationPage extends LightElement {
  static override properties = { verificationId: {}, v: { state: true }, error: { state: true } };
  declare verificationId: string;
  declare v: VerificationDetail | null;
  declare error: string | null;
  constructor() {
    super();
    this.v = null;
    this.error = null;
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('verificationId')) void this.load();
  }

  private async load() {
    this.v = null;
    this.error = null;
    try {
      this.v = await api<VerificationDetail>('GET', `/verifications/${encodeURIComponent(this.verificationId)}`);
    } catch (err) {
      this.error = err instanceof DashboardApiError && err.status === 404 ? 'not found' : errorText(err);
    }
  }

  override render() {
    if (this.error === 'not found') {
      return html`<h1>Verification not found</h1>
        <p>No verification of your organisation has the id <span class="mono">${this.verificationId}</span>.</p>
        <p><a href="/dashboard/verifications">Back to verifications</a></p>`;
    }
    return html`<header class="top">
        <h1>Verification</h1>
        <a href="/dashboard/verifications">All verifications</a>
      </header>
      ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
      ${
        this.v
          ? html`${
                this.v.awaitingReview
                  ? html`<review-panel .verificationId=${this.v.verificationId} @decided=${() => void this.load()}></review-panel>`
                  : nothing
              }
              ${
                this.v.review
                  ? html`<wa-callout variant=${this.v.review.decision === 'approved' ? 'success' : 'danger'}>
                      Reviewed: ${this.v.review.decision}${this.v.review.note ? ` · Note: ${this.v.review.note}` : ''}
                    </wa-callout>`
                  : nothing
              } <verification-detail .v=${this.v}></verification-detail>`
          : this.error
            ? nothing
            : html`<wa-spinner aria-label="Loading"></wa-spinner>`
      }`;
  }
}
customElements.define('verification-page', VerificationPage);
