import type { DashboardSession, Mode } from '@service/contract';
import { html, nothing } from 'lit';
import { api, DashboardApiError, setSession, whenSignedOut } from './api.js';
import { LightElement, navigate } from './light-element.js';
import './pages/audit-page.js';
import './pages/credits-page.js';
import './pages/invite-page.js';
import './pages/keys-page.js';
import './pages/overview-page.js';
import './pages/review-page.js';
import './pages/sign-in-page.js';
import './pages/verification-page.js';
import './pages/verifications-page.js';
import './pages/webhooks-page.js';

interface Route {
  page: 'overview' | 'verifications' | 'verification' | 'review' | 'webhooks' | 'keys' | 'credits' | 'audit' | 'invite' | 'not-found';
  id?: string;
}

function route(path: string): Route {
  const rest = path.replace(/^\/dashboard\/?/, '').replace(/\/+$/, '');
  if (rest === '' || rest === 'overview') return { page: 'overview' };
  if (rest === 'verifications') return { page: 'verifications' };
  const m = /^verifications\/([^/]+)$/.exec(rest);
  if (m) return { page: 'verification', id: decodeURIComponent(m[1]!) };
  if (rest === 'review' || rest === 'webhooks' || rest === 'keys' || rest === 'credits' || rest === 'audit' || rest === 'invite') {
    return { page: rest };
  }
  return { page: 'not-found' };
}

const NAV: { path: string; label: string; page: Route['page']; adminOnly: boolean }[] = [
  { path: '/dashboard/overview', label: 'Overview', page: 'overview', adminOnly: false },
  { path: '/dashboard/verifications', label: 'Verifications', page: 'verifications', adminOnly: false },
  { path: '/dashboard/review', label: 'Review', page: 'review', adminOnly: false },
  { path: '/dashboard/webhooks', label: 'Webhooks', page: 'webhooks', adminOnly: true },
  { path: '/dashboard/keys', label: 'API keys', page: 'keys', adminOnly: true },
  { path: '/dashboard/credits', label: 'Credits', page: 'credits', adminOnly: true },
  { path: '/dashboard/audit', label: 'Audit log', page: 'audit', adminOnly: true },
];

/** The shell: session, navigation by role, the "Test data" switch, and the page of the current URL. */
export class DashboardApp extends LightElement {
  static override properties = {
    session: { state: true },
    loading: { state: true },
    route: { state: true },
    mode: { state: true },
  };
  declare session: DashboardSession | null;
  declare loading: boolean;
  declare route: Route;
  declare mode: Mode;

  constructor() {
    super();
    this.session = null;
    this.loading = true;
    this.route = route(location.pathname);
    this.mode = sessionStorage.getItem('dashboard-mode') === 'test' ? 'test' : 'live';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', () => {
      this.route = route(location.pathname);
    });
    // Links inside the app change the page without a reload.
    this.addEventListener('click', (e) => {
      const a = (e.target as HTMLElement).closest('a');
      if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
      const href = a.getAttribute('href');
      if (href?.startsWith('/dashboard') && !href.startsWith('/dashboard/api')) {
        e.preventDefault();
        navigate(href);
      }
    });
    whenSignedOut(() => {
      this.session = null;
      setSession(null);
    });
    void this.loadSession();
  }

  private async loadSession() {
    try {
      this.session = await api<DashboardSession>('GET', '/session');
      setSession(this.session);
    } catch (err) {
      if (!(err instanceof DashboardApiError && err.status === 401)) console.error(err);
      this.session = null;
    } finally {
      this.loading = false;
    }
  }

  private signedIn = (e: CustomEvent<DashboardSession>) => {
    this.session = e.detail;
    setSession(e.detail);
    if (this.route.page === 'invite') navigate('/dashboard/overview');
  };

  private async signOut() {
    try {
      await api('POST', '/session/sign-out');
    } finally {
      this.session = null;
      setSession(null);
    }
  }

  // A native checkbox with role="switch": any pointer, keyboard or test driver can toggle it (Web
  // Awesome's switch hides its input under the thumb, so a click aimed at the input is intercepted).
  private setMode(e: Event) {
    this.mode = (e.target as HTMLInputElement).checked ? 'test' : 'live';
    sessionStorage.setItem('dashboard-mode', this.mode);
  }

  override updated(): void {
    const titles: Record<string, string> = {
      overview: 'Overview',
      verifications: 'Verifications',
      verification: 'Verification',
      review: 'Review',
      webhooks: 'Webhooks',
      keys: 'API keys',
      credits: 'Credits',
      audit: 'Audit log',
      invite: 'Choose a password',
    };
    document.title = this.session ? `${titles[this.route.page] ?? 'Not found'} · Dashboard` : 'Sign in · Dashboard';
  }

  private page() {
    const r = this.route;
    const admin = this.session?.user.role === 'admin';
    const forbidden = html`<h1>Not available</h1>
      <p>Your role (reviewer) gives access to verifications and the review queue only.</p>`;
    switch (r.page) {
      case 'overview':
        return html`<overview-page .mode=${this.mode}></overview-page>`;
      case 'verifications':
        return html`<verifications-page .mode=${this.mode}></verifications-page>`;
      case 'verification':
        return html`<verification-page .verificationId=${r.id!}></verification-page>`;
      case 'review':
        return html`<review-page .mode=${this.mode}></review-page>`;
      case 'webhooks':
        return admin ? html`<webhooks-page></webhooks-page>` : forbidden;
      case 'keys':
        return admin ? html`<keys-page .mode=${this.mode}></keys-page>` : forbidden;
      case 'credits':
        return admin ? html`<credits-page></credits-page>` : forbidden;
      case 'audit':
        return admin ? html`<audit-page></audit-page>` : forbidden;
      default:
        return html`<h1>Not found</h1>
          <p>There is no such page. <a href="/dashboard/verifications">Go to verifications</a>.</p>`;
    }
  }

  override render() {
    if (this.loading) return html`<main><wa-spinner aria-label="Loading"></wa-spinner></main>`;
    if (this.route.page === 'invite' && !this.session) return html`<invite-page></invite-page>`;
    if (!this.session) return html`<sign-in-page @signed-in=${this.signedIn}></sign-in-page>`;
    const s = this.session;
    const links = NAV.filter((n) => !n.adminOnly || s.user.role === 'admin');
    const current = this.route.page === 'verification' ? 'verifications' : this.route.page;
    return html`<div class="shell">
      <nav aria-label="Main">
        <strong>${s.tenant.name}</strong>
        ${links.map((n) => html`<a href=${n.path} aria-current=${current === n.page ? 'page' : nothing}>${n.label}</a>`)}
        <div class="who">
          <label class="switch">
            <input type="checkbox" role="switch" .checked=${this.mode === 'test'} @change=${this.setMode} />
            <span>Test data</span>
          </label>
          <span>${s.user.email}<br /><small>${s.user.role}</small></span>
          <wa-button size="s" appearance="outlined" @click=${() => void this.signOut()}>Sign out</wa-button>
        </div>
      </nav>
      <main>${this.mode === 'test' ? html`<p class="test-banner" role="status">Showing test data</p>` : nothing} ${this.page()}</main>
    </div>`;
  }
}
customElements.define('dashboard-app', DashboardApp);
