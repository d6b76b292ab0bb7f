import type Router from '@koa/router';
import type { Middleware } from 'koa';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** `'POST /v1/verify/init'`: the method and the path pattern, written once. */
export type RouteSpec = `${Method} /${string}`;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/**
 * Registers a route: its pattern names it in the request log, and every JSON object it answers
 * carries the request's `requestId` (the interface: "every response, success or error"; errors
 * get theirs from the error path). Bodies sent as bytes (documents, assets) are left as they are.
 */
export function route(router: Router, spec: RouteSpec, ...middleware: Middleware[]): void {
  const space = spec.indexOf(' ');
  const method = spec.slice(0, space).toLowerCase() as Lowercase<Method>;
  const path = spec.slice(space + 1);
  const named: Middleware = async (ctx, next) => {
    ctx.state.routeName = spec;
    await next();
    if (isPlainObject(ctx.body) && !('requestId' in ctx.body)) ctx.body = { ...ctx.body, requestId: ctx.state.requestId };
  };
  router[method](path, named, ...middleware);
}

/** A response type as a handler writes it: `route` adds the `requestId`. */
export type ResponseBody<T> = T extends unknown ? Omit<T, 'requestId'> : never;
