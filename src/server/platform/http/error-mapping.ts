import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { TApiError, TErrorCode } from '../../../contract';
import { isDatabaseUnreachable } from '../db/errors';
import { AppError, ERROR_STATUS } from '../errors';

/** Fastify's own error codes for bad requests, in words a client developer can act on. */
const FASTIFY_ERRORS: Record<string, { code: TErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported content type. Send application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'INVALID_JSON', message: 'The request body does not match its Content-Length.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', message: 'The request body is empty; send a JSON object.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' },
  FST_ERR_BAD_URL: { code: 'VALIDATION_FAILED', message: 'The address holds characters that cannot be read.' },
};

/** Plain 4xx statuses thrown by plugins, by their meaning. */
const CLIENT_ERROR_CODES: Partial<Record<number, TErrorCode>> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

export const DATABASE_UNREACHABLE_MESSAGE = 'The database is not reachable right now. Try again in a moment.';

type ErrorLike = { code?: unknown; statusCode?: unknown; message?: unknown };

/** One place turns any thrown value into the API's error shape; 5xx details never reach the client. */
export function toApiError(error: unknown, requestId: string): { status: number; body: TApiError } {
  if (error instanceof AppError) {
    return { status: error.status, body: withoutUndefined({ code: error.code, message: error.message, requestId, details: error.details }) };
  }
  // The library guards below use `in` and would throw on a thrown string or number.
  if (typeof error !== 'object' || error === null) return internal(requestId);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details = error.validation.map((issue) => ({
      path: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
      message: issue.message ?? 'is invalid',
    }));
    const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
    return { status: 400, body: { code: 'VALIDATION_FAILED', message: `Invalid request. ${summary}`, requestId, details } };
  }
  if (isResponseSerializationError(error)) return internal(requestId);
  // A dropped or refused database connection is a passing fault, not a bug: the same request can succeed
  // once the pool has a new connection, so the client is told to try again.
  if (isDatabaseUnreachable(error)) {
    return { status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: DATABASE_UNREACHABLE_MESSAGE, requestId } };
  }

  const e = error as ErrorLike;
  const known = typeof e.code === 'string' ? FASTIFY_ERRORS[e.code] : undefined;
  if (known) return { status: ERROR_STATUS[known.code], body: { ...known, requestId } };
  if (error instanceof SyntaxError && e.statusCode === 400) {
    return { status: 400, body: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.', requestId } };
  }
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status === 429) {
    return { status, body: { code: 'RATE_LIMITED', message: 'Too many requests. Try again shortly.', requestId } };
  }
  if (status >= 400 && status < 500) {
    const code = CLIENT_ERROR_CODES[status] ?? 'VALIDATION_FAILED';
    const message = typeof e.message === 'string' && e.message ? e.message : 'The request was not accepted.';
    return { status, body: { code, message, requestId } };
  }
  return internal(requestId);
}

const internal = (requestId: string) => ({
  status: 500,
  body: { code: 'INTERNAL' as const, message: `Something went wrong on our side. Reference: ${requestId}`, requestId },
});

function withoutUndefined(body: TApiError): TApiError {
  return body.details === undefined ? { code: body.code, message: body.message, requestId: body.requestId } : body;
}
