import type { KeyFamily, Mode } from '@service/contract';
import { sql } from 'kysely';
import type { Middleware } from 'koa';
import type { AppDeps } from '../app-deps.js';
import { clientIp } from '../http/client-ip.js';
import { ApiError } from '../http/api-error.js';
import { assertWithinLimit, ipKey, tenantKey, type RateLimitHit } from '../rate-limit/rate-limiter.js';
import { safeEqual, sha256Hex } from '../util/ids.js';
import { bearerToken, parseApiKey } from './api-key-format.js';
import { originAllowed } from './allowed-origins.js';
import { LIMITS } from '@service/contract';

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

interface GateRow extends RateLimitHit {
  keyId: string | null;
  tenantId: string | null;
  family: KeyFamily | null;
  mode: Mode | null;
  keyHash: string | null;
  allowedOrigins: string[] | null;
  credits: number | null;
}

export interface AuthOptions {
  /** Per-tenant counter of this route. */
  tenantLimit: 'init' | 'submit' | 'result';
  /** Only secret keys (GET /v1/verify/:id). */
  secretOnly?: boolean;
}

/**
 * The per-IP limit (before anything is known of the caller) and the key lookup in one round
 * trip, then the interface's checks in order: missing, invalid, secret-only, credits, origin,
 * and the route's per-tenant limit.
 */
export function requireApiKey(deps: AppDeps, opts: AuthOptions): Middleware {
  const { db, limiter, config } = deps;
  return async (ctx, next) => {
    const ip = ipKey(clientIp(ctx, config.clientIpHeader));
    const token = bearerToken(ctx.get('Authorization') || undefined);
    const parsed = token ? parseApiKey(token) : null;
    const hash = parsed && token ? sha256Hex(token) : null;

    let row: GateRow;
    if (hash) {
      const { rows } = await sql<GateRow>`with ip as (${limiter.hitSql(ip)})
        select ip.count, ip."retryAfter", k.id as "keyId", k.tenant_id as "tenantId", k.family, k.mode,
               k.key_hash as "keyHash", k.allowed_origins as "allowedOrigins", t.credits
        from ip
        left join api_keys k on k.key_hash = ${hash} and k.revoked_at is null
        left join tenants t on t.id = k.tenant_id`.execute(db);
      row = rows[0]!;
    } else {
      row = { ...(await limiter.hit(ip)), keyId: null, tenantId: null, family: null, mode: null, keyHash: null, allowedOrigins: null, credits: null };
    }
    assertWithinLimit(row, LIMITS.perIpPerMinute);

    if (!token) throw new ApiError('missing_api_key', 'Authorization: Bearer <API key> is required');
    if (!parsed || !hash || !row.keyId || !row.keyHash || !safeEqual(row.keyHash, hash)) {
      throw new ApiError('invalid_api_key', 'API key is unknown, revoked or malformed');
    }
    if (opts.secretOnly && row.family !== 'secret') {
      throw new ApiError('secret_key_required', 'This route needs a secret API key');
    }
    if ((row.credits ?? 0) <= 0) {
      throw new ApiError('insufficient_credits', 'The account has no credits left');
    }
    if (!originAllowed(ctx.get('Origin') || undefined, row.allowedOrigins ?? [])) {
      throw new ApiError('origin_not_allowed', 'Origin is not on the allowed list of this key');
    }
    ctx.state.auth = { keyId: row.keyId, tenantId: row.tenantId!, family: row.family!, mode: row.mode! };
    await limiter.enforce(tenantKey(opts.tenantLimit, row.tenantId!), LIMITS.perTenantPerMinute[opts.tenantLimit]);
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
