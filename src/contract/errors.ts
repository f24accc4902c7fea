import { z } from 'zod';

/** Stable, machine-readable error codes. The HTTP status for each lives in the server's error table. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'UNAUTHENTICATED',
  'INVALID_PASSWORD',
  'SECOND_FACTOR_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  /** What the address named worked once and no longer does (an expired or revoked upload link). */
  'GONE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export const ZErrorCode = z.enum(ERROR_CODES);
export type TErrorCode = z.infer<typeof ZErrorCode>;

/** Every error the API answers has this shape; `details` names each bad field when input is rejected. */
export const ZApiError = z.object({
  code: ZErrorCode,
  message: z.string(),
  requestId: z.string().optional(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type TApiError = z.infer<typeof ZApiError>;

export const INVALID_PASSWORD_MESSAGE = 'Invalid password. Please try again.';
