import { and, count, desc, eq, gt, isNotNull, isNull, max, sql } from 'drizzle-orm';
import type { TDocType, TDocumentStatus, TDivision } from '../../contract';
import type { Db } from '../platform/db/client';
import { documents, players, registrations, seasons, submissions, uploadLinks } from '../platform/db/schema';

export type UploadLinkRow = typeof uploadLinks.$inferSelect;

export async function insertUploadLink(db: Db, row: Pick<UploadLinkRow, 'tokenHash' | 'playerId' | 'seasonId' | 'issuedBy' | 'createdAt' | 'expiresAt'>): Promise<UploadLinkRow> {
  const [inserted] = await db.insert(uploadLinks).values(row).returning();
  if (!inserted) throw new Error('The upload link was not stored.');
  return inserted;
}

/** The link with this token hash, whatever its state (the caller tells expired and revoked apart). */
export async function findUploadLinkByHash(db: Db, tokenHash: string): Promise<UploadLinkRow | undefined> {
  const [row] = await db.select().from(uploadLinks).where(eq(uploadLinks.tokenHash, tokenHash));
  return row;
}

/** The link, its row locked until the transaction ends: uploads through one link are recorded one at a time. */
export async function lockUploadLink(db: Db, id: string): Promise<UploadLinkRow | undefined> {
  const [row] = await db.select().from(uploadLinks).where(eq(uploadLinks.id, id)).for('update');
  return row;
}

/** Stops every working link of a player for a season; answers how many. */
export async function revokeUploadLinks(db: Db, playerId: string, seasonId: string, now: Date): Promise<number> {
  const revoked = await db
    .update(uploadLinks)
    .set({ revokedAt: now })
    .where(and(eq(uploadLinks.playerId, playerId), eq(uploadLinks.seasonId, seasonId), isNull(uploadLinks.revokedAt), gt(uploadLinks.expiresAt, now)))
    .returning({ id: uploadLinks.id });
  return revoked.length;
}

/** The family opened the page or sent a file through the link. */
export async function touchUploadLink(db: Db, id: string, now: Date): Promise<void> {
  await db.update(uploadLinks).set({ lastUsedAt: now }).where(eq(uploadLinks.id, id));
}

/** Submissions recorded through the link since `since` (the upload limit's window). */
export async function countUploadsSince(db: Db, linkId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db
    .select({ n: count(), oldest: sql<Date | string | null>`min(${submissions.receivedAt})` })
    .from(submissions)
    .where(and(eq(submissions.uploadLinkId, linkId), gt(submissions.receivedAt, since)));
  const oldest = row?.oldest ?? null;
  return { count: row?.n ?? 0, oldest: oldest === null ? null : new Date(oldest) };
}

/** For the staff side: how many of the player's links for the season still work, when one was last issued and used. */
export async function uploadLinkStatus(db: Db, playerId: string, seasonId: string, now: Date): Promise<{ active: number; lastIssuedAt: Date | null; lastUsedAt: Date | null }> {
  const [row] = await db
    .select({
      active: sql<number>`count(*) filter (where ${uploadLinks.revokedAt} is null and ${uploadLinks.expiresAt} > ${now})`.mapWith(Number),
      lastIssuedAt: max(uploadLinks.createdAt),
      lastUsedAt: max(uploadLinks.lastUsedAt),
    })
    .from(uploadLinks)
    .where(and(eq(uploadLinks.playerId, playerId), eq(uploadLinks.seasonId, seasonId)));
  return { active: row?.active ?? 0, lastIssuedAt: row?.lastIssuedAt ?? null, lastUsedAt: row?.lastUsedAt ?? null };
}

/** The player's registration for the season, with the division (for the principal's scope) and the season's name. */
export async function findRegistrationOf(db: Db, playerId: string, seasonId: string): Promise<{ division: TDivision; seasonName: string } | undefined> {
  const [row] = await db
    .select({ division: registrations.division, seasonName: seasons.name })
    .from(registrations)
    .innerJoin(seasons, eq(seasons.id, registrations.seasonId))
    .where(and(eq(registrations.playerId, playerId), eq(registrations.seasonId, seasonId)));
  return row;
}

/** What the family page tells of the player and season: the first name, the season's name and deadline. */
export async function findFamilyPageFacts(
  db: Db,
  playerId: string,
  seasonId: string,
): Promise<{ firstName: string; seasonName: string; registrationDeadline: string; closed: boolean } | undefined> {
  const [row] = await db
    .select({
      firstName: players.firstName,
      seasonName: seasons.name,
      registrationDeadline: sql<string>`coalesce(${seasons.registrationDeadline}, ${seasons.endsOn})`,
      closed: sql<boolean>`${seasons.closedAt} is not null`,
    })
    .from(registrations)
    .innerJoin(players, eq(players.id, registrations.playerId))
    .innerJoin(seasons, eq(seasons.id, registrations.seasonId))
    .where(and(eq(registrations.playerId, playerId), eq(registrations.seasonId, seasonId)));
  return row;
}

export type FamilyDocumentRow = { docType: TDocType; status: TDocumentStatus; reviewNotes: string | null; uploadedAt: Date };

/** The player's documents of the season that are still kept (not purged), of a known type, newest first. */
export async function listFamilyDocuments(db: Db, playerId: string, seasonId: string): Promise<FamilyDocumentRow[]> {
  const rows = await db
    .select({ docType: documents.docType, status: documents.status, reviewNotes: documents.reviewNotes, uploadedAt: documents.uploadedAt })
    .from(documents)
    .where(
      and(
        eq(documents.playerId, playerId),
        eq(documents.seasonId, seasonId),
        isNull(documents.purgedAt),
        isNotNull(documents.docType),
      ),
    )
    .orderBy(desc(documents.uploadedAt), desc(documents.createdAt));
  return rows.flatMap((row) => (row.docType === null ? [] : [{ ...row, docType: row.docType }]));
}
