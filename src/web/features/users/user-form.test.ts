import { describe, expect, it } from 'vitest';
import { ADD_USER_FIELDS, EMPTY_ADD_USER_FORM, firstInvalidAddUserField, serverUserErrors, userChanges, validateAddUser } from './user-form';

describe('validateAddUser', () => {
  it('accepts a complete form, trims it and makes the user active', () => {
    expect(validateAddUser({ email: ' Dana.Lee@Example.org ', firstName: ' Dana ', lastName: 'Lee', role: 'moderator' })).toEqual({
      ok: true,
      user: { email: 'Dana.Lee@Example.org', firstName: 'Dana', lastName: 'Lee', role: 'moderator', status: 'active' },
    });
  });

  it('names every missing field with the contract message', () => {
    expect(validateAddUser(EMPTY_ADD_USER_FORM)).toEqual({
      ok: false,
      errors: { email: 'E-mail is required', firstName: 'First name is required', lastName: 'Last name is required', role: 'Role is required' },
    });
  });

  it('refuses an e-mail that is not one, and names too long', () => {
    const result = validateAddUser({ email: 'dana@', firstName: 'x'.repeat(81), lastName: 'Lee', role: 'viewer' });
    expect(result).toEqual({
      ok: false,
      errors: { email: 'Enter a valid e-mail address, such as name@example.org', firstName: 'First name must be at most 80 characters' },
    });
  });
});

describe('serverUserErrors', () => {
  it("puts a 409's e-mail detail on the e-mail field, with no form message", () => {
    expect(
      serverUserErrors(
        {
          code: 'CONFLICT',
          message: 'The e-mail MORGAN@example.org is already used by Morgan Reyes.',
          details: [{ path: 'body.email', message: 'MORGAN@example.org is already used by Morgan Reyes' }],
        },
        ADD_USER_FIELDS,
        'fallback',
      ),
    ).toEqual({ fields: { email: 'MORGAN@example.org is already used by Morgan Reyes' }, message: null });
  });

  it('places each field of a 400, whatever prefix its path has, and reports the rest as the form message', () => {
    expect(
      serverUserErrors(
        {
          code: 'VALIDATION_FAILED',
          message: 'Invalid request.',
          details: [
            { path: 'body.firstName', message: 'First name is required' },
            { path: 'role', message: 'Role must be admin, moderator or viewer' },
            { path: 'body', message: 'Unknown field x' },
          ],
        },
        ADD_USER_FIELDS,
        'fallback',
      ),
    ).toEqual({
      fields: { firstName: 'First name is required', role: 'Role must be admin, moderator or viewer' },
      message: 'Invalid request. (body: Unknown field x)',
    });
  });

  it('falls back to the server message, or the given text when the answer had no body', () => {
    expect(serverUserErrors({ code: 'INTERNAL', message: 'Something went wrong on our side. Reference: r1' }, ADD_USER_FIELDS, 'fallback')).toEqual({
      fields: {},
      message: 'Something went wrong on our side. Reference: r1',
    });
    expect(serverUserErrors(undefined, ADD_USER_FIELDS, 'The user could not be added.')).toEqual({ fields: {}, message: 'The user could not be added.' });
  });
});

describe('firstInvalidAddUserField', () => {
  it('follows the order of the form', () => {
    expect(firstInvalidAddUserField({ role: 'Role is required', lastName: 'Last name is required' })).toBe('lastName');
    expect(firstInvalidAddUserField({})).toBeUndefined();
  });
});

describe('userChanges', () => {
  const user = { role: 'viewer', status: 'pending' } as const;
  it('sends only what changed', () => {
    expect(userChanges(user, { role: 'moderator', status: 'pending' })).toEqual({ role: 'moderator' });
    expect(userChanges(user, { role: 'admin', status: 'active' })).toEqual({ role: 'admin', status: 'active' });
  });
  it('is null when nothing changed, so Save has nothing to send', () => {
    expect(userChanges(user, { ...user })).toBeNull();
  });
});
