import type Router from '@koa/router';
import { initRequestSchema, LIMITS, LIVENESS_ANCHOR_ROLE, slotKey, slotOf, type InitResponse, type UploadSlot } from '@service/contract';
import type { AppDeps } from '../app-deps.js';
import { authenticate } from '../auth/authenticate.js';
import { admitAndCreateIntent, type IntentValues } from '../auth/gate.js';
import { readJsonObject } from '../http/read-body.js';
import { route, type ResponseBody } from '../http/route.js';
import { validateBody } from '../http/validate.js';
import { assertWithinLimit, tenantKey } from '../rate-limit/rate-limiter.js';
import { newUploadToken, newVerificationId, sha256Hex } from '../util/ids.js';

export function uploadSlot(deps: AppDeps, tenantId: string, verificationId: string, role: string, token: string): UploadSlot {
  return {
    url: `${deps.config.publicBaseUrl}/v1/verify/upload/${verificationId}/${role}`,
    key: slotKey(tenantId, verificationId, role),
    method: 'PUT',
    headers: { 'X-Service-Upload-Token': token, 'Content-Type': 'image/jpeg' },
  };
}

/** A verification's three slots under this upload token, and its liveness block when it opted in (init, and a phone's handoff claim). */
export function uploadSlots(
  deps: AppDeps,
  tenantId: string,
  verificationId: string,
  token: string,
  activeLiveness: boolean,
): Pick<InitResponse, 'uploads' | 'liveness'> {
  const slot = (role: string) => uploadSlot(deps, tenantId, verificationId, role, token);
  return {
    uploads: { docFront: slot(slotOf('docFront')), docBack: slot(slotOf('docBack')), selfie: slot(slotOf('selfie')) },
    ...(activeLiveness
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
  };
}

/**
 * POST /v1/verify/init: a new verification intent with its three upload slots. On the hot path the
 * whole request is one statement (the gate's: IP limit, key lookup, tenant limit and the insert,
 * each step running only if the ones before it passed); the checks then raise errors in contract
 * order.
 */
export function registerInit(router: Router, deps: AppDeps): void {
  route(router, 'POST /v1/verify/init', async (ctx) => {
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
    const intent: IntentValues = {
      verificationId,
      uploadTokenHash: sha256Hex(token),
      userRef: input.userRef ?? null,
      submittedFullName: input.submittedFullName ?? null,
      country: input.country ?? null,
      documentType: input.documentType ?? null,
      activeLiveness: input.activeLiveness,
      now: deps.clock.now(),
    };
    const row = await authenticate(ctx, deps, { tenantLimit: 'none' }, (credentials) => admitAndCreateIntent(deps, credentials, intent));
    assertWithinLimit({ count: row.tenantCount ?? 0, retryAfter: row.tenantRetryAfter ?? 60 }, LIMITS.perTenantPerMinute.init);
    if (row.expiresAt == null) throw new Error('init: checks passed but no row was inserted');
    const auth = ctx.state.auth!;

    const body: ResponseBody<InitResponse> = {
      verificationId,
      ...uploadSlots(deps, auth.tenantId, verificationId, token, input.activeLiveness),
      expiresAt: row.expiresAt,
    };
    ctx.status = 200;
    ctx.body = body;
  });
}
