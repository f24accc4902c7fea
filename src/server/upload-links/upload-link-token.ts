import { createHash, randomBytes } from 'node:crypto';
import { FAMILY_PAGE_PATH } from '../../contract';

/** 256 random bits, URL-safe: nobody guesses one, and a link holds nothing else. */
export const newUploadToken = (): string => randomBytes(32).toString('base64url');

/** What the database keeps of a token: its SHA-256, so a leaked table opens no family page. */
export const hashUploadToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A token as a link can carry it: exactly 43 base64url characters. Anything else is refused unread. */
export const isWellFormedUploadToken = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

/** The family page's address; the token in the #fragment, which browsers never send, so no log holds it. */
export const uploadLinkUrl = (origin: string, token: string): string => `${origin}${FAMILY_PAGE_PATH}#token=${token}`;
