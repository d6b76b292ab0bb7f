import { DASHBOARD_LIMITS } from '@service/contract';
import { html, nothing } from 'lit';
import { api, DashboardApiError } from '../api.js';
import { LightElement } from '../light-element.js';

/** /dashboard/invite#token=...: the invited user chooses a password (the token stays in the fragment, out of logs). */
export class InvitePage extends LightElement {
  static override properties = { message: { state: true }, done: { state: true } };
  declare message: string | null;
  declare done: boolean;
  constructor() {
    super();
    this.message = null;
    this.done = false;
  }

  private async submit(e: Event) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const password = String(data.get('password') ?? '');
    if (password !== data.get('confirm')) {
      this.message = 'The two passwords differ.';
      return;
    }
    const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
    try {
      await api('POST', '/invites/accept', { token, password });
      this.done = true;
      history.replaceState(null, '', '/dashboard/invite');
    } catch (err) {
      const reason = err instanceof DashboardApiError ? err.body?.detail?.reason : undefined;
      this.message =
        reason === 'invite_invalid'
          ? 'This invite link is unknown, already used or expired. Ask for a new one.'
          : `The password needs at least ${DASHBOARD_LIMITS.passwordMinLength} characters.`;
    }
  }

  override render() {
    if (this.done) {
      return html`<main class="sign-in">
        <h1>Password set</h1>
        <p><a href="/dashboard">Sign in</a> with your email and the new password.</p>
      </main>`;
    }
    return html`<main>
      <form class="sign-in" @submit=${this.submit}>
        <h1>Choose a password</h1>
        ${this.message ? html`<wa-callout variant="danger" role="alert">${this.message}</wa-callout>` : nothing}
        <wa-input
          name="password"
          type="password"
          label="New password"
          hint=${`At least ${DASHBOARD_LIMITS.passwordMinLength} characters`}
          minlength=${DASHBOARD_LIMITS.passwordMinLength}
          autocomplete="new-password"
          required
        ></wa-input>
        <wa-input name="confirm" type="password" label="Repeat the password" autocomplete="new-password" required></wa-input>
        <wa-button type="submit" variant="brand">Set password</wa-button>
      </form>
    </main>`;
  }
}
customElements.define('invite-page', InvitePage);
