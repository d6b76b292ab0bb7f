import { ERROR_STATUS, type ErrorCode, type ErrorObject } from '@service/contract';

export type ErrorDetail = NonNullable<ErrorObject['detail']>;

/** Any answer of the API that is not a success, as the contract's Error object. */
export class ServiceError extends Error {
  override readonly name: string = 'ServiceError';
  constructor(
    /** The contract's error code (`invalid_body`, `rate_limited`, ...). */
    readonly code: ErrorCode,
    /** The HTTP status. */
    readonly status: number,
    /** The `requestId` of the failed call (also its `X-Request-Id`): quote it to support. */
    readonly requestId: string | null,
    /** `fieldErrors`, `reason` or `retry_after`, as the API sent it. */
    readonly detail: ErrorDetail | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** 400 `invalid_body`: `detail.reason` or `detail.fieldErrors` says what. */
export class InvalidRequestError extends ServiceError {
  override readonly name = 'InvalidRequestError';
}
/** 401 `missing_api_key`, `invalid_api_key`, `secret_key_required`, `invalid_admin_token`. */
export class AuthenticationError extends ServiceError {
  override readonly name = 'AuthenticationError';
}
/** 402 `insufficient_credits`. */
export class InsufficientCreditsError extends ServiceError {
  override readonly name = 'InsufficientCreditsError';
}
/** 403 `origin_not_allowed`. */
export class PermissionError extends ServiceError {
  override readonly name = 'PermissionError';
}
/** 404 `verification_not_found` or `not_found`. */
export class NotFoundError extends ServiceError {
  override readonly name = 'NotFoundError';
}
/** 409 `not_in_review`. */
export class ConflictError extends ServiceError {
  override readonly name = 'ConflictError';
}
/** 429 `rate_limited`, after the client's own retries ran out; `retryAfterSeconds` from the API. */
export class RateLimitError extends ServiceError {
  override readonly name = 'RateLimitError';
  get retryAfterSeconds(): number | undefined {
    return this.detail?.retry_after;
  }
}
/** 500 `internal_error` or 503 `backend_unavailable`, after the client's own retries ran out. */
export class ApiServerError extends ServiceError {
  override readonly name = 'ApiServerError';
}
/** No answer: network failure, the request timeout, or the caller's AbortSignal. */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
  constructor(
    message: string,
    readonly requestId: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
/** `waitForVerdict` gave up before the verification reached a final status. */
export class VerdictTimeoutError extends Error {
  override readonly name = 'VerdictTimeoutError';
  constructor(
    readonly verificationId: string,
    readonly lastStatus: string,
  ) {
    super(`Verification ${verificationId} is still ${lastStatus}`);
  }
}

const CLASS_BY_STATUS: Record<number, typeof ServiceError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  402: InsufficientCreditsError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
  500: ApiServerError,
  503: ApiServerError,
};

/** The typed error of an answer; a code the contract does not know keeps its status's class. */
export function errorFromResponse(status: number, body: unknown, requestIdHeader: string | null): ServiceError {
  const b = (body && typeof body === 'object' ? body : {}) as Partial<ErrorObject>;
  const code = (
    typeof b.error === 'string' && b.error in ERROR_STATUS ? b.error : status >= 500 ? 'internal_error' : 'invalid_body'
  ) as ErrorCode;
  const Class = CLASS_BY_STATUS[status] ?? (status >= 500 ? ApiServerError : ServiceError);
  return new Class(code, status, b.requestId ?? requestIdHeader, b.detail, b.message ?? `HTTP ${status}`);
}
