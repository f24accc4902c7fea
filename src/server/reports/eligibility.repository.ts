import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { TDivision, TDocType } from '../../contract';
import type { Db } from '../platform/db/client';
import { documents, players, registrations, seasons } from '../platform/db/schema';

/**
 * What the eligibility packet reads of a division in a season: its roster and the verified documents of its
 * children. Two statements for the whole division, whatever its size: the roster in name order, and every
 * verified, unpurged document of the same children in any season (a birth certificate verified in an earlier
 * season still counts), so the packet names the document that makes each type count.
 */

/** The division's players in the season, by last name, first name, id (registrations_season_division_name_idx). */
export const readEligibilityRoster = (db: Db, seasonId: string, division: TDivision) =>
  db
    .select({
      playerId: registrations.playerId,
      childKey: players.childKey,
      firstName: players.firstName,
      lastName: players.lastName,
      birthDate: players.birthDate,
      birthCertificate: registrations.birthCertificateStatus,
      residency: registrations.residencyStatus,
      medical: registrations.medicalStatus,
      waiver: registrations.waiverStatus,
    })
    .from(registrations)
    .innerJoin(players, eq(players.id, registrations.playerId))
    .where(and(eq(registrations.seasonId, seasonId), eq(registrations.division, division)))
    .orderBy(asc(registrations.lastName), asc(registrations.firstName), asc(registrations.playerId));

export type EligibilityRosterRow = Awaited<ReturnType<typeof readEligibilityRoster>>[number];

/**
 * Every verified document, of any season, of a child registered in the division this season: the ones a
 * season's rule may count (purged ones never do; a file removed after verification still does).
 */
export function readEligibilityDocuments(db: Db, seasonId: string, division: TDivision) {
  const children = db
    .select({ childKey: players.childKey })
    .from(registrations)
    .innerJoin(players, eq(players.id, registrations.playerId))
    .where(and(eq(registrations.seasonId, seasonId), eq(registrations.division, division)));
  return db
    .select({
      id: documents.id,
      playerId: documents.playerId,
      childKey: players.childKey,
      seasonId: documents.seasonId,
      seasonName: seasons.name,
      docType: sql<TDocType>`${documents.docType}`,
      reviewedBy: documents.reviewedBy,
      reviewedAt: documents.reviewedAt,
      uploadedAt: documents.uploadedAt,
      documentDate: documents.documentDate,
      residencyGroup: documents.residencyGroup,
    })
    .from(documents)
    .innerJoin(players, eq(players.id, documents.playerId))
    .innerJoin(seasons, eq(seasons.id, documents.seasonId))
    .where(and(inArray(players.childKey, children), eq(documents.status, 'verified'), isNull(documents.purgedAt), isNotNull(documents.docType)))
    .orderBy(asc(documents.id));
}

export type EligibilityDocumentRow = Awaited<ReturnType<typeof readEligibilityDocuments>>[number];

