import type { AuditEntry } from '@service/contract';
import { html, nothing } from 'lit';
import { api } from '../api.js';
import { errorText, LightElement } from '../light-element.js';
import { actionInWords, when } from '../words.js';

/** Every change made in the dashboard and every image view: who, what, when. */
export class AuditPage extends LightElement {
  static override properties = { rows: { state: true }, next: { state: true }, error: { state: true } };
  declare rows: AuditEntry[] | null;
  declare next: string | null;
  declare error: string | null;
  constructor() {
    super();
    this.rows = null;
    this.next = null;
    this.error = null;
  }
  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }
  private async load(cursor?: string) {
    try {
      const page = await api<{ data: AuditEntry[]; nextCursor: string | null }>(
        'GET',
        `/audit?limit=50${cursor ? `&cursor=${cursor}` : ''}`,
      );
      this.rows = cursor ? [...(this.rows ?? []), ...page.data] : page.data;
      this.next = page.nextCursor;
    } catch (err) {
      this.error = errorText(err);
    }
  }
  private detail(e: AuditEntry): string {
    if (!e.detail) return '';
    return Object.entries(e.detail)
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
      .join(' · ');
  }
  override render() {
    return html`<header class="top"><h1>Audit log</h1></header>
      ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
      ${
        this.rows === null
          ? html`<wa-spinner aria-label="Loading"></wa-spinner>`
          : html`<table class="data">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">What</th>
                    <th scope="col">On</th>
                    <th scope="col">Details</th>
                  </tr>
                </thead>
                <tbody>
                  ${this.rows.map(
                    (e) =>
                      html`<tr>
                        <td>${when(e.at)}</td>
                        <td>${e.userEmail}</td>
                        <td>${actionInWords(e.action)}</td>
                        <td class="mono">${e.target ?? ''}</td>
                        <td>${this.detail(e)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
              ${this.next ? html`<div class="pager"><wa-button @click=${() => void this.load(this.next!)}>Load more</wa-button></div>` : nothing}`
      }`;
  }
}
customElements.define('audit-page', AuditPage);
