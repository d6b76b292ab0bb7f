import { DASHBOARD_CSRF_HEADER, DASHBOARD_SESSION_COOKIE } from '@service/contract';
import { call, type Api, type Res } from './api-client.js';

/** A signed-in dashboard user: keeps the session cookie and the CSRF token like the browser app. */
export class DashboardClient {
  cookie: string | null = null;
  csrf: string | null = null;
  setCookie: string | null = null;
  constructor(readonly base: string) {}

  async signIn(email: string, password: string): Promise<Res> {
    const r = await call(this.base, 'POST', '/dashboard/api/session', { json: { email, password } });
    this.setCookie = r.headers.get('set-cookie');
    const m = this.setCookie && new RegExp(`${DASHBOARD_SESSION_COOKIE}=([^;]+)`).exec(this.setCookie);
    if (r.status === 201 && m) {
      this.cookie = m[1]!;
      this.csrf = r.body.csrfToken;
    }
    return r;
  }

  /** Any request with the session cookie; `csrf: false` leaves the token out. */
  req<T = any>(method: string, path: string, json?: unknown, opts: { csrf?: boolean } = {}): Promise<Res<T>> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.Cookie = `${DASHBOARD_SESSION_COOKIE}=${this.cookie}`;
    if (this.csrf && opts.csrf !== false && method !== 'GET') headers[DASHBOARD_CSRF_HEADER] = this.csrf;
    return call<T>(this.base, method, `/dashboard/api${path}`, { headers, ...(json !== undefined ? { json } : {}) });
  }
  get<T = any>(path: string) {
    return this.req<T>('GET', path);
  }
  post<T = any>(path: string, json: unknown = {}, opts: { csrf?: boolean } = {}) {
    return this.req<T>('POST', path, json, opts);
  }
}

let seq = 0;
/** Operator-created user with a password, signed in. */
export async function dashboardUser(api: Api, tenantId: string, role: 'admin' | 'reviewer', password = 'correct horse battery staple') {
  const email = `${role}${++seq}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await api.admin('POST', `/admin/v1/tenants/${tenantId}/users`, { email, role, password });
  if (created.status !== 201) throw new Error(`user creation failed ${created.status} ${JSON.stringify(created.body)}`);
  const client = new DashboardClient(api.base);
  const r = await client.signIn(email, password);
  if (r.status !== 201) throw new Error(`sign-in failed ${r.status} ${JSON.stringify(r.body)}`);
  return { client, email, password, userId: created.body.userId as string };
}
