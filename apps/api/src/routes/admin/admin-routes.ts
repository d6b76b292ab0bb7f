import type Router from '@koa/router';
import {
  createKeyRequestSchema,
  createTenantRequestSchema,
  listTenantsQuerySchema,
  patchKeyRequestSchema,
  patchTenantRequestSchemaFor,
  requeueFailedRequestSchema,
  reviewRequestSchema,
  WEBHOOK_DELIVERY_STATUSES,
  type KeyView,
} from '@service/contract';
import type { AppDeps } from '../../app-deps.js';
import { prefixFor } from '../../auth/api-key-format.js';
import type { ApiKeyRow } from '../../db/types.js';
import { requireAdminToken } from '../../auth/admin-token.js';
import { ApiError, invalidBody } from '../../http/api-error.js';
import { readJsonObject } from '../../http/read-body.js';
import { validateBody } from '../../http/validate.js';
import { listTenants } from '../../tenants/list-tenants.js';
import { createTenant, issueKey, revokeKey, setKeyOrigins, setWebhook } from '../../tenants/tenants.js';
import { recordReview } from '../../verifications/review.js';
import { listDeliveries, requeueDelivery, requeueFailedSince } from '../../webhooks/delivery-admin.js';
import { sendTestEvent } from '../../webhooks/test-event.js';
import { route } from '../../http/route.js';

const notFound = (what: string) => new ApiError('not_found', `${what} not found`);

async function tenantView(deps: AppDeps, tenantId: string) {
  const t = await deps.db
    .selectFrom('tenants')
    .select(['id', 'name', 'credits', 'webhook_url'])
    .where('id', '=', tenantId)
    .executeTakeFirst();
  if (!t) throw notFound('Tenant');
  return { tenantId: t.id, name: t.name, credits: t.credits, webhook: t.webhook_url ? { url: t.webhook_url } : null };
}

function keyView(k: ApiKeyRow): KeyView {
  return {
    keyId: k.id,
    tenantId: k.tenant_id,
    family: k.family,
    mode: k.mode,
    prefix: prefixFor(k.family, k.mode),
    lastFour: k.last_four,
    allowedOrigins: k.allowed_origins,
    revoked: k.revoked_at !== null,
  };
}

/** The operator API of decisions.md, behind ADMIN_TOKEN. Secrets are never returned. */
export function registerAdmin(router: Router, deps: AppDeps): void {
  const admin = requireAdminToken(deps.config.adminToken);
  // http:// webhooks to loopback only where private networks are allowed (development).
  const patchTenantRequestSchema = patchTenantRequestSchemaFor({ allowLoopbackHttp: deps.config.webhookAllowPrivateNetworks });

  route(router, 'POST /admin/v1/tenants', admin, async (ctx) => {
    const input = validateBody(createTenantRequestSchema, await readJsonObject(ctx));
    ctx.status = 201;
    ctx.body = { ...(await createTenant(deps.db, input.name, input.credits)) };
  });

  route(router, 'GET /admin/v1/tenants', admin, async (ctx) => {
    const page = validateBody(listTenantsQuerySchema, { limit: ctx.query.limit, cursor: ctx.query.cursor });
    const result = await listTenants(deps.db, page);
    if (!result) throw new ApiError('invalid_body', 'Request body failed validation', { fieldErrors: { cursor: ['unknown cursor'] } });
    ctx.body = { ...result };
  });

  route(router, 'GET /admin/v1/tenants/:tenantId', admin, async (ctx) => {
    ctx.body = { ...(await tenantView(deps, ctx.params.tenantId!)) };
  });

  route(router, 'PATCH /admin/v1/tenants/:tenantId', admin, async (ctx) => {
    const tenantId = ctx.params.tenantId!;
    const input = validateBody(patchTenantRequestSchema, await readJsonObject(ctx));
    await tenantView(deps, tenantId);
    // Webhook first: an invalid one (no secret yet) throws before any change is made.
    if (input.webhook !== undefined) await setWebhook(deps.db, tenantId, input.webhook);
    if (input.credits !== undefined)
      await deps.db.updateTable('tenants').set({ credits: input.credits }).where('id', '=', tenantId).execute();
    ctx.body = { ...(await tenantView(deps, tenantId)) };
  });

  route(router, 'GET /admin/v1/tenants/:tenantId/keys', admin, async (ctx) => {
    await tenantView(deps, ctx.params.tenantId!);
    const keys = await deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('tenant_id', '=', ctx.params.tenantId!)
      .orderBy('created_at')
      .execute();
    ctx.body = { keys: keys.map(keyView) };
  });

  route(router, 'POST /admin/v1/tenants/:tenantId/keys', admin, async (ctx) => {
    const tenantId = ctx.params.tenantId!;
    const input = validateBody(createKeyRequestSchema, await readJsonObject(ctx));
    await tenantView(deps, tenantId);
    ctx.status = 201;
    ctx.body = { ...(await issueKey(deps.db, tenantId, input.family, input.mode, input.allowedOrigins)) };
  });

  route(router, 'PATCH /admin/v1/keys/:keyId', admin, async (ctx) => {
    const input = validateBody(patchKeyRequestSchema, await readJsonObject(ctx));
    const k = await setKeyOrigins(deps.db, ctx.params.keyId!, input.allowedOrigins);
    if (!k) throw notFound('Key');
    ctx.body = { ...keyView(k) };
  });

  route(router, 'POST /admin/v1/keys/:keyId/revoke', admin, async (ctx) => {
    const k = await revokeKey(deps.db, deps.clock.now(), ctx.params.keyId!);
    if (!k) throw notFound('Key');
    ctx.body = { ...keyView(k) };
  });

  route(router, 'POST /admin/v1/blob-keys/rewrap', admin, async (ctx) => {
    ctx.body = { currentKeyId: deps.dataKeys.masterId, ...(await deps.dataKeys.rewrap()) };
  });

  route(router, 'POST /admin/v1/verifications/:verificationId/review', admin, async (ctx) => {
    const input = validateBody(reviewRequestSchema, await readJsonObject(ctx));
    const record = await recordReview(deps, ctx.params.verificationId!, input.verdict, input.note ?? null);
    ctx.body = { ...record };
  });

  route(router, 'POST /admin/v1/tenants/:tenantId/webhook/test', admin, async (ctx) => {
    const tenantId = ctx.params.tenantId!;
    await tenantView(deps, tenantId); // 404 for an unknown tenant
    const result = await sendTestEvent(deps, tenantId);
    if (!result) throw new ApiError('not_found', 'The tenant has no webhook configured');
    ctx.body = { ...result };
  });

  route(router, 'GET /admin/v1/tenants/:tenantId/webhook-deliveries', admin, async (ctx) => {
    await tenantView(deps, ctx.params.tenantId!);
    const status = typeof ctx.query.status === 'string' ? ctx.query.status : undefined;
    if (status && !(WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(status))
      throw invalidBody('invalid_status', 'status must be pending, delivered or failed');
    const limit = Math.min(Math.max(Number(ctx.query.limit ?? 50) || 50, 1), 500);
    ctx.body = { deliveries: await listDeliveries(deps, ctx.params.tenantId!, { status, limit }) };
  });

  route(router, 'POST /admin/v1/webhook-deliveries/:deliveryId/requeue', admin, async (ctx) => {
    const delivery = await requeueDelivery(deps, ctx.params.deliveryId!);
    if (!delivery) throw notFound('Delivery');
    ctx.body = { ...delivery };
  });

  route(router, 'POST /admin/v1/tenants/:tenantId/webhook-deliveries/requeue', admin, async (ctx) => {
    await tenantView(deps, ctx.params.tenantId!);
    const input = validateBody(requeueFailedRequestSchema, await readJsonObject(ctx));
    const requeued = await requeueFailedSince(deps, ctx.params.tenantId!, new Date(input.since));
    ctx.body = { requeued };
  });
}
