import type { KeyFamily, Mode } from '@service/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Context, Middleware } from 'koa';
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

export interface GateRow extends RateLimitHit {
  keyId: string | null;
  tenantId: string | null;
  family: KeyFamily | null;
  mode: Mode | null;
  keyHash: string | null;
  allowedOrigins: string[] | null;
  credits: number | null;
}

/**
 * Work a route folds into the gate statement: CTEs that may read `k` (the key row, with `ok` true
 * when the IP limit, credits and origin all pass) and `ip`, plus columns and joins for the result.
 */
export interface GateFollowUp {
  ctes: RawBuilder<unknown>;
  columns: RawBuilder<unknown>;
  joins: RawBuilder<unknown>;
}

export interface AuthOptions {
  /** Per-tenant counter of this route; `none` when the route counts it itself (in a follow-up). */
  tenantLimit: 'submit' | 'result' | 'none';
  /** Only secret keys (GET /v1/verify/:id). */
  secretOnly?: boolean;
  followUp?: GateFollowUp;
}

/** The Origin's hostname as compared with allowed origins; '' when unparsable, null when absent. */
function originHost(header: string | undefined): string | null {
  if (!header) return null;
  try {
    return new URL(header).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return '';
  }
}

/**
 * The per-IP limit (before anything is known of the caller) and the key lookup in one round
 * trip, then the interface's checks in order: missing, invalid, secret-only, credits, origin,
 * and the route's per-tenant limit. Returns the gate row (with any follow-up columns).
 */
export async function authenticate<Extra extends object = object>(ctx: Context, deps: AppDeps, opts: AuthOptions): Promise<GateRow & Partial<Extra>> {
  const { limiter, config } = deps;
  const ip = ipKey(clientIp(ctx, config.clientIpHeader));
  const token = bearerToken(ctx.get('Authorization') || undefined);
  const parsed = token ? parseApiKey(token) : null;
  const hash = parsed && token ? sha256Hex(token) : null;
  const origin = ctx.get('Origin') || undefined;

  let row: GateRow & Partial<Extra>;
  if (hash) {
    const f = opts.followUp;
    const { rows } = await deps.run(sql<GateRow & Partial<Extra>>`with ip as (${limiter.hitSql(ip)}),
      k as (
        select k.id as "keyId", k.tenant_id as "tenantId", k.family, k.mode, k.key_hash as "keyHash",
               k.allowed_origins as "allowedOrigins", t.credits,
               (ip.count <= ${LIMITS.perIpPerMinute} and t.credits > 0 and (${originHost(origin)}::text is null
                 or jsonb_array_length(k.allowed_origins) = 0 or k.allowed_origins ? ${originHost(origin)}::text)) as ok
        from ip
        join api_keys k on k.key_hash = ${hash} and k.revoked_at is null
        join tenants t on t.id = k.tenant_id
      )${f ? sql`, ${f.ctes}` : sql``}
      select ip.count, ip."retryAfter", k."keyId", k."tenantId", k.family, k.mode, k."keyHash", k."allowedOrigins", k.credits
        ${f ? sql`, ${f.columns}` : sql``}
      from ip left join k on true ${f ? f.joins : sql``}`);
    row = rows[0]!;
  } else {
    row = { ...(await limiter.hit(ip)), keyId: null, tenantId: null, family: null, mode: null, keyHash: null, allowedOrigins: null, credits: null } as GateRow & Partial<Extra>;
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
  if (!originAllowed(origin, row.allowedOrigins ?? [])) {
    throw new ApiError('origin_not_allowed', 'Origin is not on the allowed list of this key');
  }
  ctx.state.auth = { keyId: row.keyId, tenantId: row.tenantId!, family: row.family!, mode: row.mode! };
  if (opts.tenantLimit !== 'none') {
    await limiter.enforce(tenantKey(opts.tenantLimit, row.tenantId!), LIMITS.perTenantPerMinute[opts.tenantLimit]);
  }
  return row;
}

/** `authenticate` as middleware, for routes with nothing to fold into the gate. */
export function requireApiKey(deps: AppDeps, opts: Omit<AuthOptions, 'followUp'>): Middleware {
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
