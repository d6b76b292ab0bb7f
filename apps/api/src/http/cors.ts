import cors from '@koa/cors';
import { LIMITS } from '@service/contract';
import type { Middleware } from 'koa';

/**
 * Cross-origin browser use of the public API is open by default (the allowed-origins list narrows it per key, as a
 * 403, not through CORS). Preflights are cached 10 minutes and answered before any rate limit.
 */
export function corsMiddleware(): Middleware {
  const open = cors({
    origin: (ctx) => ctx.get('Origin') || '*',
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Service-Upload-Token', 'X-Service-Capture-Source'],
    exposeHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: LIMITS.preflightMaxAgeSeconds,
    keepHeadersOnError: true,
  });
  // The operator API is for servers and the CLI, never a browser page on another origin.
  return (ctx, next) => (ctx.path.startsWith('/admin/') ? next() : open(ctx, next));
}
