/**
 * When two mails are the same mail. A mail is recorded once as a submission of source `mailbox`, under an
 * external id the unique (source, external_id) index holds:
 *
 * - with a Message-ID: `<message-id>#<first 16 hex of its content hash>` (contentSha256 in read-message.ts:
 *   its subject and its attachments' SHA-256s). The same mail delivered again, even with other headers, has
 *   the same id and is recorded once; a different mail that reuses the Message-ID (a scanner or a mail
 *   program that sends every mail with one, a parent's client that re-uses a draft's) has another and is
 *   processed in its own right. 16 hex digits (64 bits) only have to tell apart mails sharing one Message-ID.
 * - without one: `sha256:<hash of the raw message>`, as before: nothing else says two such mails are one.
 *
 * A submission recorded before content hashes were kept has the bare Message-ID as its external id; a mail
 * with that Message-ID is taken to be it, as it was then (what it held cannot be compared any more).
 */
import type { MessageIdentity } from './read-message';

const CONTENT_HASH_HEX = 16;
const CONTENT_SUFFIX = new RegExp(`#[0-9a-f]{${CONTENT_HASH_HEX}}$`);

export function mailExternalId(mail: Pick<MessageIdentity, 'messageId' | 'rawSha256' | 'contentSha256'>): string {
  return mail.messageId ? `${mail.messageId}#${mail.contentSha256.slice(0, CONTENT_HASH_HEX)}` : `sha256:${mail.rawSha256}`;
}

/** The Message-ID an external id was made from, or null for a mail that had none. */
export function messageIdOfExternalId(externalId: string): string | null {
  if (externalId.startsWith('sha256:')) return null;
  return externalId.replace(CONTENT_SUFFIX, '');
}

/** The content hash prefix of an external id, or null for one recorded before content hashes were kept (or without a Message-ID). */
export function contentHashOfExternalId(externalId: string): string | null {
  if (externalId.startsWith('sha256:')) return null;
  return CONTENT_SUFFIX.exec(externalId)?.[0].slice(1) ?? null;
}
