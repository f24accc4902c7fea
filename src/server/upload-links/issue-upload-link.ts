import { auditActorColumns, recordAuditEvent, type AuditActor } from '../audit';
import type { Db } from '../platform/db/client';
import { hashUploadToken, newUploadToken, uploadLinkUrl } from './upload-link-token';
import { insertUploadLink } from './upload-links.repository';

const DAY_MS = 24 * 60 * 60_000;

export type IssuedUploadLink = { id: string; url: string; expiresAt: Date };

/**
 * Issues a new upload link for a player and season and audits it, in the caller's transaction (a send
 * records its message and its links together). The token is returned once, inside the URL, and kept only
 * as its hash. `why` says what it was issued for in the audit ('copied', 'sent', 'reminder').
 */
export async function issueUploadLink(
  db: Db,
  input: { playerId: string; seasonId: string; actor: AuditActor; origin: string; days: number; now: Date; why: string; requestId?: string | null },
): Promise<IssuedUploadLink> {
  const token = newUploadToken();
  const expiresAt = new Date(input.now.getTime() + input.days * DAY_MS);
  const row = await insertUploadLink(db, {
    tokenHash: hashUploadToken(token),
    playerId: input.playerId,
    seasonId: input.seasonId,
    issuedBy: auditActorColumns(input.actor).actorName,
    createdAt: input.now,
    expiresAt,
  });
  await recordAuditEvent(db, {
    actor: input.actor,
    action: 'upload_link.issued',
    subjectType: 'player',
    subjectId: input.playerId,
    detail: { seasonId: input.seasonId, linkId: row.id, expiresAt: expiresAt.toISOString(), why: input.why },
    requestId: input.requestId ?? null,
  });
  return { id: row.id, url: uploadLinkUrl(input.origin, token), expiresAt };
}
