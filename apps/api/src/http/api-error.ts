import { ERROR_STATUS, type ErrorCode, type InvalidBodyReason } from '@service/contract';

export interface ErrorDetail {
  fieldErrors?: Record<string, string[]>;
  reason?: InvalidBodyReason;
  retry_after?: number;
  [key: string]: unknown;
}

/** An error that becomes the interface's Error object. Messages never carry personal data. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly detail?: ErrorDetail,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/** Only a reason of the contract compiles here. */
export const invalidBody = (reason: InvalidBodyReason, message: string) => new ApiError('invalid_body', message, { reason });
export const verificationNotFound = () => new ApiError('verification_not_found', 'Verification not found');
