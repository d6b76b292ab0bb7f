import type { DashboardSession } from '@service/contract';
import { html, nothing } from 'lit';
import { api, DashboardApiError } from '../api.js';
import { LightElement } from '../light-element.js';

/** Email and password; a lockout or wrong password is said plainly, never which of the two was wrong. */
export class SignInPage extends LightElement {
  static override properties = { error: { state: true }, busy: { state: true } };
  declare error: string | null;
  declare busy: boolean;
  constructor() {
    super();
    this.error = null;
    this.busy = false;
  }

  private async submit(e: Event) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    this.busy = true;
    this.error = null;
    try {
      const session = await api<DashboardSession>('POST', '/session', { email: data.get('email'), password: data.get('password') });
      this.dispatchEvent(new CustomEvent('signed-in', { detail: session, bubbles: true }));
    } catch (err) {
      if (err instanceof DashboardApiError && err.code === 'account_locked') {
        this.error = 'Too many failed sign-ins. This account is locked for 15 minutes.';
      } else if (err instanceof DashboardApiError && (err.code === 'invalid_credentials' || err.code === 'invalid_body')) {
        this.error = 'Wrong email or password.';
      } else {
        this.error = 'Sign-in failed. Try again.';
      }
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<main>
      <form class="sign-in" @submit=${this.submit}>
        <h1>Sign in</h1>
        ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
        <wa-input name="email" type="email" label="Email" autocomplete="username" required></wa-input>
        <wa-input name="password" type="password" label="Password" autocomplete="current-password" required></wa-input>
        <wa-button type="submit" variant="brand" ?loading=${this.busy}>Sign in</wa-button>
      </form>
    </main>`;
  }
}
customElements.define('sign-in-page', SignInPage);
