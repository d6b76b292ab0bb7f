import { LIMITS, type DashboardDelivery } from '@service/contract';
import { html, nothing } from 'lit';
import { api, DashboardApiError } from '../api.js';
import { errorText, LightElement } from '../light-element.js';
import { when } from '../words.js';

interface Settings {
  url: string | null;
  secretSet: boolean;
}

function fieldErrors(err: unknown): string {
  if (err instanceof DashboardApiError && err.body?.detail?.fieldErrors) {
    return Object.entries(err.body.detail.fieldErrors)
      .map(([f, m]) => `${f.replace(/^webhook\./, '')}: ${m.join(', ')}`)
      .join('; ');
  }
  return errorText(err);
}

/** Webhook settings (the secret is write-only: blank keeps it) and the delivery log with requeue. */
export class WebhooksPage extends LightElement {
  static override properties = {
    settings: { state: true },
    deliveries: { state: true },
    message: { state: true },
    error: { state: true },
  };
  declare settings: Settings | null;
  declare deliveries: DashboardDelivery[] | null;
  declare message: string | null;
  declare error: string | null;

  constructor() {
    super();
    this.settings = null;
    this.deliveries = null;
    this.message = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.settings = await api<Settings>('GET', '/webhook');
      this.deliveries = (await api<{ deliveries: DashboardDelivery[] }>('GET', '/webhook/deliveries?limit=100')).deliveries;
    } catch (err) {
      this.error = errorText(err);
    }
  }

  private async save(e: Event) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    this.message = null;
    this.error = null;
    try {
      this.settings = await api<Settings>('PUT', '/webhook', {
        url: String(data.get('url') ?? ''),
        secret: String(data.get('secret') ?? ''),
      });
      const secretInput = form.querySelector<HTMLInputElement>('wa-input[name="secret"]');
      if (secretInput) secretInput.value = '';
      this.message = data.get('secret') ? 'Saved. The new secret signs every delivery from now on.' : 'Saved. The secret is unchanged.';
    } catch (err) {
      this.error = fieldErrors(err);
    }
  }

  private async requeue(id: string) {
    try {
      await api('POST', `/webhook/deliveries/${encodeURIComponent(id)}/requeue`);
      this.message = 'Delivery requeued.';
      await this.load();
    } catch (err) {
      this.error = errorText(err);
    }
  }

  private async requeueAll() {
    try {
      const r = await api<{ requeued: number }>('POST', '/webhook/deliveries/requeue-failed');
      this.message = `${r.requeued} failed deliveries requeued.`;
      await this.load();
    } catch (err) {
      this.error = errorText(err);
    }
  }

  override render() {
    const s = this.settings;
    const failed = this.deliveries?.filter((d) => d.status === 'failed').length ?? 0;
    return html`<header class="top"><h1>Webhooks</h1></header>
      ${this.message ? html`<wa-callout variant="success" role="status">${this.message}</wa-callout>` : nothing}
      ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
      <section aria-labelledby="settings-h">
        <h2 id="settings-h">Settings</h2>
        ${
          s
            ? html`<form class="review-panel" @submit=${this.save}>
                <wa-input name="url" type="url" label="URL" .value=${s.url ?? ''} hint="https:// only" required></wa-input>
                <wa-input
                  name="secret"
                  type="password"
                  label="Secret"
                  autocomplete="off"
                  hint=${
                    s.secretSet
                      ? `A secret is set and never shown. Leave blank to keep it; a new one (at least ${LIMITS.webhookSecretMinLength} characters) replaces it at once.`
                      : `At least ${LIMITS.webhookSecretMinLength} characters.`
                  }
                ></wa-input>
                <div><wa-button type="submit" variant="brand">Save</wa-button></div>
              </form>`
            : html`<wa-spinner aria-label="Loading"></wa-spinner>`
        }
      </section>
      <section aria-labelledby="deliveries-h">
        <header class="top">
          <h2 id="deliveries-h">Deliveries</h2>
          <div class="row">
            <wa-button size="s" @click=${() => void this.load()}>Refresh</wa-button>
            <wa-button size="s" ?disabled=${failed === 0} @click=${() => void this.requeueAll()}>Retry all failed</wa-button>
          </div>
        </header>
        ${
          this.deliveries === null
            ? nothing
            : this.deliveries.length === 0
              ? html`<p>No deliveries yet.</p>`
              : html`<table class="data">
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Verification</th>
                      <th scope="col">Status</th>
                      <th scope="col">Attempts (time, status code or error, latency)</th>
                      <th scope="col"><span class="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${this.deliveries.map(
                      (d) =>
                        html`<tr>
                          <td>${d.type}<br /><small class="mono">${d.eventId}</small></td>
                          <td><a class="mono" href=${`/dashboard/verifications/${d.verificationId}`}>${d.verificationId}</a></td>
                          <td>
                            <wa-badge variant=${d.status === 'delivered' ? 'success' : d.status === 'failed' ? 'danger' : 'neutral'}
                              >${d.status}</wa-badge
                            >
                            ${d.nextAttemptAt ? html`<br /><small>next ${when(d.nextAttemptAt)}</small>` : nothing}
                          </td>
                          <td>
                            <ol>
                              ${d.attemptLog.map(
                                (a) =>
                                  html`<li>
                                    ${when(a.at)}: ${a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? 'no answer')},
                                    ${a.latencyMs} ms
                                  </li>`,
                              )}
                            </ol>
                          </td>
                          <td>
                            ${d.status === 'failed' ? html`<wa-button size="s" @click=${() => void this.requeue(d.id)}>Requeue</wa-button>` : nothing}
                          </td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`
        }
      </section>`;
  }
}
customElements.define('webhooks-page', WebhooksPage);
