import type { Middleware } from 'koa';
import { ApiError } from '../http/api-error.js';
import { safeEqual } from '../util/ids.js';
import { bearerToken } from './api-key-format.js';

/** Operator API guard: bearer ADMIN_TOKEN, compared in constant time; unset disables the API. */
export function requireAdminToken(adminToken: string | undefined): Middleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('Authorization') || undefined);
    if (!adminToken || !token || !safeEqual(token, adminToken)) {
      throw new ApiError('invalid_admin_token', 'Operator API token is missing or wrong');
    }
    await next();
  };
}
