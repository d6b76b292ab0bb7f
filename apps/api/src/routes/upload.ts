import type Router from '@koa/router';
import { CAPTURE_SOURCES, LIMITS, parseRole, slotKey, type CaptureSource } from '@service/contract';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { ipLimit } from '../auth/authenticate.js';
import { invalidBody } from '../http/api-error.js';
import { readJpegBody } from '../http/read-body.js';
import { loadIntentWithToken } from '../verifications/intent.js';
import { routeName } from './route-name.js';

/**
 * PUT /v1/verify/upload/:verificationId/:role, authenticated by the upload token only (a bearer
 * key has no effect here). Checks run cheapest first; the body is read last, streamed and capped.
 */
export function registerUpload(router: Router, deps: AppDeps): void {
  router.put('/v1/verify/upload/:verificationId/:role', routeName('PUT /v1/verify/upload/:verificationId/:role'), ipLimit(deps), async (ctx) => {
    const { verificationId, role: roleSegment } = ctx.params as { verificationId: string; role: string };
    const token = ctx.get('X-Service-Upload-Token');
    if (!token) throw invalidBody('missing_upload_token', 'X-Service-Upload-Token header is required');
    const role = parseRole(roleSegment);
    if (!role) throw invalidBody('invalid_role', 'Unrecognised upload role');

    const { verification: v, slotsExpired } = await loadIntentWithToken(deps, verificationId, token);
    if (v.status !== null) throw invalidBody('already_submitted', 'This verification was already submitted');
    if (slotsExpired) throw invalidBody('upload_slot_expired', 'Upload slots expired 15 minutes after init');

    const biometric = role.kind !== 'document' || role.role === 'selfie';
    if (role.kind !== 'document' && !v.active_liveness) {
      throw invalidBody('no_active_challenge', 'This verification did not opt into active liveness');
    }
    if (role.kind === 'frame' && role.step > v.liveness_steps_issued) {
      throw invalidBody('key_mismatch', 'No beacon was issued for this challenge step yet');
    }

    const sourceHeader = ctx.get('X-Service-Capture-Source').toLowerCase();
    const source = (CAPTURE_SOURCES as readonly string[]).includes(sourceHeader) ? (sourceHeader as CaptureSource) : null;
    if (source === 'upload' && biometric) {
      throw invalidBody('upload_source_forbidden_for_biometric', 'Selfies and liveness frames must come from the camera');
    }

    if (role.kind === 'frame') {
      const beacon = await deps.db
        .selectFrom('liveness_steps')
        .select(sql<boolean>`${deps.clock.now()} > expires_at`.as('expired'))
        .where('verification_id', '=', v.id)
        .where('step', '=', role.step)
        .executeTakeFirst();
      if (!beacon) throw invalidBody('key_mismatch', 'No beacon was issued for this challenge step yet');
      if (beacon.expired) throw invalidBody('challenge_expired', 'The beacon of this step expired; ask for the next beacon again');
    }

    const bytes = await readJpegBody(ctx, LIMITS.imageMinBytes, LIMITS.imageMaxBytes);
    const key = slotKey(v.tenant_id, v.id, role.role);

    // The share lock orders this upload against a concurrent submit (which locks for update):
    // nothing is written into a verification once it is submitted.
    await deps.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('verifications').select('status').where('id', '=', v.id).forShare().executeTakeFirstOrThrow();
      if (current.status !== null) throw invalidBody('already_submitted', 'This verification was already submitted');
      await deps.blobs.put(key, bytes);
      await trx
        .insertInto('verification_uploads')
        .values({ verification_id: v.id, role: role.role, bytes: bytes.length, capture_source: source, uploaded_at: deps.clock.now() })
        .onConflict((oc) =>
          oc.columns(['verification_id', 'role']).doUpdateSet({
            bytes: bytes.length,
            capture_source: source,
            uploaded_at: deps.clock.now(),
          }),
        )
        .execute();
    });

    ctx.status = 200;
    ctx.body = { ok: true, key, requestId: ctx.state.requestId };
  });
}
