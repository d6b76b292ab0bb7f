import type { WidgetErrorCode, WidgetErrorDetail } from '@service/contract';

/** An error the flow stops on, already in the shape of `service:error`'s detail. */
export class FlowError extends Error {
  constructor(
    readonly detail: WidgetErrorDetail,
    /** The API's own error code, when an API answer caused it (never part of the event). */
    readonly apiError?: string,
  ) {
    super(detail.message);
  }
}

export interface ApiErrorBody {
  error?: string;
  message?: string;
  detail?: Record<string, unknown>;
}

/**
 * The interface's table: API error code (or HTTP status) to widget code. `detail` is the API's
 * own `detail`, verbatim, and only for API errors.
 */
export function widgetCodeFor(status: number, body: ApiErrorBody | null): WidgetErrorCode {
  const code = body?.error;
  if (code === 'missing_api_key' || code === 'invalid_api_key') return 'invalid_api_key';
  if (code === 'insufficient_credits' || status === 402) return 'insufficient_credits';
  if (code === 'rate_limited' || status === 429) return 'rate_limited';
  if (code === 'backend_unavailable' || status >= 500) return 'api_unreachable';
  return 'internal_error';
}

export function apiFlowError(status: number, body: ApiErrorBody | null, context: string): FlowError {
  const code = widgetCodeFor(status, body);
  return new FlowError(
    {
      code,
      message: `${context} failed: HTTP ${status}${body?.error ? ` ${body.error}` : ''}`,
      ...(body?.detail && typeof body.detail === 'object' ? { detail: body.detail } : {}),
    },
    body?.error,
  );
}

/** Thrown when the caller aborted (Cancel): never shown, never dispatched. */
export class AbortedError extends Error {
  constructor() {
    super('aborted by the widget');
  }
}

export const isAborted = (err: unknown): boolean => err instanceof AbortedError;
