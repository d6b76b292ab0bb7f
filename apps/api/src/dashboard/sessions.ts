import { DASHBOARD_CSRF_HEADER, DASHBOARD_LIMITS, DASHBOARD_SESSION_COOKIE, type DashboardRole } from '@service/contract';
import { sql } from 'kysely';
import type { Context, Middleware } from 'koa';
import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../app-deps.js';
import { ApiError } from '../http/api-error.js';
import { safeEqual, sha256Hex } from '../util/ids.js';
import type { Actor } from './audit.js';
import { decoyHash, verifyPassword } from './passwords.js';

export interface DashboardUser extends Actor {
  role: DashboardRole;
  tenantName: string;
  csrfToken: string;
  tokenHash: string;
}

declare module 'koa' {
  interface DefaultState {
    dashboardUser?: DashboardUser;
  }
}

/** The cookie's path covers the app and its API; `Secure` whenever the public URL or the request is HTTPS. */
export function sessionCookie(deps: AppDeps, ctx: Context, value: string, clear = false): string {
  const secure = ctx.secure || deps.config.publicBaseUrl.startsWith('https://');
  return [
    `${DASHBOARD_SESSION_COOKIE}=${clear ? '' : value}`,
    'Path=/dashboard',
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
    ...(clear ? ['Max-Age=0'] : []),
  ].join('; ');
}

const seconds = (n: number) => sql<Date>`make_interval(secs => ${n})`;

/**
 * Email and password -> a new session, or 401 `invalid_credentials`. Five failures for one email
 * within 15 minutes lock it for 15 minutes (429 `account_locked`, even with the right password).
 * Unknown emails cost one scrypt too and count towards the lock, so timing and lockout reveal
 * nothing about which emails exist.
 */
export async function signIn(deps: AppDeps, email: string, password: string): Promise<{ token: string; user: DashboardUser }> {
  const now = deps.clock.now();
  const lock = await deps.db
    .selectFrom('dashboard_lockouts')
    .select(sql<number>`ceil(extract(epoch from (locked_until - ${now})))::int`.as('remaining'))
    .where('email', '=', email)
    .where('locked_until', '>', now)
    .executeTakeFirst();
  if (lock) {
    throw new ApiError('account_locked', 'Too many failed sign-ins: this account is locked for a while', {
      retry_after: Math.max(1, lock.remaining),
    });
  }
  const user = await deps.db
    .selectFrom('dashboard_users as u')
    .innerJoin('tenants as t', 't.id', 'u.tenant_id')
    .select(['u.id', 'u.email', 'u.role', 'u.password_hash', 'u.tenant_id', 't.name'])
    .where('u.email', '=', email)
    .executeTakeFirst();
  const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
  if (!user || !user.password_hash || !ok) {
    await recordFailure(deps, email);
    throw new ApiError('invalid_credentials', 'Email or password is wrong');
  }
  await deps.db.deleteFrom('dashboard_sign_in_failures').where('email', '=', email).execute();
  // Housekeeping on the rare sign-in path: idle sessions and old failures are dead weight.
  await deps.db
    .deleteFrom('dashboard_sessions')
    .where('last_seen_at', '<', sql<Date>`${now} - ${seconds(DASHBOARD_LIMITS.sessionIdleSeconds)}`)
    .execute();
  await deps.db
    .deleteFrom('dashboard_sign_in_failures')
    .where('at', '<', sql<Date>`${now} - ${seconds(DASHBOARD_LIMITS.lockoutWindowSeconds)}`)
    .execute();
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const tokenHash = sha256Hex(token);
  await deps.db
    .insertInto('dashboard_sessions')
    .values({ token_hash: tokenHash, user_id: user.id, csrf_token: csrfToken, created_at: now, last_seen_at: now })
    .execute();
  return {
    token,
    user: { userId: user.id, email: user.email, role: user.role, tenantId: user.tenant_id, tenantName: user.name, csrfToken, tokenHash },
  };
}

async function recordFailure(deps: AppDeps, email: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    // One sign-in decision per email at a time, so parallel guesses cannot slip past the count.
    await sql`select pg_advisory_xact_lock(hashtext(${`dashboard-sign-in:${email}`}))`.execute(trx);
    await trx.insertInto('dashboard_sign_in_failures').values({ email, at: now }).execute();
    const { n } = await trx
      .selectFrom('dashboard_sign_in_failures')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('email', '=', email)
      .where('at', '>', sql<Date>`${now} - ${seconds(DASHBOARD_LIMITS.lockoutWindowSeconds)}`)
      .executeTakeFirstOrThrow();
    if (Number(n) >= DASHBOARD_LIMITS.lockoutFailures) {
      const until = sql<Date>`${now} + ${seconds(DASHBOARD_LIMITS.lockoutSeconds)}`;
      await trx
        .insertInto('dashboard_lockouts')
        .values({ email, locked_until: until })
        .onConflict((oc) => oc.column('email').doUpdateSet({ locked_until: until }))
        .execute();
      await trx.deleteFrom('dashboard_sign_in_failures').where('email', '=', email).execute();
    }
  });
}

/** Ends a session server-side: the cookie is worthless afterwards, wherever a copy of it lives. */
export async function endSession(deps: AppDeps, tokenHash: string): Promise<void> {
  await deps.db.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
}

/**
 * Every dashboard API route but sign-in: a live session (used within the last 12 h; each request
 * renews it) or 401 `not_signed_in`; on a change (any method but GET/HEAD) the session's CSRF token
 * in `X-CSRF-Token`, or 403 `csrf_token_invalid` before anything is read or written.
 */
export function requireSession(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    const token = ctx.cookies.get(DASHBOARD_SESSION_COOKIE);
    if (!token) throw new ApiError('not_signed_in', 'Sign in to use the dashboard');
    const now = deps.clock.now();
    const tokenHash = sha256Hex(token);
    const row = await deps.db
      .updateTable('dashboard_sessions as s')
      .set({ last_seen_at: now })
      .from('dashboard_users as u')
      .innerJoin('tenants as t', 't.id', 'u.tenant_id')
      .whereRef('u.id', '=', 's.user_id')
      .where('s.token_hash', '=', tokenHash)
      .where('s.last_seen_at', '>', sql<Date>`${now} - ${seconds(DASHBOARD_LIMITS.sessionIdleSeconds)}`)
      .returning(['u.id', 'u.email', 'u.role', 'u.tenant_id', 't.name', 's.csrf_token'])
      .executeTakeFirst();
    if (!row) {
      await endSession(deps, tokenHash);
      throw new ApiError('not_signed_in', 'Your session has ended: sign in again');
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      const sent = ctx.get(DASHBOARD_CSRF_HEADER);
      if (!sent || !safeEqual(sent, row.csrf_token)) throw new ApiError('csrf_token_invalid', 'Missing or wrong CSRF token');
    }
    ctx.state.dashboardUser = {
      userId: row.id,
      email: row.email,
      role: row.role,
      tenantId: row.tenant_id,
      tenantName: row.name,
      csrfToken: row.csrf_token,
      tokenHash,
    };
    await next();
  };
}

/** Role guard after requireSession: a reviewer reaching an admin route gets 403 `forbidden_for_role`. */
export function requireRole(role: DashboardRole): Middleware {
  return async (ctx, next) => {
    if (ctx.state.dashboardUser?.role !== role) throw new ApiError('forbidden_for_role', 'Your role does not allow this');
    await next();
  };
}

/**
 * Sign-in and invite acceptance have no session yet: a browser's cross-site POST is refused by
 * its Origin (and must be JSON, which a plain form cannot send without a preflight).
 */
export function sameOriginOnly(): Middleware {
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    if (origin && hostOf(origin) !== ctx.host) throw new ApiError('csrf_token_invalid', 'Cross-site request refused');
    if (!ctx.is('application/json')) throw new ApiError('invalid_body', 'Body must be JSON (Content-Type: application/json)');
    await next();
  };
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
