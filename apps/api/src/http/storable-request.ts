import { isStorableText, STORABLE_TEXT_MESSAGE } from '@service/contract';
import type { Middleware } from 'koa';
import { ApiError } from './api-error.js';

/**
 * Ids in paths and values in query strings reach SQL like body fields do: text PostgreSQL cannot
 * store (NUL, lone surrogates, bytes that are not UTF-8) is 400 `invalid_body` before any route.
 */
export function refuseUnstorablePathAndQuery(): Middleware {
  return async (ctx, next) => {
    let path: string;
    let query: string[];
    try {
      path = decodeURIComponent(ctx.path);
      query = [...new URLSearchParams(ctx.querystring).entries()].flat();
    } catch {
      throw new ApiError('invalid_body', 'Malformed request path', { fieldErrors: { _path: ['must be valid percent-encoded UTF-8'] } });
    }
    if (!isStorableText(path))
      throw new ApiError('invalid_body', 'Malformed request path', { fieldErrors: { _path: [STORABLE_TEXT_MESSAGE] } });
    if (!query.every(isStorableText)) {
      throw new ApiError('invalid_body', 'Malformed query string', { fieldErrors: { _query: [STORABLE_TEXT_MESSAGE] } });
    }
    await next();
  };
}
