import type Router from '@koa/router';
import {
  createKeyRequestSchema,
  createTenantRequestSchema,
  patchKeyRequestSchema,
  patchTenantRequestSchema,
  requeueFailedRequestSchema,
  reviewRequestSchema,
} from '@service/contract';
import type { AppDeps } from '../../app-deps.js';
import { requireAdminToken } from '../../auth/admin-token.js';
import { ApiError, invalidBody } from '../../http/api-error.js';
import { readJsonObject } from '../../http/read-body.js';
import { validateBody } from '../../http/validate.js';
import { createTenant, issueKey } from '../../tenants/tenants.js';
import { recordReview } from '../../verifications/review.js';
import { listDeliveries, requeueDelivery, requeueFailedSince } from '../../webhooks/delivery-admin.js';
import { routeName } from '../route-name.js';

const notFound = (what: string) => new ApiError('not_found', `${what} not found`);

async function tenantView(deps: AppDeps, tenantId: string) {
  const t = await deps.db.selectFrom('tenants').select(['id', 'name', 'credits', 'webhook_url']).where('id', '=', tenantId).executeTakeFirst();
  if (!t) throw notFound('Tenant');
  return { tenantId: t.id, name: t.name, credits: t.credits, webhook: t.webhook_url ? { url: t.webhook_url } : null };
}

function keyView(k: { id: string; tenant_id: string; family: string; mode: string; allowed_origins: string[]; revoked_at: Date | null }) {
  return { keyId: k.id, tenantId: k.tenant_id, family: k.family, mode: k.mode, allowedOrigins: k.allowed_origins, revoked: k.revoked_at !== null };
}

/** The operator API of decisions.md, behind ADMIN_TOKEN. Secrets are never returned. */
export function registerAdmin(router: Router, deps: AppDeps): void {
  const admin = requireAdminToken(deps.config.adminToken);
  const r = (name: string) => [routeName(name), admin] as const;

  router.post('/admin/v1/tenants', ...r('POST /admin/v1/tenants'), async (ctx) => {
    const input = validateBody(createTenantRequestSchema, await readJsonObject(ctx));
    ctx.status = 201;
    ctx.body = { ...(await createTenant(deps.db, input.name, input.credits)), requestId: ctx.state.requestId };
  });

  router.get('/admin/v1/tenants/:tenantId', ...r('GET /admin/v1/tenants/:tenantId'), async (ctx) => {
    ctx.body = { ...(await tenantView(deps, ctx.params.tenantId!)), requestId: ctx.state.requestId };
  });

  router.patch('/admin/v1/tenants/:tenantId', ...r('PATCH /admin/v1/tenants/:tenantId'), async (ctx) => {
    const tenantId = ctx.params.tenantId!;
    const input = validateBody(patchTenantRequestSchema, await readJsonObject(ctx));
    const current = await deps.db.selectFrom('tenants').select(['id', 'webhook_secret']).where('id', '=', tenantId).executeTakeFirst();
    if (!current) throw notFound('Tenant');
    const changes: { credits?: number; webhook_url?: string | null; webhook_secret?: string | null } = {};
    if (input.credits !== undefined) changes.credits = input.credits;
    if (input.webhook === null) {
      changes.webhook_url = null;
      changes.webhook_secret = null;
    } else if (input.webhook) {
      const secret = input.webhook.secret ? input.webhook.secret : current.webhook_secret;
      if (!secret) {
        throw new ApiError('invalid_body', 'A webhook secret is required the first time', {
          fieldErrors: { 'webhook.secret': ['required when no secret is set yet'] },
        });
      }
      changes.webhook_url = input.webhook.url;
      changes.webhook_secret = secret;
    }
    if (Object.keys(changes).length) await deps.db.updateTable('tenants').set(changes).where('id', '=', tenantId).execute();
    ctx.body = { ...(await tenantView(deps, tenantId)), requestId: ctx.state.requestId };
  });

  router.get('/admin/v1/tenants/:tenantId/keys', ...r('GET /admin/v1/tenants/:tenantId/keys'), async (ctx) => {
    await tenantView(deps, ctx.params.tenantId!);
    const keys = await deps.db.selectFrom('api_keys').selectAll().where('tenant_id', '=', ctx.params.tenantId!).orderBy('created_at').execute();
    ctx.body = { keys: keys.map(keyView), requestId: ctx.state.requestId };
  });

  router.post('/admin/v1/tenants/:tenantId/keys', ...r('POST /admin/v1/tenants/:tenantId/keys'), async (ctx) => {
    const tenantId = ctx.params.tenantId!;
    const input = validateBody(createKeyRequestSchema, await readJsonObject(ctx));
    await tenantView(deps, tenantId);
    ctx.status = 201;
    ctx.body = { ...(await issueKey(deps.db, tenantId, input.family, input.mode, input.allowedOrigins)), requestId: ctx.state.requestId };
  });

  router.patch('/admin/v1/keys/:keyId', ...r('PATCH /admin/v1/keys/:keyId'), async (ctx) => {
    const input = validateBody(patchKeyRequestSchema, await readJsonObject(ctx));
    const k = await deps.db
      .updateTable('api_keys')
      .set({ allowed_origins: JSON.stringify(input.allowedOrigins) })
      .where('id', '=', ctx.params.keyId!)
      .returningAll()
      .executeTakeFirst();
    if (!k) throw notFound('Key');
    ctx.body = { ...keyView(k), requestId: ctx.state.requestId };
  });

  router.post('/admin/v1/keys/:keyId/revoke', ...r('POST /admin/v1/keys/:keyId/revoke'), async (ctx) => {
    const k = await deps.db
      .updateTable('api_keys')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', deps.clock.now()) }))
      .where('id', '=', ctx.params.keyId!)
      .returningAll()
      .executeTakeFirst();
    if (!k) throw notFound('Key');
    ctx.body = { ...keyView(k), requestId: ctx.state.requestId };
  });

  router.post('/admin/v1/verifications/:verificationId/review', ...r('POST /admin/v1/verifications/:verificationId/review'), async (ctx) => {
    const input = validateBody(reviewRequestSchema, await readJsonObject(ctx));
    const record = await recordReview(deps, ctx.params.verificationId!, input.verdict, input.note ?? null);
    ctx.body = { ...record, requestId: ctx.state.requestId };
  });

  router.get('/admin/v1/tenants/:tenantId/webhook-deliveries', ...r('GET /admin/v1/tenants/:tenantId/webhook-deliveries'), async (ctx) => {
    await tenantView(deps, ctx.params.tenantId!);
    const status = typeof ctx.query.status === 'string' ? ctx.query.status : undefined;
    if (status && !['pending', 'delivered', 'failed'].includes(status)) throw invalidBody('invalid_status', 'status must be pending, delivered or failed');
    const limit = Math.min(Math.max(Number(ctx.query.limit ?? 50) || 50, 1), 500);
    ctx.body = { deliveries: await listDeliveries(deps, ctx.params.tenantId!, { status, limit }), requestId: ctx.state.requestId };
  });

  router.post('/admin/v1/webhook-deliveries/:deliveryId/requeue', ...r('POST /admin/v1/webhook-deliveries/:deliveryId/requeue'), async (ctx) => {
    const delivery = await requeueDelivery(deps, ctx.params.deliveryId!);
    if (!delivery) throw notFound('Delivery');
    ctx.body = { ...delivery, requestId: ctx.state.requestId };
  });

  router.post('/admin/v1/tenants/:tenantId/webhook-deliveries/requeue', ...r('POST /admin/v1/tenants/:tenantId/webhook-deliveries/requeue'), async (ctx) => {
    await tenantView(deps, ctx.params.tenantId!);
    const input = validateBody(requeueFailedRequestSchema, await readJsonObject(ctx));
    const requeued = await requeueFailedSince(deps, ctx.params.tenantId!, new Date(input.since));
    ctx.body = { requeued, requestId: ctx.state.requestId };
  });
}
