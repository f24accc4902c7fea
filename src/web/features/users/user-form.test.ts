import { describe, expect, it } from 'vitest';
import type { TUser } from '../../../contract';
import {
  ALL_DIVISIONS,
  EMPTY_USER_FORM,
  firstInvalidUserField,
  PICK_DIVISIONS_MESSAGE,
  serverUserErrors,
  USER_FORM_FIELDS,
  userChanges,
  userFormFromUser,
  validateUserForm,
} from './user-form';

describe('validateUserForm', () => {
  it('accepts a complete form, trims it, and sends no divisions for all of them', () => {
    expect(validateUserForm({ email: ' Dana.Lee@Example.org ', firstName: ' Dana ', lastName: 'Lee', role: 'moderator' }, ALL_DIVISIONS)).toEqual({
      ok: true,
      user: { email: 'Dana.Lee@Example.org', firstName: 'Dana', lastName: 'Lee', role: 'moderator', divisions: [] },
    });
  });

  it('sends the picked divisions in the league order', () => {
    const result = validateUserForm({ email: 'a@example.org', firstName: 'A', lastName: 'B', role: 'viewer' }, { all: false, picked: ['A', 'AAA'] });
    expect(result).toEqual({ ok: true, user: { email: 'a@example.org', firstName: 'A', lastName: 'B', role: 'viewer', divisions: ['AAA', 'A'] } });
  });

  it('names every missing field with the contract message, and asks for a division when none is picked', () => {
    expect(validateUserForm(EMPTY_USER_FORM, { all: false, picked: [] })).toEqual({
      ok: false,
      errors: {
        email: 'E-mail is required',
        firstName: 'First name is required',
        lastName: 'Last name is required',
        role: 'Role is required',
        divisions: PICK_DIVISIONS_MESSAGE,
      },
    });
  });

  it('refuses an e-mail that is not one, and names too long', () => {
    const result = validateUserForm({ email: 'dana@', firstName: 'x'.repeat(81), lastName: 'Lee', role: 'viewer' }, ALL_DIVISIONS);
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
        USER_FORM_FIELDS,
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
            { path: 'divisions.0', message: 'Division must be one of AAA, AA, A, TEST, Peewee' },
            { path: 'body', message: 'Unknown field x' },
          ],
        },
        USER_FORM_FIELDS,
        'fallback',
      ),
    ).toEqual({
      fields: { firstName: 'First name is required', divisions: 'Division must be one of AAA, AA, A, TEST, Peewee' },
      message: 'Invalid request. (body: Unknown field x)',
    });
  });

  it('falls back to the server message, or the given text when the answer had no body', () => {
    expect(serverUserErrors({ code: 'INTERNAL', message: 'Something went wrong on our side. Reference: r1' }, USER_FORM_FIELDS, 'fallback')).toEqual({
      fields: {},
      message: 'Something went wrong on our side. Reference: r1',
    });
    expect(serverUserErrors(undefined, USER_FORM_FIELDS, 'The user could not be invited.')).toEqual({ fields: {}, message: 'The user could not be invited.' });
  });
});

describe('firstInvalidUserField', () => {
  it('follows the order of the form', () => {
    expect(firstInvalidUserField({ divisions: PICK_DIVISIONS_MESSAGE, lastName: 'Last name is required' })).toBe('lastName');
    expect(firstInvalidUserField({})).toBeUndefined();
  });
});

describe('userChanges', () => {
  const user: TUser = {
    id: 'u1',
    email: 'sam@example.org',
    firstName: 'Sam',
    lastName: 'Okafor',
    role: 'viewer',
    status: 'active',
    divisions: ['AA', 'A'],
    twoFactorEnabled: false,
    lastLogin: null,
    lastActionAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    profileImageUrl: null,
  };
  const unchanged = () => {
    const form = userFormFromUser(user);
    const checked = validateUserForm(form.text, form.divisions);
    if (!checked.ok) throw new Error('the form of a stored user is valid');
    return checked.user;
  };

  it('is null when nothing changed (the divisions in another order are the same)', () => {
    expect(userChanges(user, unchanged())).toBeNull();
    expect(userChanges(user, { ...unchanged(), divisions: ['A', 'AA'] })).toBeNull();
  });

  it('sends only what changed', () => {
    expect(userChanges(user, { ...unchanged(), role: 'moderator' })).toEqual({ role: 'moderator' });
    expect(userChanges(user, { ...unchanged(), divisions: [], lastName: 'Okafor-Lee' })).toEqual({ lastName: 'Okafor-Lee', divisions: [] });
    expect(userChanges(user, { ...unchanged(), email: 'SAM@example.org' })).toEqual({ email: 'SAM@example.org' });
  });

  it('fills the form from the user: no divisions reads as all of them', () => {
    expect(userFormFromUser({ ...user, divisions: [] }).divisions).toEqual(ALL_DIVISIONS);
    expect(userFormFromUser(user).divisions).toEqual({ all: false, picked: ['AA', 'A'] });
  });
});
