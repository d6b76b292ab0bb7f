import type Router from '@koa/router';
import {
  acceptInviteRequestSchema,
  createKeyRequestSchema,
  DASHBOARD_LIMITS,
  dashboardReviewRequestSchema,
  overviewQuerySchema,
  patchKeyRequestSchema,
  signInRequestSchema,
  verificationListQuerySchema,
  webhookConfigSchemaFor,
  type DashboardKey,
  type DashboardSession,
} from '@service/contract';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { prefixFor } from '../auth/api-key-format.js';
import type { ApiKeyRow } from '../db/types.js';
import { ApiError } from '../http/api-error.js';
import { readJsonObject } from '../http/read-body.js';
import { validateBody } from '../http/validate.js';
import { route } from '../http/route.js';
import { issueKey, keyDisplay, revokeKey, setKeyOrigins, setWebhook } from '../tenants/tenants.js';
import { recordReview } from '../verifications/review.js';
import { listDeliveries, requeueDelivery, requeueFailedSince } from '../webhooks/delivery-admin.js';
import { audit, listAudit } from './audit.js';
import { endSession, requireRole, requireSession, sameOriginOnly, sessionCookie, signIn, type DashboardUser } from './sessions.js';
import { overview } from './overview.js';
import { acceptInvite } from './users.js';
import { listVerifications, tenantVerification, verificationDetail, verificationImage } from './verifications.js';

export const DASHBOARD_API = '/dashboard/api';

const user = (ctx: Context): DashboardUser => ctx.state.dashboardUser!;
const keyNotFound = () => new ApiError('not_found', 'Key not found');

function keyView(k: ApiKeyRow): DashboardKey {
  return {
    keyId: k.id,
    family: k.family,
    mode: k.mode,
    prefix: prefixFor(k.family, k.mode),
    lastFour: k.last_four ?? '????',
    allowedOrigins: k.allowed_origins,
    createdAt: k.created_at.toISOString(),
    revokedAt: k.revoked_at ? k.revoked_at.toISOString() : null,
  };
}

function query<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  return validateBody(schema, ctx.query);
}

/**
 * The dashboard's JSON API (decisions.md "Dashboard"). Every route past sign-in needs a session,
 * every change its CSRF token, and every query is scoped to the session's tenant. Reviewers reach
 * verifications and the review queue only. Decisions, webhook settings, deliveries and keys go
 * through the same modules as the operator API.
 */
export function registerDashboardApi(router: Router, deps: AppDeps): void {
  const session = requireSession(deps);
  const admin = requireRole('admin');
  const noStore = async (ctx: Context, next: () => Promise<unknown>) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
  // The operator route's rules: https only (http:// to loopback where private networks are allowed).
  const webhookSettingsSchema = webhookConfigSchemaFor({ allowLoopbackHttp: deps.config.webhookAllowPrivateNetworks });

  const sessionView = (u: DashboardUser): DashboardSession => ({
    user: { userId: u.userId, email: u.email, role: u.role },
    tenant: { tenantId: u.tenantId, name: u.tenantName },
    csrfToken: u.csrfToken,
  });

  // ------------------------------------------------------------ session
  route(router, `POST ${DASHBOARD_API}/session`, noStore, sameOriginOnly(), async (ctx) => {
    const input = validateBody(signInRequestSchema, await readJsonObject(ctx));
    const { token, user: u } = await signIn(deps, input.email, input.password);
    await audit(deps, u, 'session.signed_in', null);
    ctx.set('Set-Cookie', sessionCookie(deps, ctx, token));
    ctx.status = 201;
    ctx.body = { ...sessionView(u) };
  });

  route(router, `GET ${DASHBOARD_API}/session`, noStore, session, (ctx) => {
    ctx.body = { ...sessionView(user(ctx)) };
  });

  route(router, `POST ${DASHBOARD_API}/session/sign-out`, noStore, session, async (ctx) => {
    await endSession(deps, user(ctx).tokenHash);
    await audit(deps, user(ctx), 'session.signed_out', null);
    ctx.set('Set-Cookie', sessionCookie(deps, ctx, '', true));
    ctx.body = { signedOut: true };
  });

  route(router, `POST ${DASHBOARD_API}/invites/accept`, noStore, sameOriginOnly(), async (ctx) => {
    const input = validateBody(acceptInviteRequestSchema, await readJsonObject(ctx));
    await acceptInvite(deps, input.token, input.password);
    ctx.body = { accepted: true };
  });

  // ------------------------------------------------------------ overview and verifications (both roles)
  route(router, `GET ${DASHBOARD_API}/overview`, noStore, session, async (ctx) => {
    const u = user(ctx);
    const q = query(ctx, overviewQuerySchema);
    ctx.body = { ...(await overview(deps, u.tenantId, q.mode, q.days, { deliveries: u.role === 'admin' })) };
  });

  route(router, `GET ${DASHBOARD_API}/verifications`, noStore, session, async (ctx) => {
    const q = query(ctx, verificationListQuerySchema);
    ctx.body = { ...(await listVerifications(deps, user(ctx).tenantId, q)) };
  });

  route(router, `GET ${DASHBOARD_API}/verifications/:id`, noStore, session, async (ctx) => {
    ctx.body = { ...(await verificationDetail(deps, user(ctx).tenantId, ctx.params.id!)) };
  });

  route(router, `GET ${DASHBOARD_API}/verifications/:id/images/:role`, noStore, session, async (ctx) => {
    const u = user(ctx);
    const bytes = await verificationImage(deps, u.tenantId, ctx.params.id!, ctx.params.role!);
    await audit(deps, u, 'verification.image_viewed', ctx.params.id!, { role: ctx.params.role! });
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', 'inline');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'image/jpeg';
    ctx.body = bytes;
  });

  route(router, `POST ${DASHBOARD_API}/verifications/:id/review`, noStore, session, async (ctx) => {
    const u = user(ctx);
    const input = validateBody(dashboardReviewRequestSchema, await readJsonObject(ctx));
    const v = await tenantVerification(deps, u.tenantId, ctx.params.id!);
    // The operator route's decision path: same checks, same `verification.reviewed` webhook.
    const record = await recordReview(deps, v.id, input.verdict, input.note ?? null);
    await audit(deps, u, 'verification.reviewed', v.id, { decision: input.verdict });
    ctx.body = { ...record };
  });

  // ------------------------------------------------------------ admin only
  route(router, `GET ${DASHBOARD_API}/tenant`, noStore, session, admin, async (ctx) => {
    const t = await deps.db
      .selectFrom('tenants')
      .select(['id', 'name', 'credits'])
      .where('id', '=', user(ctx).tenantId)
      .executeTakeFirstOrThrow();
    ctx.body = { tenantId: t.id, name: t.name, credits: t.credits };
  });

  route(router, `GET ${DASHBOARD_API}/webhook`, noStore, session, admin, async (ctx) => {
    const t = await deps.db
      .selectFrom('tenants')
      .select(['webhook_url', 'webhook_secret'])
      .where('id', '=', user(ctx).tenantId)
      .executeTakeFirstOrThrow();
    ctx.body = { url: t.webhook_url, secretSet: t.webhook_secret !== null };
  });

  route(router, `PUT ${DASHBOARD_API}/webhook`, noStore, session, admin, async (ctx) => {
    const u = user(ctx);
    const input = validateBody(webhookSettingsSchema, await readJsonObject(ctx));
    await setWebhook(deps.db, u.tenantId, input);
    await audit(deps, u, 'webhook.updated', null, { url: input.url, secretChanged: Boolean(input.secret) });
    ctx.body = { url: input.url, secretSet: true };
  });

  route(router, `GET ${DASHBOARD_API}/webhook/deliveries`, noStore, session, admin, async (ctx) => {
    const { status, limit } = query(
      ctx,
      z.object({
        status: z.enum(['pending', 'delivered', 'failed']).optional(),
        limit: z.coerce.number().int().min(1).max(DASHBOARD_LIMITS.pageSizeMax).optional().default(50),
      }),
    );
    ctx.body = { deliveries: await listDeliveries(deps, user(ctx).tenantId, { status, limit }) };
  });

  route(router, `POST ${DASHBOARD_API}/webhook/deliveries/:id/requeue`, noStore, session, admin, async (ctx) => {
    const u = user(ctx);
    const own = await deps.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('id', '=', ctx.params.id!)
      .where('tenant_id', '=', u.tenantId)
      .executeTakeFirst();
    if (!own) throw new ApiError('not_found', 'Delivery not found');
    const out = await requeueDelivery(deps, own.id);
    if (out?.requeued) await audit(deps, u, 'webhook.delivery_requeued', own.id);
    ctx.body = { ...out };
  });

  route(router, `POST ${DASHBOARD_API}/webhook/deliveries/requeue-failed`, noStore, session, admin, async (ctx) => {
    const u = user(ctx);
    const requeued = await requeueFailedSince(deps, u.tenantId, new Date(0));
    if (requeued) await audit(deps, u, 'webhook.deliveries_requeued', null, { count: requeued });
    ctx.body = { requeued };
  });

  route(router, `GET ${DASHBOARD_API}/keys`, noStore, session, admin, async (ctx) => {
    const keys = await deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('tenant_id', '=', user(ctx).tenantId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    ctx.body = { keys: keys.map(keyView) };
  });

  route(router, `POST ${DASHBOARD_API}/keys`, noStore, session, admin, async (ctx) => {
    const u = user(ctx);
    const input = validateBody(createKeyRequestSchema, await readJsonObject(ctx));
    const issued = await issueKey(deps.db, u.tenantId, input.family, input.mode, input.allowedOrigins);
    await audit(deps, u, 'key.created', issued.keyId, { family: issued.family, mode: issued.mode, ...keyDisplay(issued.key) });
    const row = await deps.db.selectFrom('api_keys').selectAll().where('id', '=', issued.keyId).executeTakeFirstOrThrow();
    ctx.status = 201;
    // The only time the key string is shown.
    ctx.body = { ...keyView(row), key: issued.key };
  });

  route(router, `POST ${DASHBOARD_API}/keys/:keyId/revoke`, noStore, session, admin, async (ctx) => {
    const u = user(ctx);
    const k = await revokeKey(deps.db, deps.clock.now(), ctx.params.keyId!, u.tenantId);
    if (!k) throw keyNotFound();
    await audit(deps, u, 'key.revoked', k.id);
    ctx.body = { ...keyView(k) };
  });

  route(router, `PATCH ${DASHBOARD_API}/keys/:keyId`, noStore, session, admin, async (ctx) => {
    const u = user(ctx);
    const input = validateBody(patchKeyRequestSchema, await readJsonObject(ctx));
    const k = await setKeyOrigins(deps.db, ctx.params.keyId!, input.allowedOrigins, u.tenantId);
    if (!k) throw keyNotFound();
    await audit(deps, u, 'key.origins_updated', k.id, { allowedOrigins: input.allowedOrigins });
    ctx.body = { ...keyView(k) };
  });

  route(router, `GET ${DASHBOARD_API}/audit`, noStore, session, admin, async (ctx) => {
    const q = query(
      ctx,
      z.object({
        cursor: z.coerce.number().int().positive().optional(),
        limit: z.coerce.number().int().min(1).max(DASHBOARD_LIMITS.pageSizeMax).optional().default(50),
      }),
    );
    ctx.body = { ...(await listAudit(deps, user(ctx).tenantId, q.limit, q.cursor)) };
  });
}
