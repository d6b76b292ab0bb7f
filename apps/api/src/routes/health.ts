import type Router from '@koa/router';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { backendUnavailable, sendError } from '../http/request-context.js';
import { route } from '../http/route.js';

/** A readiness check answers within this; a hung dependency counts as failed. */
const CHECK_TIMEOUT_MS = 2_000;

async function check(probe: () => Promise<boolean>): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    const ok = await Promise.race([probe().catch(() => false), timeout]);
    return ok ? 'ok' : 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /health is liveness: 200 while the process serves, whatever its dependencies do (an
 * orchestrator restarts a process that fails it). GET /health/ready is readiness: the database,
 * the queue and the blob store answer (a load balancer sends traffic only then). No auth, no rate
 * limit: neither touches the rate-limit table.
 */
export function registerHealth(router: Router, deps: AppDeps): void {
  route(router, 'GET /health', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  route(router, 'GET /health/ready', async (ctx) => {
    const [database, queue, blobStore] = await Promise.all([
      check(async () => {
        await sql`select 1`.execute(deps.db);
        return true;
      }),
      check(() => deps.queue.ready()),
      check(() => deps.blobs.ready()),
    ]);
    const checks = { database, queue, blobStore };
    if (Object.values(checks).every((c) => c === 'ok')) {
      ctx.body = { status: 'ready', checks };
      return;
    }
    const failed = Object.entries(checks).filter(([, c]) => c !== 'ok');
    sendError(ctx, backendUnavailable(`Not ready: ${failed.map(([name]) => name).join(', ')} not answering`));
    ctx.body = { ...(ctx.body as object), checks };
  });
}
