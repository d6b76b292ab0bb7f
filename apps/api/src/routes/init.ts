import type Router from '@koa/router';
import { initRequestSchema, LIMITS, LIVENESS_ANCHOR_ROLE, slotKey, type InitResponse, type UploadSlot } from '@service/contract';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { authenticate } from '../auth/authenticate.js';
import { readJsonObject } from '../http/read-body.js';
import { validateBody } from '../http/validate.js';
import { newUploadToken, newVerificationId, sha256Hex } from '../util/ids.js';
import { assertWithinLimit, tenantKey } from '../rate-limit/rate-limiter.js';
import { routeName } from './route-name.js';

export function uploadSlot(deps: AppDeps, tenantId: string, verificationId: string, role: string, token: string): UploadSlot {
  return {
    url: `${deps.config.publicBaseUrl}/v1/verify/upload/${verificationId}/${role}`,
    key: slotKey(tenantId, verificationId, role),
    method: 'PUT',
    headers: { 'X-Service-Upload-Token': token, 'Content-Type': 'image/jpeg' },
  };
}

interface InitColumns {
  tenantCount: number | null;
  tenantRetryAfter: number | null;
  expiresAt: number | null;
}

/**
 * POST /v1/verify/init: a new verification intent with its three upload slots. On the hot path the
 * whole request is one statement: IP limit, key lookup, tenant limit and the insert, each step
 * running only if the ones before it passed; the checks then raise errors in contract order.
 */
export function registerInit(router: Router, deps: AppDeps): void {
  router.post('/v1/verify/init', routeName('POST /v1/verify/init'), async (ctx) => {
    // A bad body is reported only after authentication (401 before 400).
    const received = await readJsonObject(ctx).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    const parsed = 'value' in received ? initRequestSchema.safeParse(received.value) : null;
    if (!parsed?.success) {
      await authenticate(ctx, deps, { tenantLimit: 'none' });
      // The slow path (a bad body) still counts against the tenant's init limit.
      await deps.limiter.enforce(tenantKey('init', ctx.state.auth!.tenantId), LIMITS.perTenantPerMinute.init);
      if ('error' in received) throw received.error;
      validateBody(initRequestSchema, received.value);
    }
    const input = parsed!.data!;
    const verificationId = newVerificationId();
    const token = newUploadToken();
    const now = deps.clock.now();
    const row = await authenticate<InitColumns>(ctx, deps, {
      tenantLimit: 'none',
      followUp: {
        ctes: sql`tl as (${deps.limiter.hitSql(sql<string>`'tenant:init:' || k."tenantId"`, sql`from k where k.ok`)}),
          ins as (
            insert into verifications
              (id, tenant_id, mode, upload_token_hash, user_ref, submitted_full_name, country, document_type,
               active_liveness, created_at, slots_expire_at, intent_expires_at)
            select ${verificationId}, k."tenantId", k.mode, ${sha256Hex(token)}, ${input.userRef ?? null},
                   ${input.submittedFullName ?? null}, ${input.country ?? null}, ${input.documentType ?? null},
                   ${input.activeLiveness}, ${now}, ${now} + make_interval(secs => ${LIMITS.uploadSlotSeconds}),
                   ${now} + make_interval(secs => ${LIMITS.intentSeconds})
            from k join tl on tl.count <= ${LIMITS.perTenantPerMinute.init}
            returning floor(extract(epoch from slots_expire_at))::int as "expiresAt"
          )`,
        columns: sql`tl.count as "tenantCount", tl."retryAfter" as "tenantRetryAfter", ins."expiresAt"`,
        joins: sql`left join tl on true left join ins on true`,
      },
    });
    assertWithinLimit({ count: row.tenantCount ?? 0, retryAfter: row.tenantRetryAfter ?? 60 }, LIMITS.perTenantPerMinute.init);
    if (row.expiresAt == null) throw new Error('init: checks passed but no row was inserted');
    const auth = ctx.state.auth!;

    const slot = (role: string) => uploadSlot(deps, auth.tenantId, verificationId, role, token);
    const body: InitResponse = {
      verificationId,
      uploads: { docFront: slot('doc-front'), docBack: slot('doc-back'), selfie: slot('selfie') },
      expiresAt: row.expiresAt,
      ...(input.activeLiveness
        ? {
            liveness: {
              challengeUrl: `${deps.config.publicBaseUrl}/v1/verify/challenge/${verificationId}/next`,
              steps: LIMITS.livenessSteps,
              burst: LIMITS.livenessBurst,
              anchor: slot(LIVENESS_ANCHOR_ROLE),
              frameUrlTemplate: `${deps.config.publicBaseUrl}/v1/verify/upload/${verificationId}/liveness-{step}-{frame}`,
            },
          }
        : {}),
      requestId: ctx.state.requestId,
    };
    ctx.status = 200;
    ctx.body = body;
  });
}
