import { UPLOAD_LINK_STAND_IN, type TQueuedMessage } from '../../contract';
import type { AuditActor } from '../audit';
import type { Db } from '../platform/db/client';
import { issueUploadLink } from '../upload-links';

/** One upload link a rendered message carries: where its marker stands, and whose link it becomes. */
export type MessageLink = NonNullable<TQueuedMessage['links']>[number];

/**
 * The stand-in a rendered message holds where {{uploadLink}} was, until delivery puts a link there. Private-use
 * characters around it: nothing a person types, unchanged by HTML escaping, never a link itself.
 */
export const linkMarker = (index: number): string => `\u{E000}upload-link-${index}\u{E001}`;

const replaceMarkers = (text: string, links: readonly MessageLink[], by: (link: MessageLink) => string): string =>
  links.reduce((result, link) => result.split(link.marker).join(by(link)), text);

/** The text as History and previews show it: '(personal upload link)' where each link goes. */
export const withStandIns = (text: string, links: readonly MessageLink[] | undefined): string =>
  links && links.length > 0 ? replaceMarkers(text, links, () => UPLOAD_LINK_STAND_IN) : text;

export type LinkIssue = { actor: AuditActor; days: number; now: Date; why: string; requestId?: string | null };

/**
 * Issues the message's links (hashed rows and their audit, in one transaction) and puts each in the text and
 * HTML in place of its marker. Called right before the message goes to the mail server: the link exists only
 * in the e-mail. Answers the message unchanged when it carries none, and when its links stop working.
 */
export async function issueMessageLinks<M extends { text: string; html: string; links?: MessageLink[] | undefined }>(
  db: Db,
  message: M,
  issue: LinkIssue,
): Promise<{ message: M; expiresAt: Date | null }> {
  const links = message.links ?? [];
  if (links.length === 0) return { message, expiresAt: null };
  return db.transaction(async (tx) => {
    const urls = new Map<string, string>();
    let expiresAt: Date | null = null;
    for (const link of links) {
      const issued = await issueUploadLink(tx, { playerId: link.playerId, seasonId: link.seasonId, origin: link.origin, ...issue });
      urls.set(link.marker, issued.url);
      expiresAt = issued.expiresAt;
    }
    const url = (link: MessageLink) => urls.get(link.marker) ?? '';
    // The URL holds only URL-safe characters (origin, path, base64url token): nothing to escape in the HTML.
    const anchor = (link: MessageLink) => `<a href="${url(link)}">${url(link)}</a>`;
    return { message: { ...message, text: replaceMarkers(message.text, links, url), html: replaceMarkers(message.html, links, anchor) }, expiresAt };
  });
}
