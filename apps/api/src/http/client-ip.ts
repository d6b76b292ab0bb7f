import type { Context } from 'koa';

/**
 * The client address: the edge proxy's connecting-client header when CLIENT_IP_HEADER is set
 * (first value if it is a list), else the socket address.
 */
export function clientIp(ctx: Context, header: string | undefined): string {
  if (header) {
    const raw = ctx.get(header);
    const first = raw.split(',')[0]?.trim();
    if (first) return first.slice(0, 64);
  }
  return ctx.req.socket.remoteAddress ?? 'unknown';
}
