import { and, asc, eq, gte, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { TDocType, TPlayerDocStatus, TPlayerListFilterParsed, TPrincipal } from '../../contract';
import type { Db } from '../platform/db/client';
import { inDivisions, registrationInDivisions, type DivisionScope } from '../platform/db/division-scope';
import { EXPIRING, int, listEveryFilteredPlayer, needsDocument } from '../reports';
import { documents, players, registrations, seasons, users } from '../platform/db/schema';

export type SeasonFamily = {
  playerId: string;
  firstName: string;
  lastName: string;
  guardianName: string | null;
  guardianEmail: string | null;
  birthCertificate: TPlayerDocStatus;
  residency: TPlayerDocStatus;
  medical: TPlayerDocStatus;
  waiver: TPlayerDocStatus;
  /** The first day a met requirement lapses (YYYY-MM-DD); null when none does. */
  expiresOn: string | null;
};

/** A season's player, their guardian and per-type status, as SeasonFamily reads them. */
export const SEASON_FAMILY_COLUMNS = {
  playerId: players.id,
  firstName: players.firstName,
  lastName: players.lastName,
  guardianName: players.guardianName,
  guardianEmail: players.guardianEmail,
  birthCertificate: registrations.birthCertificateStatus,
  residency: registrations.residencyStatus,
  medical: registrations.medicalStatus,
  waiver: registrations.waiverStatus,
  expiresOn: registrations.expiresOn,
};

/**
 * A type counts as missing when the registration summary says so (none, rejected or purged) or its approval
 * has lapsed ('expired'): either way the family must send one.
 */
const hasMissingType = or(
  needsDocument(registrations.birthCertificateStatus),
  needsDocument(registrations.residencyStatus),
  needsDocument(registrations.medicalStatus),
  needsDocument(registrations.waiverStatus),
);

/** Missing a type, or with an approval expiring within EXPIRING_WITHIN_DAYS days: the families a reminder goes to. */
export const needsDocumentOrExpiring = or(hasMissingType, EXPIRING);

/**
 * The season's players (of the scope's divisions) with their guardian and per-type status, by name;
 * `onlyMissing` keeps those missing a type or with one expiring soon.
 */
export function listSeasonFamilies(db: Db, seasonId: string, options: { onlyMissing: boolean; scope: DivisionScope }): Promise<SeasonFamily[]> {
  return db
    .select(SEASON_FAMILY_COLUMNS)
    .from(registrations)
    .innerJoin(players, eq(players.id, registrations.playerId))
    .where(and(eq(registrations.seasonId, seasonId), inDivisions(registrations.division, options.scope), options.onlyMissing ? needsDocumentOrExpiring : undefined))
    .orderBy(asc(registrations.lastName), asc(registrations.firstName), asc(registrations.playerId));
}

/**
 * The families of a Players list: the players its filters keep (every page, in its order, within the
 * principal's divisions), read by the very query the list pages over.
 */
export async function listPlayersListFamilies(db: Db, filter: TPlayerListFilterParsed, principal: Pick<TPrincipal, 'divisions'>): Promise<SeasonFamily[]> {
  const rows = await listEveryFilteredPlayer(db, filter, principal);
  return rows.map((row) => ({
    playerId: row.playerId,
    firstName: row.firstName,
    lastName: row.lastName,
    guardianName: row.guardianName,
    guardianEmail: row.guardianEmail,
    birthCertificate: row.birthCertificateStatus,
    residency: row.residencyStatus,
    medical: row.medicalStatus,
    waiver: row.waiverStatus,
    expiresOn: row.expiresOn,
  }));
}

/**
 * The season's players (of the scope's divisions) not yet Complete, those missing a document or with one
 * expiring soon, and of these the ones with a guardian e-mail: one read, so the figures the quick action shows
 * agree with each other and with the recipients 'Players with Missing Documents' makes (one message per player
 * with an e-mail).
 */
export async function countIncompletePlayers(
  db: Db,
  seasonId: string,
  scope: DivisionScope,
): Promise<{ incomplete: number; missing: number; missingWithEmail: number }> {
  const withEmail = sql`nullif(btrim(${players.guardianEmail}), '') is not null`;
  const [row] = await db
    .select({
      incomplete: int(sql`count(*) filter (where ${lt(registrations.completeTypes, 4)})`),
      missing: int(sql`count(*) filter (where ${needsDocumentOrExpiring})`),
      missingWithEmail: int(sql`count(*) filter (where ${and(needsDocumentOrExpiring, withEmail)})`),
    })
    .from(registrations)
    .innerJoin(players, eq(players.id, registrations.playerId))
    .where(and(eq(registrations.seasonId, seasonId), inDivisions(registrations.division, scope)));
  return { incomplete: row?.incomplete ?? 0, missing: row?.missing ?? 0, missingWithEmail: row?.missingWithEmail ?? 0 };
}

export type Administrator = { email: string; firstName: string; lastName: string };

/** Active users with the admin role. */
export const listAdministrators = (db: Db): Promise<Administrator[]> =>
  db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.status, 'active')))
    .orderBy(asc(users.lastName), asc(users.firstName));

/**
 * Documents received since `since`, and of those reviewed since then, how many were approved and rejected;
 * pending: received and still waiting. Of the scope's divisions (by each document's registration).
 */
export async function countDocumentsSince(
  db: Db,
  since: Date,
  scope: DivisionScope,
): Promise<{ received: number; approved: number; rejected: number; pending: number }> {
  const reviewedSince = and(isNotNull(documents.reviewedAt), gte(documents.reviewedAt, since));
  const [row] = await db
    .select({
      received: int(sql`count(*) filter (where ${gte(documents.uploadedAt, since)})`),
      approved: int(sql`count(*) filter (where ${and(eq(documents.status, 'verified'), reviewedSince)})`),
      rejected: int(sql`count(*) filter (where ${and(eq(documents.status, 'rejected'), reviewedSince)})`),
      pending: int(sql`count(*) filter (where ${and(eq(documents.status, 'pending'), gte(documents.uploadedAt, since))})`),
    })
    .from(documents)
    .where(and(or(gte(documents.uploadedAt, since), gte(documents.reviewedAt, since)), registrationInDivisions(documents.playerId, documents.seasonId, scope)));
  return { received: row?.received ?? 0, approved: row?.approved ?? 0, rejected: row?.rejected ?? 0, pending: row?.pending ?? 0 };
}

export type RejectedDocumentFamily = {
  playerId: string;
  seasonId: string;
  docType: TDocType | null;
  firstName: string;
  lastName: string;
  guardianName: string | null;
  guardianEmail: string | null;
  seasonName: string;
};

/** The family a rejected document's notice goes to; with a scope, only a document of its divisions. */
export async function findDocumentFamily(db: Db, documentId: string, scope: DivisionScope = null): Promise<RejectedDocumentFamily | undefined> {
  const [row] = await db
    .select({
      playerId: documents.playerId,
      seasonId: documents.seasonId,
      docType: documents.docType,
      firstName: players.firstName,
      lastName: players.lastName,
      guardianName: players.guardianName,
      guardianEmail: players.guardianEmail,
      seasonName: seasons.name,
    })
    .from(documents)
    .innerJoin(players, eq(players.id, documents.playerId))
    .innerJoin(seasons, eq(seasons.id, documents.seasonId))
    .where(and(eq(documents.id, documentId), registrationInDivisions(documents.playerId, documents.seasonId, scope)));
  return row;
}

/** One player's family in a season, when the player is registered for it in one of the scope's divisions. */
export async function findSeasonFamily(db: Db, playerId: string, seasonId: string, scope: DivisionScope): Promise<SeasonFamily | undefined> {
  const [row] = await db
    .select(SEASON_FAMILY_COLUMNS)
    .from(registrations)
    .innerJoin(players, eq(players.id, registrations.playerId))
    .where(and(eq(registrations.seasonId, seasonId), eq(registrations.playerId, playerId), inDivisions(registrations.division, scope)));
  return row;
}
