import { html, nothing } from 'lit';
import { api } from '../api.js';
import { errorText, LightElement } from '../light-element.js';

/** The balance, read only: live verifications take one credit each; test ones take none. */
export class CreditsPage extends LightElement {
  static override properties = { credits: { state: true }, error: { state: true } };
  declare credits: number | null;
  declare error: string | null;
  constructor() {
    super();
    this.credits = null;
    this.error = null;
  }
  override connectedCallback(): void {
    super.connectedCallback();
    api<{ credits: number }>('GET', '/tenant')
      .then((t) => (this.credits = t.credits))
      .catch((err: unknown) => (this.error = errorText(err)));
  }
  override render() {
    return html`<header class="top"><h1>Credits</h1></header>
      ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
      <wa-card>
        <p>Balance: <strong data-testid="credits">${this.credits ?? '…'}</strong> credits</p>
        <p>Each live verification takes one credit when it is first submitted. Test data takes none. Your operator adds credits.</p>
      </wa-card>`;
  }
}
customElements.define('credits-page', CreditsPage);
