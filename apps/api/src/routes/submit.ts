import type Router from '@koa/router';
import {
  CAPTURE_ROLE_INFO,
  LIMITS,
  LIVENESS_ANCHOR_ROLE,
  slotKey,
  stepFrameRoles,
  submitRequestSchema,
  type CaptureRole,
  type SubmitRequest,
  type SubmitResponse,
} from '@service/contract';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { requireApiKey, type AuthContext } from '../auth/authenticate.js';
import { ApiError, invalidBody, verificationNotFound } from '../http/api-error.js';
import { readJsonObject } from '../http/read-body.js';
import { validateBody } from '../http/validate.js';
import { QUEUES } from '../queue/job-queue.js';
import { ownVerification } from '../verifications/own-verification.js';
import { route, type ResponseBody } from '../http/route.js';

/** The order submit checks the captures in (the interface's table order). */
const SUBMIT_ORDER: readonly CaptureRole[] = ['docFront', 'selfie', 'docBack'];

const LIVENESS_ROLES = [LIVENESS_ANCHOR_ROLE, ...Array.from({ length: LIMITS.livenessSteps }, (_, i) => stepFrameRoles(i + 1)).flat()];

/**
 * POST /v1/verify/submit. One transaction locks the verification, checks keys and uploads, takes
 * the credit (live, first submit only) and enqueues the job: all or nothing, so an accepted
 * submit survives a crash and a repeat never charges or processes twice.
 */
export function registerSubmit(router: Router, deps: AppDeps): void {
  route(router, 'POST /v1/verify/submit', requireApiKey(deps, { tenantLimit: 'submit' }), async (ctx) => {
    const input = validateBody(submitRequestSchema, await readJsonObject(ctx));
    ctx.status = 202;
    ctx.body = await acceptSubmit(deps, ctx.state.auth!, input);
  });
}

/**
 * Submit's work, for the API-key route and the phone's (`POST /v1/verify/handoff/submit`), on a
 * verification of this tenant and mode.
 */
export async function acceptSubmit(
  deps: AppDeps,
  auth: Pick<AuthContext, 'tenantId' | 'mode'>,
  input: SubmitRequest,
): Promise<ResponseBody<SubmitResponse>> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const v = await ownVerification(trx, auth, input.verificationId)
      .selectAll()
      .select(sql<boolean>`${deps.clock.now()} > intent_expires_at`.as('intent_expired'))
      .forUpdate()
      .executeTakeFirst();
    if (!v) throw verificationNotFound();
    // Idempotent: a repeat reports the record as it stands.
    if (v.status !== null) return { status: v.status, verdict: v.verdict, fresh: false };
    if (v.intent_expired) throw verificationNotFound();

    // docBack is optional: checked only when the client sends its key. Keys first, then uploads.
    const sent = SUBMIT_ORDER.filter((role) => input.keys[role] !== undefined);
    const expected = (role: CaptureRole) => slotKey(v.tenant_id, v.id, CAPTURE_ROLE_INFO[role].slot);
    for (const role of sent) {
      if (input.keys[role] !== expected(role)) {
        throw invalidBody(CAPTURE_ROLE_INFO[role].keyMismatch, `keys.${role} differs from the key init issued`);
      }
    }
    const uploaded = new Set(
      (await trx.selectFrom('verification_uploads').select('role').where('verification_id', '=', v.id).execute()).map((r) => r.role),
    );
    for (const role of sent) {
      const stored = uploaded.has(CAPTURE_ROLE_INFO[role].slot) && (await deps.blobs.exists(expected(role)));
      if (!stored) throw invalidBody(CAPTURE_ROLE_INFO[role].notUploaded, `No image was uploaded to the ${role} slot`);
    }
    if (v.active_liveness && !LIVENESS_ROLES.every((r) => uploaded.has(r))) {
      throw invalidBody('liveness_incomplete', 'The liveness anchor and every challenge frame must be uploaded before submit');
    }

    let charged = false;
    if (v.mode === 'live') {
      const debit = await trx
        .updateTable('tenants')
        .set((eb) => ({ credits: eb('credits', '-', 1) }))
        .where('id', '=', v.tenant_id)
        .where('credits', '>', 0)
        .executeTakeFirst();
      if (Number(debit.numUpdatedRows) !== 1) throw new ApiError('insufficient_credits', 'The account has no credits left');
      charged = true;
    }
    await trx
      .updateTable('verifications')
      .set({ status: 'queued', submitted_at: deps.clock.now(), with_doc_back: input.keys.docBack !== undefined, charged })
      .where('id', '=', v.id)
      .execute();
    await deps.queue.sendInTransaction(trx, QUEUES.verification, { verificationId: v.id }, { singletonKey: v.id });
    return { status: 'queued' as const, verdict: null, fresh: true };
  });
  if (result.fresh) deps.queue.notify(QUEUES.verification);

  return {
    verificationId: input.verificationId,
    status: result.status,
    ...(result.status === 'completed' ? { verdict: result.verdict } : {}),
  };
}
