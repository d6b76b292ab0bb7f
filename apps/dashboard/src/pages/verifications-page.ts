import type { Mode, VerificationSummary } from '@service/contract';
import { VERDICTS, VERIFICATION_ID_PATTERN, VERIFICATION_STATUSES } from '@service/contract';
import { html, nothing, type PropertyValues } from 'lit';
import { api } from '../api.js';
import { errorText, LightElement, navigate } from '../light-element.js';
import { reasonInWords, when } from '../words.js';

interface Page {
  data: VerificationSummary[];
  nextCursor: string | null;
}

export function verdictBadge(v: VerificationSummary) {
  if (v.awaitingReview) return html`<wa-badge variant="warning">review</wa-badge>`;
  if (!v.verdict) return html`<span>-</span>`;
  const variant = v.verdict === 'approved' ? 'success' : v.verdict === 'rejected' ? 'danger' : 'warning';
  return html`<wa-badge variant=${variant}>${v.verdict}</wa-badge>`;
}

/** The list: status and verdict filters, keyset paging, find by id; live or test as the switch says. */
export class VerificationsPage extends LightElement {
  static override properties = {
    mode: {},
    rows: { state: true },
    status: { state: true },
    verdict: { state: true },
    cursors: { state: true },
    next: { state: true },
    error: { state: true },
    findError: { state: true },
  };
  declare mode: Mode;
  declare rows: VerificationSummary[] | null;
  declare status: string;
  declare verdict: string;
  /** Cursors of the pages before the current one ('' = first page). */
  declare cursors: string[];
  declare next: string | null;
  declare error: string | null;
  declare findError: string | null;

  constructor() {
    super();
    this.mode = 'live';
    this.rows = null;
    this.status = '';
    this.verdict = '';
    this.cursors = [''];
    this.next = null;
    this.error = null;
    this.findError = null;
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('mode')) {
      this.cursors = [''];
      void this.load();
    }
  }

  private async load() {
    const q = new URLSearchParams({ mode: this.mode, limit: '25' });
    if (this.status) q.set('status', this.status);
    if (this.verdict) q.set('verdict', this.verdict);
    const cursor = this.cursors[this.cursors.length - 1];
    if (cursor) q.set('cursor', cursor);
    try {
      const page = await api<Page>('GET', `/verifications?${q.toString()}`);
      this.rows = page.data;
      this.next = page.nextCursor;
      this.error = null;
    } catch (err) {
      this.error = errorText(err);
    }
  }

  private filter(which: 'status' | 'verdict', e: Event) {
    this[which] = (e.target as HTMLSelectElement).value;
    this.cursors = [''];
    void this.load();
  }

  private find(e: Event) {
    e.preventDefault();
    const id = String(new FormData(e.target as HTMLFormElement).get('id') ?? '').trim();
    if (!VERIFICATION_ID_PATTERN.test(id)) {
      this.findError = 'A verification id looks like vf_ followed by 16 to 24 letters and digits.';
      return;
    }
    navigate(`/dashboard/verifications/${id}`);
  }

  override render() {
    return html`<header class="top"><h1>Verifications</h1></header>
      <form class="filters" @submit=${this.find} role="search">
        <wa-input name="id" label="Find by ID" placeholder="vf_..."></wa-input>
        <wa-button type="submit">Find</wa-button>
        ${this.findError ? html`<span role="alert">${this.findError}</span>` : nothing}
      </form>
      <div class="filters">
        <wa-select label="Status" .value=${this.status} @change=${(e: Event) => this.filter('status', e)}>
          <wa-option value="">Any</wa-option>
          ${VERIFICATION_STATUSES.map((s) => html`<wa-option value=${s}>${s}</wa-option>`)}
        </wa-select>
        <wa-select label="Verdict" .value=${this.verdict} @change=${(e: Event) => this.filter('verdict', e)}>
          <wa-option value="">Any</wa-option>
          ${VERDICTS.map((s) => html`<wa-option value=${s}>${s}</wa-option>`)}
        </wa-select>
      </div>
      ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
      ${
        this.rows === null
          ? html`<wa-spinner aria-label="Loading"></wa-spinner>`
          : html`<table class="data">
                <caption class="visually-hidden">
                  ${this.mode === 'test' ? 'Test' : 'Live'} verifications, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">ID</th>
                    <th scope="col">Status</th>
                    <th scope="col">Verdict</th>
                    <th scope="col">Reasons</th>
                    <th scope="col">Mode</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  ${
                    this.rows.length === 0
                      ? html`<tr>
                          <td colspan="6">No ${this.mode} verifications match.</td>
                        </tr>`
                      : this.rows.map(
                          (v) =>
                            html`<tr>
                              <td><a class="mono" href=${`/dashboard/verifications/${v.verificationId}`}>${v.verificationId}</a></td>
                              <td>${v.status ?? 'created'}</td>
                              <td>${verdictBadge(v)}</td>
                              <td>${v.reasons.map((r) => reasonInWords(r)).join(' ') || '-'}</td>
                              <td>${v.mode}</td>
                              <td>${when(v.createdAt)}</td>
                            </tr>`,
                        )
                  }
                </tbody>
              </table>
              <div class="row pager">
                <wa-button
                  ?disabled=${this.cursors.length < 2}
                  @click=${() => {
                    this.cursors = this.cursors.slice(0, -1);
                    void this.load();
                  }}
                  >Previous page</wa-button
                >
                <wa-button
                  ?disabled=${!this.next}
                  @click=${() => {
                    this.cursors = [...this.cursors, this.next!];
                    void this.load();
                  }}
                  >Next page</wa-button
                >
              </div>`
      }`;
  }
}
customElements.define('verifications-page', VerificationsPage);
