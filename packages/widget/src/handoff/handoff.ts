import {
  HANDOFF_PAGE_PATH,
  HANDOFF_POLL_MS,
  type HandoffClaimResponse,
  type HandoffCreateResponse,
  type HandoffStatusResponse,
  type InitResponse,
} from '@service/contract';
import { html, svg, type TemplateResult } from 'lit';
import { encode } from 'uqr';
import type { ApiClient } from '../api/client.js';
import type { SessionBackend } from '../flow/session.js';
import type { Messages } from '../i18n/messages.js';

/**
 * Continue on a phone (decisions.md), loaded only when it is used: the desktop's link and its
 * screen (a QR code drawn here, the link as text with a copy button, the phone's progress), the
 * desktop's polling, and the phone's side (claiming the link, submitting with its token).
 */

const tokenHeader = (token: string) => ({ 'X-Service-Upload-Token': token });
const json = { 'Content-Type': 'application/json' };

export function createLink(
  api: ApiClient,
  base: string,
  token: string,
  body: { verificationId: string; documentBack: boolean; locale: string },
  signal: AbortSignal,
): Promise<HandoffCreateResponse> {
  return api.request<HandoffCreateResponse>(
    `${base}/v1/verify/handoff`,
    { method: 'POST', headers: { ...tokenHeader(token), ...json }, body: JSON.stringify(body) },
    'handoff',
    signal,
  );
}

/** Revokes the link (the desktop's Cancel); best effort, it outlives the page's unload. */
export function cancelLink(base: string, token: string): void {
  void fetch(`${base}/v1/verify/handoff/cancel`, { method: 'POST', headers: tokenHeader(token), keepalive: true }).catch(() => {});
}

/**
 * Asks for the link's state every 2 s until the phone submitted or the link died; `onState`
 * hears each answer. A failed poll (the network) is tried again at the next tick.
 */
export async function followLink(
  api: ApiClient,
  base: string,
  token: string,
  signal: AbortSignal,
  onState: (s: HandoffStatusResponse) => void,
): Promise<HandoffStatusResponse | null> {
  while (!signal.aborted) {
    try {
      const s = await api.request<HandoffStatusResponse>(
        `${base}/v1/verify/handoff/status`,
        { method: 'GET', headers: tokenHeader(token), cache: 'no-store' },
        'handoff status',
        signal,
      );
      onState(s);
      if (s.state === 'submitted' || s.state === 'expired') return s;
    } catch {
      if (signal.aborted) return null;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, HANDOFF_POLL_MS);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
  return null;
}

/** The code of the page this phone opened (`/continue/<code>`), or null elsewhere. */
export function codeFromAddress(): string | null {
  const path = globalThis.location?.pathname ?? '';
  return path.startsWith(HANDOFF_PAGE_PATH) ? decodeURIComponent(path.slice(HANDOFF_PAGE_PATH.length)) || null : null;
}

const sessionKey = (code: string) => `service-handoff:${code}`;

/**
 * The phone's session: its claim of the link (kept in sessionStorage, so a reload on this phone
 * carries on), and submit with the claim's upload token (the phone holds no key).
 */
export function phoneBackend(api: ApiClient, base: string, code: string, onClaim: (c: HandoffClaimResponse) => void): SessionBackend {
  return {
    async open(signal) {
      let kept: string | null = null;
      try {
        kept = sessionStorage.getItem(sessionKey(code));
      } catch {
        /* storage blocked */
      }
      const claim = await api.request<HandoffClaimResponse>(
        `${base}/v1/verify/handoff/claim`,
        { method: 'POST', headers: json, body: JSON.stringify({ code, ...(kept ? { handoffSession: kept } : {}) }), cache: 'no-store' },
        'claim',
        signal,
      );
      try {
        sessionStorage.setItem(sessionKey(code), claim.handoffSession);
      } catch {
        /* storage blocked: a reload claims again and is refused */
      }
      onClaim(claim);
      return claim as InitResponse;
    },
    submit(init: InitResponse, keys, signal) {
      return api.request(
        `${base}/v1/verify/handoff/submit`,
        {
          method: 'POST',
          headers: { ...tokenHeader(init.uploads.docFront.headers['X-Service-Upload-Token']), ...json },
          body: JSON.stringify({ verificationId: init.verificationId, keys }),
        },
        'submit',
        signal,
      );
    },
  };
}

/** The QR code of a URL as SVG (uqr: the modules; drawn here, no third-party service). */
function qrCode(url: string, label: string): TemplateResult {
  const { data, size } = encode(url, { ecc: 'M', border: 4 });
  let d = '';
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (data[y]![x]) d += `M${x} ${y}h1v1h-1z`;
  return html`<svg part="handoff-qr" class="qr" viewBox="0 0 ${size} ${size}" role="img" aria-label=${label} shape-rendering="crispEdges">
    ${svg`<rect width=${size} height=${size} fill="#fff"></rect><path d=${d} fill="#000"></path>`}
  </svg>`;
}

export interface HandoffView {
  url: string;
  state: 'waiting' | 'in_progress';
  copied: boolean;
}

/** The desktop's screen while a phone may take over (`data-step="handoff"`). */
export function renderHandoff(t: Messages, view: HandoffView, onCopy: () => void, cancel: TemplateResult): TemplateResult {
  return html`
    <h2 tabindex="-1">${t.handoffTitle}</h2>
    <p id="hint">${t.handoffBody}</p>
    <div class="handoff">
      ${qrCode(view.url, t.handoffQrLabel)}
      <label class="link">
        <span>${t.handoffLinkLabel}</span>
        <input
          part="handoff-link"
          type="text"
          readonly
          .value=${view.url}
          @focus=${(e: FocusEvent) => (e.target as HTMLInputElement).select()}
        />
      </label>
      <button type="button" part="copy-button" @click=${onCopy}>${view.copied ? t.linkCopied : t.copyLink}</button>
    </div>
    <p class="status-line" part="handoff-status" data-handoff-state=${view.state}>
      ${view.state === 'in_progress' ? t.handoffInProgress : t.handoffWaiting}
    </p>
    <div class="actions">${cancel}</div>
  `;
}
