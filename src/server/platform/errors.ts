import type { TApiError, TErrorCode } from '../../contract';

/** HTTP status for every error code: the one place that decides it. */
export const ERROR_STATUS: Record<TErrorCode, number> = {
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  REQUEST_TIMEOUT: 408,
  UNAUTHENTICATED: 401,
  INVALID_PASSWORD: 401,
  SECOND_FACTOR_REQUIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** An expected failure with a stable code and a message fit to show a league staff member. */
export class AppError extends Error {
  readonly status: number;

  /** `options.cause`: the lower layer's error, for the log only; the client sees `message`. */
  constructor(
    readonly code: TErrorCode,
    message: string,
    readonly details?: TApiError['details'],
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}
