import { describe, expect, it } from 'vitest';
import { FORBIDDEN_MESSAGE, type TSession } from '../../contract';
import { ApiError, getErrorMessage } from './api-client';
import { createQueryClient, isForbiddenError, isSessionLostError, rereadSessionAfter } from './query-client';
import { SESSION_QUERY_KEY } from './query-keys';
import type { ToastInput } from './toast-store';

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

const forbidden = new ApiError(403, 'Forbidden', JSON.stringify({ code: 'FORBIDDEN', message: FORBIDDEN_MESSAGE }));

const signedInModerator: TSession = {
  authenticated: true,
  signInMode: 'both',
  permissions: ['account', 'read', 'files.open', 'documents.review'],
};

/** A client holding a session answer, as the shell has it once signed in; its toasts are kept in `shown`. */
function clientWithSession(shown: ToastInput[] = []) {
  const client = createQueryClient({ showToast: (input) => shown.push(input) });
  client.setQueryData(SESSION_QUERY_KEY, signedInModerator);
  return client;
}

const sessionInvalidated = (client: ReturnType<typeof createQueryClient>) => client.getQueryState(SESSION_QUERY_KEY)?.isInvalidated;

describe('isForbiddenError', () => {
  it('is true for a 403 from any call but the session query', () => {
    expect(isForbiddenError(forbidden, ['api', 'documents'])).toBe(true);
    expect(isForbiddenError(forbidden)).toBe(true);
  });

  it('is false for the session query itself, so a refusal of it cannot loop', () => {
    expect(isForbiddenError(forbidden, SESSION_QUERY_KEY)).toBe(false);
  });

  it('is false for other failures', () => {
    expect(isForbiddenError(unauthenticated)).toBe(false);
    expect(isForbiddenError(new ApiError(404, 'Not Found', ''))).toBe(false);
    expect(isForbiddenError(new Error('403'))).toBe(false);
  });
});

describe('a call the server refuses for the role', () => {
  it("reads the session again when a mutation is refused, and toasts the server's message", async () => {
    const shown: ToastInput[] = [];
    const client = clientWithSession(shown);
    const mutation = client.getMutationCache().build(client, { mutationFn: () => Promise.reject(forbidden) });
    await expect(mutation.execute(undefined)).rejects.toBe(forbidden);
    expect(sessionInvalidated(client)).toBe(true);
    expect(shown).toEqual([{ title: 'Not Allowed', description: FORBIDDEN_MESSAGE, variant: 'destructive' }]);
    // Every action's own failure toast says the same message.
    expect(getErrorMessage(forbidden)).toBe(FORBIDDEN_MESSAGE);
  });

  it('reads the session again when a query is refused, without a toast (the screen shows its load error)', async () => {
    const shown: ToastInput[] = [];
    const client = clientWithSession(shown);
    await expect(client.fetchQuery({ queryKey: ['api', 'notifications', 'settings'], queryFn: () => Promise.reject(forbidden) })).rejects.toBe(forbidden);
    expect(sessionInvalidated(client)).toBe(true);
    expect(shown).toEqual([]);
  });

  it('leaves the session alone for a failure that says nothing about the role', async () => {
    const shown: ToastInput[] = [];
    const client = clientWithSession(shown);
    const conflict = new ApiError(409, 'Conflict', JSON.stringify({ code: 'CONFLICT', message: 'Someone else reviewed it.' }));
    const mutation = client.getMutationCache().build(client, { mutationFn: () => Promise.reject(conflict) });
    await expect(mutation.execute(undefined)).rejects.toBe(conflict);
    expect(sessionInvalidated(client)).toBe(false);
    expect(shown).toEqual([]);
  });

  it('reads the session again for a refused file read outside queries and mutations', () => {
    const client = clientWithSession();
    rereadSessionAfter(client, forbidden);
    expect(sessionInvalidated(client)).toBe(true);
  });
});
