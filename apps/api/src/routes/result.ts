import type Router from '@koa/router';
import type { AppDeps } from '../app-deps.js';
import { requireApiKey } from '../auth/authenticate.js';
import { verificationNotFound } from '../http/api-error.js';
import { ownVerification } from '../verifications/own-verification.js';
import { toResultRecord } from '../verifications/result-record.js';
import { route } from '../http/route.js';

/** GET /v1/verify/:id, secret keys only. Other tenant's, other mode's, unknown or malformed: 404. */
export function registerResult(router: Router, deps: AppDeps): void {
  route(router, 'GET /v1/verify/:id', requireApiKey(deps, { tenantLimit: 'result', secretOnly: true }), async (ctx) => {
    const auth = ctx.state.auth!;
    const { id } = ctx.params as { id: string };
    const v = await ownVerification(deps.db, auth, id).selectAll().executeTakeFirst();
    if (!v) throw verificationNotFound();
    ctx.body = toResultRecord(v);
  });
}
