import { describe, expect, it } from 'vitest';
import { EMPTY_ADD_PLAYER_FORM, firstInvalidField, serverAddPlayerErrors, validateAddPlayer, type AddPlayerFormValues } from './add-player-form';

const valid: AddPlayerFormValues = {
  ...EMPTY_ADD_PLAYER_FORM,
  firstName: ' Ava ',
  lastName: 'Smith',
  birthDate: '2015-04-02',
  season: 'fall-2025',
  division: 'AA',
};

describe('validateAddPlayer', () => {
  it('accepts a complete form and trims names; empty guardian fields are left out', () => {
    const result = validateAddPlayer(valid);
    expect(result).toEqual({
      ok: true,
      player: { firstName: 'Ava', lastName: 'Smith', birthDate: '2015-04-02', season: 'fall-2025', division: 'AA' },
    });
  });

  it('names every missing required field', () => {
    const result = validateAddPlayer(EMPTY_ADD_PLAYER_FORM);
    expect(result).toEqual({
      ok: false,
      errors: {
        firstName: 'First name is required',
        lastName: 'Last name is required',
        birthDate: 'Birth date is required',
        season: 'Season is required',
        division: 'Division is required',
      },
    });
  });

  it('uses the contract messages for bad guardian contact details and a birth date out of range', () => {
    const result = validateAddPlayer({ ...valid, birthDate: '1980-01-01', guardianEmail: 'not-an-email', guardianPhone: 'call me' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      birthDate: 'Birth date must be between 1990 and today',
      guardianEmail: 'Guardian e-mail must be an e-mail address',
      guardianPhone: 'Guardian phone may hold digits, spaces and + ( ) - . only',
    });
  });

  it('keeps the guardian details it accepts', () => {
    const result = validateAddPlayer({ ...valid, guardianName: 'Jo Smith', guardianEmail: 'jo@example.org', guardianPhone: '+1 (212) 555-0100' });
    expect(result.ok && result.player).toMatchObject({ guardianName: 'Jo Smith', guardianEmail: 'jo@example.org', guardianPhone: '+1 (212) 555-0100' });
  });
});

describe('serverAddPlayerErrors', () => {
  it('puts field details next to their fields, whatever prefix the path has', () => {
    expect(
      serverAddPlayerErrors(
        {
          code: 'VALIDATION_FAILED',
          message: 'Invalid input',
          details: [
            { path: 'body.firstName', message: 'First name is required' },
            { path: 'guardianEmail', message: 'Guardian e-mail must be an e-mail address' },
          ],
        },
        'fallback',
      ),
    ).toEqual({ fields: { firstName: 'First name is required', guardianEmail: 'Guardian e-mail must be an e-mail address' }, message: null });
  });

  it('shows the server message for a duplicate (409) and for details it cannot place', () => {
    expect(serverAddPlayerErrors({ code: 'CONFLICT', message: 'This player is already registered for Fall Ball 2025.' }, 'x')).toEqual({
      fields: {},
      message: 'This player is already registered for Fall Ball 2025.',
    });
    expect(serverAddPlayerErrors({ code: 'VALIDATION_FAILED', message: 'Invalid input', details: [{ path: 'extra', message: 'unknown key' }] }, 'x')).toEqual({
      fields: {},
      message: 'Invalid input (extra: unknown key)',
    });
  });

  it('falls back to the error text when the body is not the standard error shape', () => {
    expect(serverAddPlayerErrors(undefined, '500: oops')).toEqual({ fields: {}, message: '500: oops' });
  });
});

describe('firstInvalidField', () => {
  it('follows the form order', () => {
    expect(firstInvalidField({ division: 'x', lastName: 'y' })).toBe('lastName');
    expect(firstInvalidField({})).toBeUndefined();
  });
});
