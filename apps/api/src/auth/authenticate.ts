import { LIMITS, type KeyFamily, type Mode } from '@service/contract';
import type { Context, Middleware } from 'koa';
import type { AppDeps } from '../app-deps.js';
import { ApiError } from '../http/api-error.js';
import { clientIp } from '../http/client-ip.js';
import { assertWithinLimit, ipKey, tenantKey, type TenantLimitedRoute } from '../rate-limit/rate-limiter.js';
import { safeEqual, sha256Hex } from '../util/ids.js';
import { originHostname } from './allowed-origins.js';
import { bearerToken, parseApiKey } from './api-key-format.js';
import { admit, type GateCredentials, type GateRow } from './gate.js';

export interface AuthContext {
  keyId: string;
  tenantId: string;
  family: KeyFamily;
  mode: Mode;
}

declare module 'koa' {
  interface DefaultState {
    auth?: AuthContext;
  }
}

export interface AuthOptions {
  /** The route's per-tenant counter; `none` when the route counts it itself (init, in its gate). */
  tenantLimit: TenantLimitedRoute | 'none';
  /** Only secret keys (GET /v1/verify/:id). */
  secretOnly?: boolean;
}

/** Runs the gate statement for these credentials; init passes one that also creates its intent. */
export type GateQuery<R extends GateRow> = (credentials: GateCredentials) => Promise<R>;

/**
 * The interface's checks on an API-key request, in contract order: the per-IP limit, then
 * missing, invalid, secret-only, credits, origin, and the route's per-tenant limit. The lookup is
 * one gate statement (auth/gate.ts); this function only reads the request and judges the row.
 */
export async function authenticate<R extends GateRow = GateRow>(
  ctx: Context,
  deps: AppDeps,
  opts: AuthOptions,
  query: GateQuery<R> = (c) => admit(deps, c) as Promise<R>,
): Promise<R> {
  const token = bearerToken(ctx.get('Authorization') || undefined);
  const wellFormed = token !== undefined && parseApiKey(token) !== null;
  const keyHash = wellFormed ? sha256Hex(token) : null;
  const row = await query({
    ipBucket: ipKey(clientIp(ctx, deps.config.clientIpHeader)),
    keyHash,
    originHost: originHostname(ctx.get('Origin') || undefined),
  });
  assertWithinLimit(row, LIMITS.perIpPerMinute);

  if (!token) throw new ApiError('missing_api_key', 'Authorization: Bearer <API key> is required');
  if (!keyHash || !row.keyId || !row.keyHash || !safeEqual(row.keyHash, keyHash)) {
    throw new ApiError('invalid_api_key', 'API key is unknown, revoked or malformed');
  }
  if (opts.secretOnly && row.family !== 'secret') {
    throw new ApiError('secret_key_required', 'This route needs a secret API key');
  }
  if ((row.credits ?? 0) <= 0) {
    throw new ApiError('insufficient_credits', 'The account has no credits left');
  }
  if (!row.originOk) {
    throw new ApiError('origin_not_allowed', 'Origin is not on the allowed list of this key');
  }
  ctx.state.auth = { keyId: row.keyId, tenantId: row.tenantId!, family: row.family!, mode: row.mode! };
  if (opts.tenantLimit !== 'none') {
    await deps.limiter.enforce(tenantKey(opts.tenantLimit, row.tenantId!), LIMITS.perTenantPerMinute[opts.tenantLimit]);
  }
  return row;
}

/** `authenticate` as middleware, for routes whose gate is the plain lookup. */
export function requireApiKey(deps: AppDeps, opts: AuthOptions): Middleware {
  return async (ctx, next) => {
    await authenticate(ctx, deps, opts);
    await next();
  };
}

/** Per-IP limit alone, for the upload-token routes. */
export function ipLimit(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    await deps.limiter.enforce(ipKey(clientIp(ctx, deps.config.clientIpHeader)), LIMITS.perIpPerMinute);
    await next();
  };
}
