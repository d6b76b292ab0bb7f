import type { Middleware } from 'koa';

/** Every HTML answer may not be framed by another site, whatever CSP its route set. */
export const HTML_FRAME_ANCESTORS = "frame-ancestors 'none'";

/**
 * Headers every response carries (errors included): no MIME sniffing, no referrer leaking ids in
 * URLs; and a CSP with `frame-ancestors` on any HTML page that did not bring its own.
 */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    try {
      await next();
    } finally {
      if (/^text\/html\b/i.test(ctx.response.get('Content-Type'))) {
        const csp = ctx.response.get('Content-Security-Policy');
        if (!/frame-ancestors/i.test(csp))
          ctx.set('Content-Security-Policy', csp ? `${csp}; ${HTML_FRAME_ANCESTORS}` : HTML_FRAME_ANCESTORS);
      }
    }
  };
}
