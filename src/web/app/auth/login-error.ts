import { INVALID_PASSWORD_MESSAGE } from '../../../contract';
import { ApiError } from '../../lib/api-client';

export const LOGIN_UNAVAILABLE_MESSAGE = 'Unable to sign in right now. Please try again.';
export const SERVER_UNREACHABLE_MESSAGE = 'Unable to reach the server. Check your connection and try again.';

/** The line shown under the password field after a failed sign-in. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return error.body?.message ?? INVALID_PASSWORD_MESSAGE;
    return error.body?.message ?? LOGIN_UNAVAILABLE_MESSAGE;
  }
  // fetch rejects with a TypeError when the request never got an answer.
  if (error instanceof TypeError) return SERVER_UNREACHABLE_MESSAGE;
  return LOGIN_UNAVAILABLE_MESSAGE;
}
