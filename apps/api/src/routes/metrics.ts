import type Router from '@koa/router';
import type { AppDeps } from '../app-deps.js';
import { requireAdminToken } from '../auth/admin-token.js';
import { route } from '../http/route.js';

/**
 * GET /metrics: Prometheus text, behind the admin token (a scraper sends it as a bearer token).
 * Without ADMIN_TOKEN there is no route; `METRICS_PORT` serves the same text on a port of its own
 * for networks where the operator prefers that (service.ts).
 */
export function registerMetrics(router: Router, deps: AppDeps): void {
  if (!deps.config.adminToken) return;
  route(router, 'GET /metrics', requireAdminToken(deps.config.adminToken), async (ctx) => {
    ctx.set('Content-Type', deps.metrics.contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await deps.metrics.text();
  });
}
