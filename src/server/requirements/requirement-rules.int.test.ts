import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TDocType, TDocumentStatus } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { expectSummariesMatchDocuments } from '../../../tests/support/report-consistency';
import { judgeSummariesOn } from '../../../tests/support/requirement-day';
import { SHARED_PRINCIPAL } from '../auth';
import type { Db } from '../platform/db/client';
import { documents, players, registrations, seasonRequirements, seasons } from '../platform/db/schema';
import { createLogger } from '../platform/logger';
import { createReportsService } from '../reports';
import { readRequirementDay } from './requirement-day.repository';
import { createRequirementDayHandler } from './requirement-day';

const FALL_2025 = { id: 'fall-2025', name: 'Fall 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-01', endsOn: '2025-11-30', registrationDeadline: '2025-08-31' } as const;
const FALL_2026 = { id: 'fall-2026', name: 'Fall 2026', kind: 'Fall Ball', year: 2026, startsOn: '2026-07-15', endsOn: '2026-11-30', registrationDeadline: '2026-08-31', isCurrent: true } as const;

/** The same child under each year's player id: the id differs only in its year. */
const MAYA_2025 = 'CB-2025-4d1a9e07';
const MAYA_2026 = 'CB-2026-4d1a9e07';
/** Another child, to show nothing leaks between children. */
const OWEN_2026 = 'CB-2026-77aa0b3c';

async function addDocument(
  db: Db,
  playerId: string,
  seasonId: string,
  docType: TDocType,
  on: string,
  extra: { status?: TDocumentStatus; documentDate?: string } = {},
): Promise<string> {
  const status = extra.status ?? 'verified';
  const [row] = await db
    .insert(documents)
    .values({
      playerId,
      seasonId,
      docType,
      status,
      originalFilename: `${docType}.pdf`,
      bytes: 1000,
      fileSha256: randomBytes(32).toString('hex'),
      uploadedAt: new Date(`${on}T10:00:00Z`),
      reviewedAt: status === 'verified' ? new Date(`${on}T16:00:00Z`) : null,
      documentDate: extra.documentDate ?? null,
    })
    .returning({ id: documents.id });
  if (!row) throw new Error('no document written');
  return row.id;
}

const summaryOf = async (db: Db, playerId: string, seasonId: string) => {
  const [row] = await db
    .select({
      birthCertificate: registrations.birthCertificateStatus,
      residency: registrations.residencyStatus,
      medical: registrations.medicalStatus,
      waiver: registrations.waiverStatus,
      completeTypes: registrations.completeTypes,
      expiresOn: registrations.expiresOn,
    })
    .from(registrations)
    .where(and(eq(registrations.playerId, playerId), eq(registrations.seasonId, seasonId)));
  return row;
};

/**
 * The rules on a real database, PGlite and PostgreSQL: a returning child's verified birth certificate and
 * still-valid medical form count in the new season, so the yearly documents complete them; the day their
 * medical form runs out (an injected clock drives the hourly job), they turn incomplete everywhere.
 */
describeEachDatabase('requirement rules over two seasons', ({ getDb }) => {
  const reports = () => createReportsService({ db: getDb(), storageFor: () => { throw new Error('no storage in this test'); }, now: () => new Date('2026-08-05T12:00:00Z') });

  beforeAll(async () => {
    const db = getDb();
    await db.insert(seasons).values([FALL_2025, FALL_2026]);
    await db.insert(players).values([
      { id: MAYA_2025, firstName: 'Maya', lastName: 'Ortiz', birthDate: '2015-05-04' },
      { id: MAYA_2026, firstName: 'Maya', lastName: 'Ortiz', birthDate: '2015-05-04' },
      { id: OWEN_2026, firstName: 'Owen', lastName: 'Reyes', birthDate: '2015-07-21' },
    ]);
    await db.insert(registrations).values([
      { playerId: MAYA_2025, seasonId: FALL_2025.id, division: 'AA' },
      { playerId: MAYA_2026, seasonId: FALL_2026.id, division: 'AAA' },
      { playerId: OWEN_2026, seasonId: FALL_2026.id, division: 'AAA' },
    ]);
    // Fall 2025: all four, the medical exam on 10 August 2025.
    await addDocument(db, MAYA_2025, FALL_2025.id, 'birth_certificate', '2025-08-12');
    await addDocument(db, MAYA_2025, FALL_2025.id, 'residency', '2025-08-12');
    await addDocument(db, MAYA_2025, FALL_2025.id, 'medical', '2025-08-12', { documentDate: '2025-08-10' });
    await addDocument(db, MAYA_2025, FALL_2025.id, 'waiver', '2025-08-12');
    await judgeSummariesOn(db, '2026-07-20');
  });

  it('gives every season the default rules', async () => {
    const rules = await getDb().select().from(seasonRequirements).where(eq(seasonRequirements.seasonId, FALL_2026.id));
    expect(Object.fromEntries(rules.map((rule) => [rule.docType, [rule.required, rule.lasts, rule.months]]))).toEqual({
      birth_certificate: [true, 'forever', null],
      residency: [true, 'season', null],
      medical: [true, 'months', 12],
      waiver: [true, 'season', null],
    });
  });

  it('carries the birth certificate and the medical form into the new season before anything is uploaded', async () => {
    expect(await summaryOf(getDb(), MAYA_2026, FALL_2026.id)).toEqual({
      birthCertificate: 'complete',
      residency: 'missing',
      medical: 'complete',
      waiver: 'missing',
      completeTypes: 2,
      expiresOn: '2026-08-10',
    });
    // Another child gets nothing of Maya's.
    expect(await summaryOf(getDb(), OWEN_2026, FALL_2026.id)).toMatchObject({ birthCertificate: 'missing', medical: 'missing', completeTypes: 0 });
    await expectSummariesMatchDocuments(getDb());
  });

  it('is complete in the new season after uploading only the yearly documents', async () => {
    const db = getDb();
    await addDocument(db, MAYA_2026, FALL_2026.id, 'residency', '2026-07-22');
    const waiver = await addDocument(db, MAYA_2026, FALL_2026.id, 'waiver', '2026-07-22', { status: 'pending' });
    expect(await summaryOf(db, MAYA_2026, FALL_2026.id)).toMatchObject({ residency: 'complete', waiver: 'pending', completeTypes: 3 });

    await db.update(documents).set({ status: 'verified', reviewedAt: new Date('2026-07-23T09:00:00Z') }).where(eq(documents.id, waiver));
    expect(await summaryOf(db, MAYA_2026, FALL_2026.id)).toEqual({
      birthCertificate: 'complete',
      residency: 'complete',
      medical: 'complete',
      waiver: 'complete',
      completeTypes: 4,
      expiresOn: '2026-08-10',
    });
    expect(await reports().getStats(FALL_2026.id, SHARED_PRINCIPAL)).toMatchObject({ totalPlayers: 2, completeProfiles: 1 });
    const complete = await reports().getMissingReport({ season: FALL_2026.id, division: 'all', status: 'complete', page: 1 }, SHARED_PRINCIPAL);
    expect(complete.players.map((row) => row.playerId)).toEqual([MAYA_2026]);
    // The 2025 season is judged as it ended: complete, nothing lapsing within it.
    expect(await summaryOf(db, MAYA_2025, FALL_2025.id)).toMatchObject({ completeTypes: 4, expiresOn: null });
    await expectSummariesMatchDocuments(db);
  });

  it('turns incomplete on the day the medical form expires, by the hourly job on an injected clock', async () => {
    const db = getDb();
    let clock = new Date('2026-08-09T23:30:00Z');
    const run = createRequirementDayHandler({ db, log: createLogger('silent'), now: () => clock });

    expect(await run({}, { id: 1, attempt: 1 })).toEqual({ kind: 'done' });
    expect(await readRequirementDay(db)).toBe('2026-08-09');
    expect(await summaryOf(db, MAYA_2026, FALL_2026.id)).toMatchObject({ medical: 'complete', completeTypes: 4 });

    clock = new Date('2026-08-10T00:30:00Z');
    await run({}, { id: 1, attempt: 1 });
    expect(await readRequirementDay(db)).toBe('2026-08-10');
    expect(await summaryOf(db, MAYA_2026, FALL_2026.id)).toEqual({
      birthCertificate: 'complete',
      residency: 'complete',
      medical: 'expired',
      waiver: 'complete',
      completeTypes: 3,
      expiresOn: null,
    });
    expect(await reports().getStats(FALL_2026.id, SHARED_PRINCIPAL)).toMatchObject({ completeProfiles: 0 });
    const incomplete = await reports().getMissingReport({ season: FALL_2026.id, division: 'all', status: 'incomplete', page: 1 }, SHARED_PRINCIPAL);
    expect(incomplete.players.map((row) => row.playerId)).toEqual([MAYA_2026, OWEN_2026]);
    await expectSummariesMatchDocuments(db);

    // The day never moves back.
    clock = new Date('2026-08-01T12:00:00Z');
    await run({}, { id: 1, attempt: 1 });
    expect(await readRequirementDay(db)).toBe('2026-08-10');
  });

  it('is complete again once a new medical form is approved, counted from its exam date', async () => {
    const db = getDb();
    await addDocument(db, MAYA_2026, FALL_2026.id, 'medical', '2026-08-11', { documentDate: '2026-08-08' });
    expect(await summaryOf(db, MAYA_2026, FALL_2026.id)).toMatchObject({ medical: 'complete', completeTypes: 4, expiresOn: null });
    await expectSummariesMatchDocuments(db);
  });

  describe('changing a season’s rules', () => {
    it('recomputes its registrations: a type no longer required counts as met', async () => {
      const db = getDb();
      await db.update(seasonRequirements).set({ required: false }).where(and(eq(seasonRequirements.seasonId, FALL_2026.id), eq(seasonRequirements.docType, 'residency')));
      expect(await summaryOf(db, OWEN_2026, FALL_2026.id)).toMatchObject({ residency: 'not_required', completeTypes: 1 });
      await db
        .update(seasonRequirements)
        .set({ lasts: 'season' })
        .where(and(eq(seasonRequirements.seasonId, FALL_2026.id), eq(seasonRequirements.docType, 'birth_certificate')));
      expect(await summaryOf(db, MAYA_2026, FALL_2026.id)).toMatchObject({ birthCertificate: 'missing', completeTypes: 3 });
      await expectSummariesMatchDocuments(db);
    });
  });
});
