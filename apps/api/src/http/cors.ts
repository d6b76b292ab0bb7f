import cors from '@koa/cors';
import { LIMITS } from '@service/contract';
import type { Middleware } from 'koa';

/**
 * Cross-origin browser use is open by default (the allowed-origins list narrows it per key, as a
 * 403, not through CORS). Preflights are cached 10 minutes and answered before any rate limit.
 */
export function corsMiddleware(): Middleware {
  return cors({
    origin: (ctx) => ctx.get('Origin') || '*',
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Service-Upload-Token', 'X-Service-Capture-Source'],
    exposeHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: LIMITS.preflightMaxAgeSeconds,
    keepHeadersOnError: true,
  });
}
