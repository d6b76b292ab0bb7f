import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps } from './app-deps.js';
import { corsMiddleware } from './http/cors.js';
import { requestContext } from './http/request-context.js';
import { registerAdmin } from './routes/admin/admin-routes.js';
import { registerChallenge } from './routes/challenge.js';
import { registerHealth } from './routes/health.js';
import { registerInit } from './routes/init.js';
import { registerResult } from './routes/result.js';
import { registerSubmit } from './routes/submit.js';
import { registerUpload } from './routes/upload.js';
import { registerWidgetBundle } from './routes/widget-bundle.js';

/** The HTTP surface: every route of the interface and the operator API. */
export function createApp(deps: AppDeps, extraRoutes: ((router: Router) => void)[] = []): Koa {
  const app = new Koa({ proxy: false });
  const router = new Router();
  registerHealth(router);
  registerInit(router, deps);
  registerUpload(router, deps);
  registerChallenge(router, deps);
  registerSubmit(router, deps);
  registerResult(router, deps);
  registerAdmin(router, deps);
  registerWidgetBundle(router, deps.logger);
  for (const add of extraRoutes) add(router);

  app.use(requestContext(deps.logger));
  app.use(corsMiddleware());
  app.use(router.routes());
  // No allowedMethods(): an unknown method on a known path is simply "not found" (404 not_found).
  return app;
}
