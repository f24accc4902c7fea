import { describe, expect, it } from 'vitest';
import { checkNewPassword, CONFIRM_PASSWORD_MESSAGE, invitationTokenFromHash, PASSWORDS_DIFFER_MESSAGE } from './invitation-link';

describe('invitationTokenFromHash', () => {
  it('reads the token from the fragment, with or without the #', () => {
    expect(invitationTokenFromHash('#token=abcDEF123_-xyz')).toBe('abcDEF123_-xyz');
    expect(invitationTokenFromHash('token=abc')).toBe('abc');
    expect(invitationTokenFromHash('#foo=1&token=t%2Bk')).toBe('t+k');
  });

  it('is null when the fragment holds no token', () => {
    expect(invitationTokenFromHash('')).toBeNull();
    expect(invitationTokenFromHash('#')).toBeNull();
    expect(invitationTokenFromHash('#token=')).toBeNull();
    expect(invitationTokenFromHash('#tokens=abc')).toBeNull();
  });
});

describe('checkNewPassword', () => {
  it('accepts 12 characters or more, typed the same twice', () => {
    expect(checkNewPassword('correct horse battery', 'correct horse battery')).toEqual({});
    expect(checkNewPassword('x'.repeat(12), 'x'.repeat(12))).toEqual({});
  });

  it('asks for a password, a longer one, and the same one twice', () => {
    expect(checkNewPassword('', '')).toEqual({ password: 'Choose a password.', confirm: CONFIRM_PASSWORD_MESSAGE });
    expect(checkNewPassword('short', 'short')).toEqual({ password: 'Use at least 12 characters.' });
    expect(checkNewPassword('long enough password', 'long enough passw0rd')).toEqual({ confirm: PASSWORDS_DIFFER_MESSAGE });
  });
});
