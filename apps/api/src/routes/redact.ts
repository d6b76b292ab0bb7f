import type Router from '@koa/router';
import type { AppDeps } from '../app-deps.js';
import { requireApiKey } from '../auth/authenticate.js';
import { verificationNotFound } from '../http/api-error.js';
import { route } from '../http/route.js';
import { redactVerification } from '../verifications/erasure.js';
import { ownVerification } from '../verifications/own-verification.js';

/**
 * POST /v1/verify/:id/redact, secret keys only (counted with the result reads): the verification's
 * images and personal data erased at once; idempotent. Another tenant's or mode's: 404.
 */
export function registerRedact(router: Router, deps: AppDeps): void {
  route(router, 'POST /v1/verify/:id/redact', requireApiKey(deps, { tenantLimit: 'result', secretOnly: true }), async (ctx) => {
    const auth = ctx.state.auth!;
    const { id } = ctx.params as { id: string };
    const v = await ownVerification(deps.db, auth, id).select(['id', 'tenant_id']).executeTakeFirst();
    if (!v) throw verificationNotFound();
    const redactedAt = await redactVerification(deps, v);
    ctx.status = 200;
    ctx.body = { verificationId: v.id, redactedAt: redactedAt.toISOString() };
  });
}
