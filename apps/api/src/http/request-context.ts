import type { Context, Middleware } from 'koa';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.js';
import type { Metrics } from '../metrics/metrics.js';
import { BlobStoreUnavailableError } from '../storage/blob-store.js';
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
  if ((err.code === 'rate_limited' || err.code === 'backend_unavailable') && err.detail?.retry_after !== undefined) {
    ctx.set('Retry-After', String(err.detail.retry_after));
  }
}

/** The database is refusing, restarting or not answering: the client retries, nothing is broken. */
export function backendUnavailable(message = 'The service cannot reach its database; retry shortly'): ApiError {
  return new ApiError('backend_unavailable', message, {
    retry_after: DATABASE_RETRY_AFTER_SECONDS,
  });
}

/** Koa's own HTTP errors (e.g. a malformed URL) keep their meaning without leaking internals. */
function fromUnknown(err: unknown): ApiError | null {
  const status = (err as { status?: number; expose?: boolean }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return status === 404 ? new ApiError('not_found', 'Route not found') : new ApiError('invalid_body', 'Malformed request');
  }
  return null;
}

/** Logged status of a request its client abandoned (nginx's convention; never sent). */
const CLIENT_CLOSED_REQUEST = 499;

/**
 * The client went away: its request was aborted before its end, or its connection is gone. The
 * error's code alone does not tell (a database connection resets with ECONNRESET too, and that must
 * answer 503), nor does `req.destroyed`: Node destroys every request stream once its body has been
 * read, and an error after that (a database outage) taken for an abort went unanswered, so Koa sent
 * its plain-text 404.
 */
function isClientAbort(ctx: Context): boolean {
  const req = ctx.req as typeof ctx.req & { aborted?: boolean; readableAborted?: boolean };
  const gone = req.aborted === true || req.readableAborted === true || req.socket?.destroyed === true || ctx.res.destroyed;
  // Whatever the request stream says, a client whose connection still takes an answer gets one.
  const canAnswer = !ctx.res.destroyed && ctx.res.writable && req.socket?.writable === true;
  return gone && !canAnswer;
}

/** First middleware: request id, one log line per request, and every error mapped to the contract. */
export function requestContext(logger: Logger, metrics?: Metrics): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = newRequestId();
    let clientAborted = false;
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
      } else if (isClientAbort(ctx)) {
        // The client went away mid-request: nothing failed here and nobody is left to answer.
        clientAborted = true;
      } else {
        const mapped = fromUnknown(err);
        if (mapped) sendError(ctx, mapped);
        else if (err instanceof BlobStoreUnavailableError) {
          logger.warn({ requestId, err: { message: err.message } }, 'blob store unavailable');
          sendError(ctx, backendUnavailable('The service cannot reach its image store; retry shortly'));
        } else if (isDatabaseUnavailable(err)) {
          logger.warn(
            { requestId, err: { message: (err as Error).message, code: (err as { code?: string }).code } },
            'database unavailable',
          );
          sendError(ctx, backendUnavailable());
        } else {
          logger.error({ requestId, err: { message: (err as Error)?.message, stack: (err as Error)?.stack } }, 'unhandled error');
          sendError(ctx, new ApiError('internal_error', 'Internal server error'));
        }
      }
    } finally {
      const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
      const status = clientAborted ? CLIENT_CLOSED_REQUEST : ctx.status;
      // Route patterns only: a raw path would carry ids (and unbounded label values).
      metrics?.request(ctx.method, ctx.state.routeName?.replace(/^[A-Z]+ /, '') ?? '(unmatched)', status, latencyMs / 1000);
      logger.info(
        {
          requestId,
          method: ctx.method,
          route: ctx.state.routeName ?? (ctx.status === 404 ? '(unmatched)' : ctx.path),
          status: clientAborted ? CLIENT_CLOSED_REQUEST : ctx.status,
          ...(clientAborted ? { clientAborted: true } : {}),
          latencyMs: Math.round(latencyMs * 100) / 100,
        },
        'request',
      );
    }
  };
}
