import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { LOGIN_UNAVAILABLE_MESSAGE, loginErrorMessage, SERVER_UNREACHABLE_MESSAGE } from './login-error';

describe('loginErrorMessage', () => {
  it("shows the server's message for a wrong password", () => {
    const body = JSON.stringify({ code: 'INVALID_PASSWORD', message: 'Invalid password. Please try again.' });
    expect(loginErrorMessage(new ApiError(401, 'Unauthorized', body))).toBe('Invalid password. Please try again.');
  });

  it('shows the invalid-password message for a 401 without a readable body', () => {
    expect(loginErrorMessage(new ApiError(401, 'Unauthorized', ''))).toBe('Invalid password. Please try again.');
  });

  it("shows the server's rate-limit message", () => {
    const body = JSON.stringify({ code: 'RATE_LIMITED', message: 'Too many login attempts. Try again in 42 seconds.' });
    expect(loginErrorMessage(new ApiError(429, 'Too Many Requests', body))).toBe(
      'Too many login attempts. Try again in 42 seconds.',
    );
  });

  it('explains an unreachable server and other failures in plain words', () => {
    expect(loginErrorMessage(new TypeError('Failed to fetch'))).toBe(SERVER_UNREACHABLE_MESSAGE);
    expect(loginErrorMessage(new ApiError(502, 'Bad Gateway', ''))).toBe(LOGIN_UNAVAILABLE_MESSAGE);
  });
});
