import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient, isSessionLostError } from './query-client';
import { SESSION_QUERY_KEY } from './query-keys';

const unauthenticated = new ApiError(401, 'Unauthorized', JSON.stringify({ code: 'UNAUTHENTICATED', message: 'Sign in.' }));

describe('isSessionLostError', () => {
  it('is true for a 401 from any call but the session query', () => {
    expect(isSessionLostError(unauthenticated, ['api', 'health'])).toBe(true);
    expect(isSessionLostError(unauthenticated)).toBe(true);
  });

  it('is false for the session query itself, so a reset cannot loop', () => {
    expect(isSessionLostError(unauthenticated, SESSION_QUERY_KEY)).toBe(false);
  });

  it('is false for a wrong password at the gate', () => {
    const wrongPassword = new ApiError(
      401,
      'Unauthorized',
      JSON.stringify({ code: 'INVALID_PASSWORD', message: 'Invalid password. Please try again.' }),
    );
    expect(isSessionLostError(wrongPassword)).toBe(false);
    const asksForCode = new ApiError(
      401,
      'Unauthorized',
      JSON.stringify({ code: 'SECOND_FACTOR_REQUIRED', message: 'Enter the 6-digit code from your authenticator app, or a recovery code.' }),
    );
    expect(isSessionLostError(asksForCode)).toBe(false);
  });

  it('is false for other failures', () => {
    expect(isSessionLostError(new ApiError(500, 'Internal Server Error', ''))).toBe(false);
    expect(isSessionLostError(new TypeError('Failed to fetch'))).toBe(false);
  });
});

describe('createQueryClient', () => {
  it('applies the defaults: no polling, no focus refetch, never stale, no retries', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.refetchInterval).toBe(false);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.queries?.staleTime).toBe(Infinity);
    expect(defaults.queries?.retry).toBe(false);
    expect(defaults.mutations?.retry).toBe(false);
  });
});
