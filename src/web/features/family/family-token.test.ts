import { describe, expect, it } from 'vitest';
import { familyTokenFromHash } from './family-token';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';

describe('familyTokenFromHash', () => {
  it('reads a 43-character base64url token from the fragment, with or without the #', () => {
    expect(TOKEN).toHaveLength(43);
    expect(familyTokenFromHash(`#token=${TOKEN}`)).toEqual({ kind: 'token', token: TOKEN });
    expect(familyTokenFromHash(`token=${TOKEN}`)).toEqual({ kind: 'token', token: TOKEN });
    expect(familyTokenFromHash(`#utm=mail&token=${TOKEN}`)).toEqual({ kind: 'token', token: TOKEN });
  });

  it('says none when there is no token', () => {
    expect(familyTokenFromHash('')).toEqual({ kind: 'none' });
    expect(familyTokenFromHash('#')).toEqual({ kind: 'none' });
    expect(familyTokenFromHash('#token=')).toEqual({ kind: 'none' });
    expect(familyTokenFromHash('#other=1')).toEqual({ kind: 'none' });
  });

  it('says malformed for a token cut short, too long, or with characters base64url has not', () => {
    expect(familyTokenFromHash(`#token=${TOKEN.slice(0, 40)}`)).toEqual({ kind: 'malformed' });
    expect(familyTokenFromHash(`#token=${TOKEN}A`)).toEqual({ kind: 'malformed' });
    expect(familyTokenFromHash(`#token=${TOKEN.slice(0, 42)}*`)).toEqual({ kind: 'malformed' });
    expect(familyTokenFromHash(`#token=${TOKEN.slice(0, 42)}=`)).toEqual({ kind: 'malformed' });
  });
});
