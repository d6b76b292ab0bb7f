import { SCORE_NAMES, type VerificationDetail } from '@service/contract';
import { html, nothing } from 'lit';
import { imageUrl } from '../api.js';
import { LightElement } from '../light-element.js';
import { FIELD_LABELS, IMAGE_LABELS, percent, POSE_LABELS, reasonInWords, SCORE_LABELS, when } from '../words.js';
import { verdictBadge } from './verifications-page.js';

/**
 * One verification as a reviewer needs it: the document and the selfie side by side (each opens
 * zoomable), scores, reasons in plain words, the extracted fields next to the typed name, the
 * liveness frames of each step, and a timeline of states, webhook events and the review.
 */
export class VerificationDetailView extends LightElement {
  static override properties = { v: { attribute: false }, zoomRole: { state: true }, zoom: { state: true } };
  declare v: VerificationDetail;
  declare zoomRole: string | null;
  declare zoom: number;
  constructor() {
    super();
    this.zoomRole = null;
    this.zoom = 1;
  }

  private open(role: string) {
    this.zoomRole = role;
    this.zoom = 1;
  }

  private image(role: string, label: string, small = false) {
    return html`<figure>
      <button class="thumb" type="button" @click=${() => this.open(role)} aria-label=${`Enlarge ${label}`}>
        <img src=${imageUrl(this.v.verificationId, role)} alt=${label} class=${small ? 'small' : ''} />
      </button>
      <figcaption>${label}</figcaption>
    </figure>`;
  }

  override updated(): void {
    const img = this.querySelector<HTMLImageElement>('.zoom-area img');
    // Zoom through the CSSOM (allowed by the CSP), not a style attribute; the width grows, so the
    // area scrolls to every part of the enlarged image.
    if (img) img.style.width = `${this.zoom * 100}%`;
  }

  override render() {
    const v = this.v;
    const fields = v.fieldsExtracted;
    const label = (role: string) => IMAGE_LABELS[role] ?? role;
    return html`
      <p>
        <span class="mono">${v.verificationId}</span> · ${v.mode === 'test' ? html`<wa-badge variant="neutral">test</wa-badge>` : 'live'} ·
        status ${v.status ?? 'created'} · verdict ${verdictBadge(v)}
        ${v.redactedAt ? html` · <wa-badge variant="warning">redacted</wa-badge>` : ''}
      </p>
      ${
        v.redactedAt
          ? html`<p role="note">
              Redacted on request ${new Date(v.redactedAt).toLocaleString()}: its images and personal data were erased; the result stays.
            </p>`
          : ''
      }
      <section aria-labelledby="images-h">
        <h2 id="images-h">Images</h2>
        ${
          v.images.length
            ? html`<div class="images">${v.images.map((r) => this.image(r, label(r)))}</div>`
            : v.imagesDeletedAt
              ? html`<p>
                  Images deleted ${new Date(v.imagesDeletedAt).toLocaleString()}
                  (${v.redactedAt ? 'redacted on request' : 'retention period'}).
                </p>`
              : html`<p>No images are stored (never uploaded).</p>`
        }
      </section>
      <div class="grid-2">
        <section aria-labelledby="reasons-h">
          <h2 id="reasons-h">Reasons</h2>
          ${
            v.reasons.length
              ? html`<ul>
                  ${v.reasons.map((r) => html`<li>${reasonInWords(r)}</li>`)}
                </ul>`
              : html`<p>No reasons given.</p>`
          }
          <h2>Scores</h2>
          <table class="data">
            <tbody>
              ${SCORE_NAMES.map(
                (s) =>
                  html`<tr>
                    <th scope="row">${SCORE_LABELS[s]}</th>
                    <td>${percent(v.scores?.[s])}</td>
                    <td>
                      ${
                        v.scores?.[s] !== null && v.scores?.[s] !== undefined
                          ? html`<wa-progress-bar value=${Math.round(v.scores[s] * 100)} label=${SCORE_LABELS[s]}></wa-progress-bar>`
                          : nothing
                      }
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </section>
        <section aria-labelledby="fields-h">
          <h2 id="fields-h">Extracted fields</h2>
          <table class="data">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Read from the document</th>
                <th scope="col">Typed by the user</th>
              </tr>
            </thead>
            <tbody>
              ${Object.entries(FIELD_LABELS).map(
                ([k, name]) =>
                  html`<tr>
                    <th scope="row">${name}</th>
                    <td>${fields?.[k as keyof typeof fields] ?? '-'}</td>
                    <td>${k === 'fullName' ? (v.submittedFullName ?? '-') : ''}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
          <p>Document type: ${v.documentType ?? '-'} · Country: ${v.country ?? '-'}</p>
        </section>
      </div>
      ${
        v.livenessSteps.length
          ? html`<section aria-labelledby="liveness-h">
              <h2 id="liveness-h">Liveness</h2>
              ${v.livenessSteps.map(
                (s) =>
                  html`<h3>Step ${s.step}: ${POSE_LABELS[s.pose] ?? s.pose}</h3>
                    <div class="images frames">
                      ${s.frames.map((f) => this.image(f, `Step ${s.step} frame ${f.split('-').pop()}`, true))}
                    </div>`,
              )}
            </section>`
          : nothing
      }
      <section aria-labelledby="timeline-h">
        <h2 id="timeline-h">Timeline</h2>
        <ol class="timeline">
          ${v.timeline.map((t) => html`<li><time datetime=${t.at}>${when(t.at)}</time>: ${t.label}${t.detail ? html` (${t.detail})` : nothing}</li>`)}
        </ol>
      </section>
      <wa-dialog
        label=${this.zoomRole ? label(this.zoomRole) : 'Image'}
        ?open=${this.zoomRole !== null}
        @wa-after-hide=${(e: Event) => {
          if (e.target === e.currentTarget) this.zoomRole = null;
        }}
        class="zoom-dialog"
      >
        ${
          this.zoomRole
            ? html`<div class="row">
                  <wa-button size="s" @click=${() => (this.zoom = Math.min(4, this.zoom + 0.5))}>Zoom in</wa-button>
                  <wa-button size="s" @click=${() => (this.zoom = Math.max(0.5, this.zoom - 0.5))}>Zoom out</wa-button>
                  <span aria-live="polite">${Math.round(this.zoom * 100)} %</span>
                </div>
                <div class="zoom-area"><img src=${imageUrl(v.verificationId, this.zoomRole)} alt=${label(this.zoomRole)} /></div>`
            : nothing
        }
      </wa-dialog>
    `;
  }
}
customElements.define('verification-detail', VerificationDetailView);
