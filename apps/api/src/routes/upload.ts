import type Router from '@koa/router';
import { CAPTURE_SOURCES, LIMITS, parseRole, slotKey, slotOf, type CaptureSource, type ParsedRole } from '@service/contract';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { ipLimit } from '../auth/authenticate.js';
import { requireUploadToken } from '../auth/upload-token.js';
import { invalidBody } from '../http/api-error.js';
import { readJpegBody } from '../http/read-body.js';
import { route } from '../http/route.js';

declare module 'koa' {
  interface DefaultState {
    uploadRole?: ParsedRole;
  }
}

/**
 * PUT /v1/verify/upload/:verificationId/:role, authenticated by the upload token only (a bearer
 * key has no effect here). Checks run cheapest first; the body is read last, streamed and capped.
 */
export function registerUpload(router: Router, deps: AppDeps): void {
  route(
    router,
    'PUT /v1/verify/upload/:verificationId/:role',
    ipLimit(deps),
    requireUploadToken(deps, {
      checkPath: (ctx) => {
        const role = parseRole((ctx.params as { role: string }).role);
        if (!role) throw invalidBody('invalid_role', 'Unrecognised upload role');
        ctx.state.uploadRole = role;
      },
    }),
    async (ctx) => {
      const role = ctx.state.uploadRole!;
      const { verification: v, slotsExpired } = ctx.state.intent!;
      if (v.status !== null) throw invalidBody('already_submitted', 'This verification was already submitted');
      if (slotsExpired) throw invalidBody('upload_slot_expired', 'Upload slots expired 15 minutes after init');

      const biometric = role.kind !== 'document' || role.role === slotOf('selfie');
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
        await deps.blobs.put(key, bytes, trx);
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
      ctx.body = { ok: true, key };
    },
  );
}
