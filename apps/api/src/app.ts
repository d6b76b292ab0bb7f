import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps } from './app-deps.js';
import { registerDashboardApi } from './dashboard/api-routes.js';
import { registerOperatorUsers } from './dashboard/operator-users.js';
import { registerDashboardApp } from './dashboard/static-app.js';
import { compression } from './http/compression.js';
import { corsMiddleware } from './http/cors.js';
import { requestContext } from './http/request-context.js';
import { securityHeaders } from './http/security-headers.js';
import { refuseUnstorablePathAndQuery } from './http/storable-request.js';
import { registerAdmin } from './routes/admin/admin-routes.js';
import { registerChallenge } from './routes/challenge.js';
import { registerHandoff } from './routes/handoff.js';
import { registerHealth } from './routes/health.js';
import { registerInit } from './routes/init.js';
import { registerOpenApi } from './routes/openapi.js';
import { registerMetrics } from './routes/metrics.js';
import { registerRedact } from './routes/redact.js';
import { registerResult } from './routes/result.js';
import { registerSubmit } from './routes/submit.js';
import { registerUpload } from './routes/upload.js';
import { registerWidgetBundle } from './routes/widget-bundle.js';

/** The HTTP surface: every route of the interface and the operator API. */
export function createApp(deps: AppDeps, extraRoutes: ((router: Router, deps: AppDeps) => void)[] = []): Koa {
  const app = new Koa({ proxy: false });
  const router = new Router();
  registerHealth(router, deps);
  registerInit(router, deps);
  registerUpload(router, deps);
  registerChallenge(router, deps);
  registerSubmit(router, deps);
  registerHandoff(router, deps);
  registerResult(router, deps);
  registerRedact(router, deps);
  registerMetrics(router, deps);
  // The operator API exists only with a token (ADMIN_TOKEN, or the one a development start made).
  if (deps.config.adminToken) {
    registerAdmin(router, deps);
    registerOperatorUsers(router, deps);
  }
  registerWidgetBundle(router, deps.logger);
  registerDashboardApi(router, deps);
  registerDashboardApp(router, deps.logger);
  registerOpenApi(router);
  for (const add of extraRoutes) add(router, deps);

  app.use(securityHeaders());
  app.use(requestContext(deps.logger, deps.metrics));
  app.use(compression());
  app.use(corsMiddleware());
  app.use(refuseUnstorablePathAndQuery());
  app.use(router.routes());
  // Errors Koa itself catches (a response stream that fails) as JSON log lines, not console text.
  app.on('error', (err: Error & { code?: string }, ctx?: Koa.Context) =>
    deps.logger.warn({ requestId: ctx?.state.requestId, err: { message: err.message, code: err.code } }, 'response error'),
  );
  // No allowedMethods(): an unknown method on a known path is simply "not found" (404 not_found).
  return app;
}
