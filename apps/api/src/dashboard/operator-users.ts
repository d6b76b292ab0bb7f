import type Router from '@koa/router';
import { createUserRequestSchema } from '@service/contract';
import type { AppDeps } from '../app-deps.js';
import { requireAdminToken } from '../auth/admin-token.js';
import { readJsonObject } from '../http/read-body.js';
import { validateBody } from '../http/validate.js';
import { route } from '../http/route.js';
import { createUser } from './users.js';

/** Operator API: POST /admin/v1/tenants/:tenantId/users {email, role, password?} -> 201 {userId, email, role, inviteUrl}. */
export function registerOperatorUsers(router: Router, deps: AppDeps): void {
  route(router, 'POST /admin/v1/tenants/:tenantId/users', requireAdminToken(deps.config.adminToken), async (ctx) => {
    const input = validateBody(createUserRequestSchema, await readJsonObject(ctx));
    ctx.status = 201;
    ctx.body = { ...(await createUser(deps, ctx.params.tenantId!, input)) };
  });
}
