import type { Context, Middleware } from 'koa';
import { newRequestId } from '../util/ids.js';
import { ApiError } from './api-error.js';
import { stopReading } from './read-body.js';
import type { Logger } from './logger.js';

declare module 'koa' {
  interface DefaultState {
    requestId: string;
    /** Matched route pattern, for logs (never the raw path with ids in it). */
    routeName?: string;
  }
}

/** Sends the interface's Error object; `X-Request-Id` and `requestId` always agree. */
export function sendError(ctx: Context, err: ApiError): void {
  ctx.status = err.status;
  ctx.body = {
    error: err.code,
    message: err.message,
    requestId: ctx.state.requestId,
    ...(err.detail ? { detail: err.detail } : {}),
  };
  if (err.code === 'rate_limited' && err.detail?.retry_after !== undefined) {
    ctx.set('Retry-After', String(err.detail.retry_after));
  }
}

/** Koa's own HTTP errors (e.g. a malformed URL) keep their meaning without leaking internals. */
function fromUnknown(err: unknown): ApiError | null {
  const status = (err as { status?: number; expose?: boolean }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return status === 404 ? new ApiError('not_found', 'Route not found') : new ApiError('invalid_body', 'Malformed request');
  }
  return null;
}

/** First middleware: request id, one log line per request, and every error mapped to the contract. */
export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = newRequestId();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        sendError(ctx, new ApiError('not_found', 'Route not found'));
      }
    } catch (err) {
      // Rejected before its body was read (bad token, expired slot, rate limit...): a large or
      // chunked body is not drained; the connection closes after the answer.
      const declared = Number(ctx.get('Content-Length') || 0);
      if (!ctx.req.complete && (declared > 64 * 1024 || ctx.get('Transfer-Encoding'))) stopReading(ctx);
      if (err instanceof ApiError) {
        sendError(ctx, err);
      } else {
        const mapped = fromUnknown(err);
        if (mapped) sendError(ctx, mapped);
        else {
          logger.error({ requestId, err: { message: (err as Error)?.message, stack: (err as Error)?.stack } }, 'unhandled error');
          sendError(ctx, new ApiError('internal_error', 'Internal server error'));
        }
      }
    } finally {
      const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          requestId,
          method: ctx.method,
          route: ctx.state.routeName ?? (ctx.status === 404 ? '(unmatched)' : ctx.path),
          status: ctx.status,
          latencyMs: Math.round(latencyMs * 100) / 100,
        },
        'request',
      );
    }
  };
}

