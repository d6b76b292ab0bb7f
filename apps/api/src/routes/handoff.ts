import type Router from '@koa/router';
import {
  HANDOFF_PAGE_PATH,
  HANDOFF_SLOT_SECONDS,
  LIMITS,
  handoffClaimRequestSchema,
  handoffCreateRequestSchema,
  handoffSubmitRequestSchema,
  type HandoffCancelResponse,
  type HandoffClaimResponse,
  type HandoffCreateResponse,
  type HandoffState,
  type HandoffStatusResponse,
} from '@service/contract';
import type { Context } from 'koa';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { ipLimit } from '../auth/authenticate.js';
import { handoffPage, HANDOFF_PAGE_CSP } from '../handoff/handoff-page.js';
import { ApiError, invalidBody } from '../http/api-error.js';
import { readJsonObject } from '../http/read-body.js';
import { route, type ResponseBody } from '../http/route.js';
import { validateBody } from '../http/validate.js';
import { tenantKey } from '../rate-limit/rate-limiter.js';
import { newUploadToken, safeEqual, sha256Hex } from '../util/ids.js';
import { loadIntentWithToken } from '../verifications/intent.js';
import { uploadSlots } from './init.js';
import { acceptSubmit } from './submit.js';

/** 144 random bits, base64url (24 characters): the code in the phone's link. */
const newHandoffCode = () => randomBytes(18).toString('base64url');
/** 256 random bits: the phone's session, kept in its sessionStorage so a reload carries on. */
const newHandoffSession = () => `hs_${randomBytes(32).toString('base64url')}`;

const handoffExpired = () => new ApiError('handoff_expired', 'This link has expired, was cancelled or was already used');
const unixSeconds = (d: Date) => Math.floor(d.getTime() / 1000);

function uploadTokenOf(ctx: Context): string {
  const token = ctx.get('X-Service-Upload-Token');
  if (!token) throw invalidBody('missing_upload_token', 'X-Service-Upload-Token header is required');
  return token;
}

/**
 * Continue on a phone (decisions.md "Widget: continue on a phone"). The desktop asks for a link
 * with its upload token; the phone's Start claims it (one claimant: the claim moves the
 * verification's upload token to a fresh one only the phone holds) and submits with that token;
 * the desktop follows the state with the token it had. Every secret is stored hashed.
 */
export function registerHandoff(router: Router, deps: AppDeps): void {
  const now = () => deps.clock.now();

  route(router, 'POST /v1/verify/handoff', ipLimit(deps), async (ctx) => {
    const token = uploadTokenOf(ctx);
    const input = validateBody(handoffCreateRequestSchema, await readJsonObject(ctx));
    const { verification: v } = await loadIntentWithToken(deps, input.verificationId, token);
    if (v.status !== null) throw invalidBody('already_submitted', 'This verification was already submitted');
    const code = newHandoffCode();
    await deps.db.transaction().execute(async (trx) => {
      // One live link per verification: asking again revokes the one shown before.
      await trx
        .updateTable('handoff_codes')
        .set({ revoked_at: now() })
        .where('verification_id', '=', v.id)
        .where('revoked_at', 'is', null)
        .execute();
      await trx
        .insertInto('handoff_codes')
        .values({
          code_hash: sha256Hex(code),
          verification_id: v.id,
          desktop_token_hash: sha256Hex(token),
          options: JSON.stringify({ documentBack: input.documentBack, locale: input.locale ?? 'en' }),
          created_at: now(),
          expires_at: v.intent_expires_at,
        })
        .execute();
    });
    const body: ResponseBody<HandoffCreateResponse> = {
      handoffUrl: `${deps.config.publicBaseUrl}${HANDOFF_PAGE_PATH}${code}`,
      expiresAt: unixSeconds(v.intent_expires_at),
    };
    ctx.body = body;
  });

  route(router, 'POST /v1/verify/handoff/claim', ipLimit(deps), async (ctx) => {
    const input = validateBody(handoffClaimRequestSchema, await readJsonObject(ctx));
    const token = newUploadToken();
    const claim = await deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('handoff_codes as h')
        .innerJoin('verifications as v', 'v.id', 'h.verification_id')
        .select(['h.code_hash', 'h.session_hash', 'h.claimed_at', 'h.revoked_at', 'h.options'])
        .select(['v.id', 'v.tenant_id', 'v.status', 'v.active_liveness'])
        .select(sql<boolean>`${now()} > h.expires_at or ${now()} > v.intent_expires_at`.as('expired'))
        .where('h.code_hash', '=', sha256Hex(input.code))
        .forUpdate()
        .executeTakeFirst();
      if (!row || row.revoked_at || row.expired || row.status !== null) throw handoffExpired();
      let session = input.handoffSession;
      if (row.claimed_at) {
        // The claimant again (a reload on that phone) carries on; anyone else is refused.
        if (!session || !row.session_hash || !safeEqual(sha256Hex(session), row.session_hash)) {
          throw new ApiError('handoff_in_use', 'This link is already in use on another device');
        }
      } else {
        session = newHandoffSession();
        await trx
          .updateTable('handoff_codes')
          .set({ claimed_at: now(), session_hash: sha256Hex(session) })
          .where('code_hash', '=', row.code_hash)
          .execute();
      }
      // The phone's own token: the desktop's stops uploading. Its slots are renewed as init's are.
      const updated = await trx
        .updateTable('verifications')
        .set({
          upload_token_hash: sha256Hex(token),
          slots_expire_at: sql<Date>`least(${now()} + make_interval(secs => ${HANDOFF_SLOT_SECONDS}), intent_expires_at)`,
        })
        .where('id', '=', row.id)
        .returning(sql<number>`floor(extract(epoch from slots_expire_at))::int`.as('expiresAt'))
        .executeTakeFirstOrThrow();
      return { row, session, expiresAt: updated.expiresAt };
    });
    const { row, session, expiresAt } = claim;
    const body: ResponseBody<HandoffClaimResponse> = {
      verificationId: row.id,
      ...uploadSlots(deps, row.tenant_id, row.id, token, row.active_liveness),
      expiresAt,
      options: { documentBack: row.options.documentBack, activeLiveness: row.active_liveness, locale: row.options.locale },
      handoffSession: session,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  /** The desktop's latest link, found by the upload token that asked for it. */
  const desktopHandoff = async (ctx: Context) => {
    const hash = sha256Hex(uploadTokenOf(ctx));
    const row = await deps.db
      .selectFrom('handoff_codes as h')
      .innerJoin('verifications as v', 'v.id', 'h.verification_id')
      .select(['h.verification_id', 'h.claimed_at', 'h.revoked_at', 'v.status'])
      .select(sql<boolean>`${now()} > h.expires_at or ${now()} > v.intent_expires_at`.as('expired'))
      .where('h.desktop_token_hash', '=', hash)
      .orderBy('h.created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) throw invalidBody('invalid_upload_token', 'No handoff link was made with this upload token');
    return row;
  };

  route(router, 'GET /v1/verify/handoff/status', ipLimit(deps), async (ctx) => {
    const row = await desktopHandoff(ctx);
    const state: HandoffState =
      row.status !== null ? 'submitted' : row.revoked_at || row.expired ? 'expired' : row.claimed_at ? 'in_progress' : 'waiting';
    const body: ResponseBody<HandoffStatusResponse> = {
      state,
      verificationId: row.verification_id,
      ...(row.status !== null ? { status: row.status } : {}),
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  route(router, 'POST /v1/verify/handoff/cancel', ipLimit(deps), async (ctx) => {
    const row = await desktopHandoff(ctx);
    await deps.db.transaction().execute(async (trx) => {
      const revoked = await trx
        .updateTable('handoff_codes')
        .set({ revoked_at: now() })
        .where('verification_id', '=', row.verification_id)
        .where('revoked_at', 'is', null)
        .returning('claimed_at')
        .execute();
      // A phone that had claimed the link loses its token too: nothing more is sent from it.
      if (revoked.some((r) => r.claimed_at)) {
        await trx
          .updateTable('verifications')
          .set({ upload_token_hash: sha256Hex(newUploadToken()) })
          .where('id', '=', row.verification_id)
          .where('status', 'is', null)
          .execute();
      }
    });
    const body: ResponseBody<HandoffCancelResponse> = { state: 'expired', verificationId: row.verification_id };
    ctx.body = body;
  });

  route(router, 'POST /v1/verify/handoff/submit', ipLimit(deps), async (ctx) => {
    const token = uploadTokenOf(ctx);
    const input = validateBody(handoffSubmitRequestSchema, await readJsonObject(ctx));
    const { verification: v } = await loadIntentWithToken(deps, input.verificationId, token);
    // Only a phone's claim gives a token this route takes (the desktop has its API key).
    const claimed = await deps.db
      .selectFrom('handoff_codes')
      .select('code_hash')
      .where('verification_id', '=', v.id)
      .where('claimed_at', 'is not', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!claimed) throw invalidBody('invalid_upload_token', 'This upload token was not issued to a phone by a handoff claim');
    const tenant = await deps.db.selectFrom('tenants').select('credits').where('id', '=', v.tenant_id).executeTakeFirstOrThrow();
    if (tenant.credits <= 0) throw new ApiError('insufficient_credits', 'The account has no credits left');
    await deps.limiter.enforce(tenantKey('submit', v.tenant_id), LIMITS.perTenantPerMinute.submit);
    ctx.status = 202;
    ctx.body = await acceptSubmit(deps, { tenantId: v.tenant_id, mode: v.mode }, input);
  });

  // The phone's page: the same for every code (the widget reads the code from the address), so
  // opening it (a link previewer does) claims nothing and reveals nothing.
  route(router, 'GET /continue/:code', async (ctx) => {
    ctx.set('Content-Security-Policy', HANDOFF_PAGE_CSP);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = handoffPage();
  });
}
