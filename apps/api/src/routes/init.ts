import type Router from '@koa/router';
import { initRequestSchema, LIMITS, LIVENESS_ANCHOR_ROLE, slotKey, type InitResponse, type UploadSlot } from '@service/contract';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { requireApiKey } from '../auth/authenticate.js';
import { readJsonObject } from '../http/read-body.js';
import { validateBody } from '../http/validate.js';
import { newUploadToken, newVerificationId, sha256Hex } from '../util/ids.js';
import { routeName } from './route-name.js';

export function uploadSlot(deps: AppDeps, tenantId: string, verificationId: string, role: string, token: string): UploadSlot {
  return {
    url: `${deps.config.publicBaseUrl}/v1/verify/upload/${verificationId}/${role}`,
    key: slotKey(tenantId, verificationId, role),
    method: 'PUT',
    headers: { 'X-Service-Upload-Token': token, 'Content-Type': 'image/jpeg' },
  };
}

/** POST /v1/verify/init: a new verification intent with its three upload slots. */
export function registerInit(router: Router, deps: AppDeps): void {
  router.post('/v1/verify/init', routeName('POST /v1/verify/init'), requireApiKey(deps, { tenantLimit: 'init' }), async (ctx) => {
    const auth = ctx.state.auth!;
    const input = validateBody(initRequestSchema, await readJsonObject(ctx));
    const verificationId = newVerificationId();
    const token = newUploadToken();
    const now = deps.clock.now();
    const row = await deps.db
      .insertInto('verifications')
      .values({
        id: verificationId,
        tenant_id: auth.tenantId,
        mode: auth.mode,
        upload_token_hash: sha256Hex(token),
        user_ref: input.userRef ?? null,
        submitted_full_name: input.submittedFullName ?? null,
        country: input.country ?? null,
        document_type: input.documentType ?? null,
        active_liveness: input.activeLiveness,
        status: null,
        verdict: null,
        created_at: now,
        slots_expire_at: sql`${now} + make_interval(secs => ${LIMITS.uploadSlotSeconds})`,
        intent_expires_at: sql`${now} + make_interval(secs => ${LIMITS.intentSeconds})`,
      })
      .returning(sql<number>`floor(extract(epoch from slots_expire_at))::int`.as('expiresAt'))
      .executeTakeFirstOrThrow();

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
