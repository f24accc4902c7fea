import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { asksForSecondFactor, LOGIN_UNAVAILABLE_MESSAGE, loginErrorMessage, secondStepErrorMessage, SERVER_UNREACHABLE_MESSAGE } from './login-error';

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

describe('a personal sign-in', () => {
  it("shows the server's message, or the e-mail-or-password one without a body", () => {
    const body = JSON.stringify({ code: 'INVALID_PASSWORD', message: 'Invalid e-mail or password. Please try again.' });
    expect(loginErrorMessage(new ApiError(401, 'Unauthorized', body), 'personal')).toBe('Invalid e-mail or password. Please try again.');
    expect(loginErrorMessage(new ApiError(401, 'Unauthorized', ''), 'personal')).toBe('Invalid e-mail or password. Please try again.');
  });

  it('tells a request for the second step from a refusal', () => {
    const asks = JSON.stringify({ code: 'SECOND_FACTOR_REQUIRED', message: 'Enter the 6-digit code from your authenticator app, or a recovery code.' });
    expect(asksForSecondFactor(new ApiError(401, 'Unauthorized', asks))).toBe(true);
    expect(asksForSecondFactor(new ApiError(401, 'Unauthorized', JSON.stringify({ code: 'INVALID_PASSWORD', message: 'x' })))).toBe(false);
    expect(asksForSecondFactor(new TypeError('Failed to fetch'))).toBe(false);
  });
});

describe('secondStepErrorMessage', () => {
  it("shows the server's word on a refused code, and says the code is not right without one", () => {
    const body = JSON.stringify({ code: 'INVALID_PASSWORD', message: 'That code is not right. Check your authenticator app and try again.' });
    expect(secondStepErrorMessage(new ApiError(401, 'Unauthorized', body))).toBe('That code is not right. Check your authenticator app and try again.');
    expect(secondStepErrorMessage(new ApiError(401, 'Unauthorized', ''))).toBe('That code is not right. Check your authenticator app and try again.');
    expect(secondStepErrorMessage(new TypeError('Failed to fetch'))).toBe(SERVER_UNREACHABLE_MESSAGE);
  });
});
