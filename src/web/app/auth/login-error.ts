import { INVALID_CREDENTIALS_MESSAGE, INVALID_PASSWORD_MESSAGE, INVALID_SECOND_FACTOR_MESSAGE } from '../../../contract';
import { ApiError } from '../../lib/api-client';

export const LOGIN_UNAVAILABLE_MESSAGE = 'Unable to sign in right now. Please try again.';
export const SERVER_UNREACHABLE_MESSAGE = 'Unable to reach the server. Check your connection and try again.';

/**
 * The line shown under the sign-in form after a failed attempt: the server's own message when it sent one;
 * without one, a 401 reads as a wrong shared password, or a wrong e-mail or password for a personal sign-in.
 */
export function loginErrorMessage(error: unknown, method: 'shared' | 'personal' = 'shared'): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return error.body?.message ?? (method === 'personal' ? INVALID_CREDENTIALS_MESSAGE : INVALID_PASSWORD_MESSAGE);
    return error.body?.message ?? LOGIN_UNAVAILABLE_MESSAGE;
  }
  // fetch rejects with a TypeError when the request never got an answer.
  if (error instanceof TypeError) return SERVER_UNREACHABLE_MESSAGE;
  return LOGIN_UNAVAILABLE_MESSAGE;
}

/** The server knows the e-mail and password and now asks for the code of the person's authenticator app. */
export const asksForSecondFactor = (error: unknown): boolean => error instanceof ApiError && error.code === 'SECOND_FACTOR_REQUIRED';

/** The line under the code field after a refused code: the server's message, else that the code is not right. */
export function secondStepErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return error.body?.message ?? INVALID_SECOND_FACTOR_MESSAGE;
  return loginErrorMessage(error, 'personal');
}
