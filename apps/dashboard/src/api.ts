import { DASHBOARD_CSRF_HEADER, type DashboardSession, type ErrorObject } from '@service/contract';

/** An API answer that was not 2xx: the interface's Error object. */
export class DashboardApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorObject | null,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
  get code(): string {
    return this.body?.error ?? 'internal_error';
  }
}

let csrfToken: string | null = null;
let onSignedOut: () => void = () => {};

export function setSession(session: DashboardSession | null): void {
  csrfToken = session?.csrfToken ?? null;
}
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

/** JSON call to /dashboard/api; every change carries the session's CSRF token. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[DASHBOARD_CSRF_HEADER] = csrfToken;
  const res = await fetch(`/dashboard/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : null;
  if (!res.ok) {
    const err = new DashboardApiError(res.status, json as ErrorObject | null);
    if (err.code === 'not_signed_in' && path !== '/session') onSignedOut();
    throw err;
  }
  return json as T;
}

export const imageUrl = (verificationId: string, role: string) =>
  `/dashboard/api/verifications/${encodeURIComponent(verificationId)}/images/${encodeURIComponent(role)}`;
