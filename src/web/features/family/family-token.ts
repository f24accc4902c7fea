import { FAMILY_PAGE_PATH } from '../../../contract';

export { FAMILY_PAGE_PATH };

/** A link's token as the server makes it: 32 random bytes in base64url, 43 characters without padding. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type FamilyLinkToken = { kind: 'token'; token: string } | { kind: 'none' } | { kind: 'malformed' };

/**
 * The token of a family upload link, from the address's #fragment (`#token=…`): the fragment never leaves the
 * browser, so the token is in no server log. 'none' when the fragment holds no token at all, 'malformed' when it
 * holds something that cannot be a token (cut short when copied, a character changed): both mean the page
 * cannot be shown, without asking the server.
 */
export function familyTokenFromHash(hash: string): FamilyLinkToken {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  const token = new URLSearchParams(fragment).get('token')?.trim() ?? '';
  if (token === '') return { kind: 'none' };
  return TOKEN_PATTERN.test(token) ? { kind: 'token', token } : { kind: 'malformed' };
}
