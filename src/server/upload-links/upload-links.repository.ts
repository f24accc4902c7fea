import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { uploadLinks } from '../platform/db/schema';

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

/** Stops every working link of a player for a season; answers how many. */
export async function revokeUploadLinks(db: Db, playerId: string, seasonId: string, now: Date): Promise<number> {
  const revoked = await db
    .update(uploadLinks)
    .set({ revokedAt: now })
    .where(and(eq(uploadLinks.playerId, playerId), eq(uploadLinks.seasonId, seasonId), isNull(uploadLinks.revokedAt), gt(uploadLinks.expiresAt, now)))
    .returning({ id: uploadLinks.id });
  return revoked.length;
}
