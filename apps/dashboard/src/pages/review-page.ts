import type { Mode, VerificationDetail, VerificationSummary } from '@service/contract';
import { html, nothing, type PropertyValues } from 'lit';
import { api } from '../api.js';
import { errorText, LightElement } from '../light-element.js';
import { reasonInWords, when } from '../words.js';
import type { ReviewPanel } from './review-panel.js';
import './review-panel.js';
import './verification-detail.js';

/**
 * The review queue: verifications whose verdict is `review` and not decided yet, newest first (as
 * the list). Keyboard: a approve, r reject, n note, j/k next/previous. A decided verification
 * leaves the queue and the next one opens.
 */
export class ReviewPage extends LightElement {
  static override properties = {
    mode: {},
    queue: { state: true },
    selected: { state: true },
    detail: { state: true },
    error: { state: true },
    announcement: { state: true },
  };
  declare mode: Mode;
  declare queue: VerificationSummary[] | null;
  declare selected: number;
  declare detail: VerificationDetail | null;
  declare error: string | null;
  declare announcement: string;

  constructor() {
    super();
    this.mode = 'live';
    this.queue = null;
    this.selected = 0;
    this.detail = null;
    this.error = null;
    this.announcement = '';
  }

  private onKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const typing = e
      .composedPath()
      .some((n) => n instanceof HTMLElement && (n.tagName === 'INPUT' || n.tagName === 'TEXTAREA' || n.isContentEditable));
    if (typing) return;
    const panel = this.querySelector<ReviewPanel>('review-panel');
    if (e.key === 'a' && panel) void panel.decide('approved');
    else if (e.key === 'r' && panel) void panel.decide('rejected');
    else if (e.key === 'n' && panel) {
      e.preventDefault();
      panel.focusNote();
    } else if (e.key === 'j') this.select(this.selected + 1);
    else if (e.key === 'k') this.select(this.selected - 1);
    else return;
  };

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('keydown', this.onKey);
  }
  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this.onKey);
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('mode')) void this.load(0);
  }

  private async load(select: number) {
    try {
      const page = await api<{ data: VerificationSummary[] }>('GET', `/verifications?mode=${this.mode}&awaitingReview=true&limit=100`);
      this.queue = page.data;
      this.error = null;
      this.select(select);
    } catch (err) {
      this.error = errorText(err);
    }
  }

  private select(i: number) {
    if (!this.queue?.length) {
      this.detail = null;
      return;
    }
    this.selected = Math.max(0, Math.min(i, this.queue.length - 1));
    const id = this.queue[this.selected]!.verificationId;
    if (this.detail?.verificationId === id) return;
    this.detail = null;
    api<VerificationDetail>('GET', `/verifications/${id}`)
      .then((d) => {
        if (this.queue?.[this.selected]?.verificationId === id) this.detail = d;
      })
      .catch((err: unknown) => (this.error = errorText(err)));
  }

  private decided(e: CustomEvent<{ verificationId: string; verdict: string }>) {
    this.announcement = `${e.detail.verificationId} ${e.detail.verdict}. It left the queue.`;
    this.detail = null;
    void this.load(this.selected);
  }

  override render() {
    return html`<header class="top"><h1>Review</h1></header>
      <p class="visually-hidden" role="status" aria-live="polite">${this.announcement}</p>
      ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
      ${
        this.queue === null
          ? html`<wa-spinner aria-label="Loading"></wa-spinner>`
          : this.queue.length === 0
            ? html`<wa-callout variant="success">Nothing to review${this.mode === 'test' ? ' in test data' : ''}.</wa-callout>`
            : html`<table class="data">
                  <caption class="visually-hidden">
                    Verifications waiting for a decision
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">ID</th>
                      <th scope="col">Reasons</th>
                      <th scope="col">Completed</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${this.queue.map(
                      (v, i) =>
                        html`<tr aria-selected=${i === this.selected ? 'true' : 'false'}>
                          <td>
                            <a
                              class="mono"
                              href=${`/dashboard/verifications/${v.verificationId}`}
                              @click=${(e: Event) => {
                                e.preventDefault();
                                this.select(i);
                              }}
                              aria-current=${i === this.selected ? 'true' : nothing}
                              >${v.verificationId}</a
                            >
                          </td>
                          <td>${v.reasons.map((r) => reasonInWords(r)).join(' ') || '-'}</td>
                          <td>${when(v.completedAt)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
                ${
                  this.detail
                    ? html`<h2 class="mono">${this.detail.verificationId}</h2>
                        <review-panel .verificationId=${this.detail.verificationId} shortcuts @decided=${this.decided}></review-panel>
                        <verification-detail .v=${this.detail}></verification-detail>`
                    : html`<wa-spinner aria-label="Loading"></wa-spinner>`
                }`
      }`;
  }
}
customElements.define('review-page', ReviewPage);
