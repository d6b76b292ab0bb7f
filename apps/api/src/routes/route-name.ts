import type { Middleware } from 'koa';

/** Names the route for the request log (the pattern, never a raw path with ids). */
export const routeName =
  (name: string): Middleware =>
  async (ctx, next) => {
    ctx.state.routeName = name;
    await next();
  };
