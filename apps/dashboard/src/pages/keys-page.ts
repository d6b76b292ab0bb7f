import { KEY_FAMILIES, MODES, type DashboardKey, type Mode } from '@service/contract';
import { html, nothing } from 'lit';
import { api, DashboardApiError } from '../api.js';
import { errorText, LightElement } from '../light-element.js';
import { when } from '../words.js';

const origins = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

function problem(err: unknown): string {
  if (err instanceof DashboardApiError && err.body?.detail?.fieldErrors) {
    return `Allowed origins must be bare host names such as shop.example.com (${Object.values(err.body.detail.fieldErrors).flat().join(', ')})`;
  }
  return errorText(err);
}

/** Keys by prefix and last four; a new key is shown once; revoke works from the next request; origins editable. */
export class KeysPage extends LightElement {
  static override properties = {
    mode: {},
    keys: { state: true },
    created: { state: true },
    editing: { state: true },
    error: { state: true },
    message: { state: true },
  };
  declare mode: Mode;
  declare keys: DashboardKey[] | null;
  declare created: (DashboardKey & { key: string }) | null;
  declare editing: DashboardKey | null;
  declare error: string | null;
  declare message: string | null;

  constructor() {
    super();
    this.mode = 'live';
    this.keys = null;
    this.created = null;
    this.editing = null;
    this.error = null;
    this.message = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.keys = (await api<{ keys: DashboardKey[] }>('GET', '/keys')).keys;
    } catch (err) {
      this.error = errorText(err);
    }
  }

  private async create(e: Event) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    this.error = null;
    try {
      this.created = await api<DashboardKey & { key: string }>('POST', '/keys', {
        family: data.get('family') || 'secret',
        mode: data.get('mode') || this.mode,
        allowedOrigins: origins(String(data.get('origins') ?? '')),
      });
      await this.load();
    } catch (err) {
      this.error = problem(err);
    }
  }

  private async revoke(k: DashboardKey) {
    try {
      await api('POST', `/keys/${encodeURIComponent(k.keyId)}/revoke`);
      this.message = `Key ${k.prefix}…${k.lastFour} revoked. It fails from its next request.`;
      await this.load();
    } catch (err) {
      this.error = errorText(err);
    }
  }

  private async saveOrigins(e: Event) {
    e.preventDefault();
    const k = this.editing;
    if (!k) return;
    const data = new FormData(e.target as HTMLFormElement);
    try {
      await api('PATCH', `/keys/${encodeURIComponent(k.keyId)}`, { allowedOrigins: origins(String(data.get('origins') ?? '')) });
      this.editing = null;
      this.message = 'Allowed origins saved.';
      await this.load();
    } catch (err) {
      this.error = problem(err);
    }
  }

  override render() {
    return html`<header class="top"><h1>API keys</h1></header>
      ${this.message ? html`<wa-callout variant="success" role="status">${this.message}</wa-callout>` : nothing}
      ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
      <form class="filters" @submit=${this.create} aria-label="New key">
        <wa-select name="family" label="Type" value="secret">
          ${KEY_FAMILIES.map((f) => html`<wa-option value=${f}>${f}</wa-option>`)}
        </wa-select>
        <wa-select name="mode" label="Mode" .value=${this.mode}>
          ${MODES.map((m) => html`<wa-option value=${m}>${m}</wa-option>`)}
        </wa-select>
        <wa-input name="origins" label="Allowed origins" hint="Host names, comma separated; empty allows any"></wa-input>
        <wa-button type="submit" variant="brand">Create key</wa-button>
      </form>
      ${
        this.keys === null
          ? html`<wa-spinner aria-label="Loading"></wa-spinner>`
          : html`<table class="data">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Type</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Created</th>
                  <th scope="col">Allowed origins</th>
                  <th scope="col">State</th>
                  <th scope="col"><span class="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                ${this.keys.map(
                  (k) =>
                    html`<tr>
                      <td class="mono">${k.prefix}…${k.lastFour}</td>
                      <td>${k.family}</td>
                      <td>${k.mode}</td>
                      <td>${when(k.createdAt)}</td>
                      <td>${k.allowedOrigins.length ? k.allowedOrigins.join(', ') : 'any'}</td>
                      <td>
                        ${k.revokedAt ? html`<wa-badge variant="danger">revoked</wa-badge>` : html`<wa-badge variant="success">active</wa-badge>`}
                      </td>
                      <td>
                        ${
                          k.revokedAt
                            ? nothing
                            : html`<div class="row">
                                <wa-button size="s" @click=${() => (this.editing = k)}>Edit origins</wa-button>
                                <wa-button size="s" variant="danger" @click=${() => void this.revoke(k)}>Revoke</wa-button>
                              </div>`
                        }
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
      <wa-dialog label="New API key" ?open=${this.created !== null} @wa-after-hide=${() => (this.created = null)}>
        ${
          this.created
            ? html`<p>Copy this key now: it is shown only once.</p>
                <p><code class="mono" data-testid="new-key">${this.created.key}</code></p>
                <wa-button slot="footer" variant="brand" @click=${() => (this.created = null)}>Done</wa-button>`
            : nothing
        }
      </wa-dialog>
      <wa-dialog label="Allowed origins" ?open=${this.editing !== null} @wa-after-hide=${() => (this.editing = null)}>
        ${
          this.editing
            ? html`<form class="review-panel" @submit=${this.saveOrigins}>
                <wa-input name="origins" label="Allowed origins" .value=${this.editing.allowedOrigins.join(', ')}></wa-input>
                <div><wa-button type="submit" variant="brand">Save origins</wa-button></div>
              </form>`
            : nothing
        }
      </wa-dialog>`;
  }
}
customElements.define('keys-page', KeysPage);
