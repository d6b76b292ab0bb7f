import type Router from '@koa/router';
import { routeName } from './route-name.js';

/** GET /health: no auth, no rate limit; says the process is up. */
export function registerHealth(router: Router): void {
  router.get('/health', routeName('GET /health'), (ctx) => {
    ctx.body = { status: 'ok', requestId: ctx.state.requestId };
  });
}
