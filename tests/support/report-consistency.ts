import { expect } from 'vitest';
import type { Db } from '../../src/server/platform/db/client';
import { documents, players, registrations, seasonBreakdown, seasonRequirements, seasons, seasonTotals } from '../../src/server/platform/db/schema';
import { judgeRegistration, readRequirementDay, type RuleDocument } from '../../src/server/requirements';

/**
 * Recomputes every registration's summary and every season_totals sum from the raw documents, in plain
 * TypeScript with the rule engine (src/server/requirements/rule-engine.ts: the season's rules over the child's
 * documents of every season, judged on requirement_day or the season's last day), and expects the database's to
 * equal it (decisions 012 and 030). live and pending documents count this season's documents of the player.
 * Then the season report's breakdown (season_breakdown, decision 032) against the registrations grouped here.
 */
export async function expectSummariesMatchDocuments(db: Db): Promise<void> {
  const regs = await db.select().from(registrations);
  const docs = await db.select().from(documents);
  const childOf = new Map((await db.select({ id: players.id, childKey: players.childKey }).from(players)).map((p) => [p.id, p.childKey]));
  const seasonEnds = new Map((await db.select({ id: seasons.id, endsOn: seasons.endsOn }).from(seasons)).map((s) => [s.id, s.endsOn]));
  const rules = await db.select().from(seasonRequirements);
  const today = await readRequirementDay(db);
  const ruleDocs: RuleDocument[] = docs.map((d) => ({
    id: d.id,
    playerId: d.playerId,
    seasonId: d.seasonId,
    docType: d.docType,
    status: d.status,
    uploadedAt: d.uploadedAt,
    reviewedAt: d.reviewedAt,
    documentDate: d.documentDate,
    residencyGroup: d.residencyGroup,
    purged: d.purgedAt !== null,
  }));
  for (const reg of regs) {
    const child = childOf.get(reg.playerId);
    const mine = docs.filter((d) => d.playerId === reg.playerId && d.seasonId === reg.seasonId && d.purgedAt === null);
    const judged = judgeRegistration(
      {
        playerId: reg.playerId,
        seasonId: reg.seasonId,
        seasonEndsOn: seasonEnds.get(reg.seasonId) ?? '',
        registeredAt: reg.registeredAt,
        rules: rules
          .filter((rule) => rule.seasonId === reg.seasonId)
          .map((rule) => ({ docType: rule.docType, required: rule.required, lasts: rule.lasts, months: rule.months, documents: rule.documents, groups: rule.groups, datedFrom: rule.datedFrom, datedTo: rule.datedTo })),
      },
      ruleDocs.filter((d) => childOf.get(d.playerId) === child),
      today,
    );
    expect(
      {
        playerId: reg.playerId,
        seasonId: reg.seasonId,
        birthCertificateStatus: reg.birthCertificateStatus,
        residencyStatus: reg.residencyStatus,
        medicalStatus: reg.medicalStatus,
        waiverStatus: reg.waiverStatus,
        completeTypes: reg.completeTypes,
        pendingTypes: reg.pendingTypes,
        completedAt: reg.completedAt,
        expiresOn: reg.expiresOn,
        liveDocuments: reg.liveDocuments,
        pendingDocuments: reg.pendingDocuments,
      },
      `summary of ${reg.playerId} in ${reg.seasonId}`,
    ).toEqual({
      playerId: reg.playerId,
      seasonId: reg.seasonId,
      birthCertificateStatus: judged.statuses.birth_certificate,
      residencyStatus: judged.statuses.residency,
      medicalStatus: judged.statuses.medical,
      waiverStatus: judged.statuses.waiver,
      completeTypes: judged.completeTypes,
      pendingTypes: judged.pendingTypes,
      completedAt: judged.completedAt,
      expiresOn: judged.expiresOn,
      liveDocuments: mine.filter((d) => d.status !== 'rejected').length,
      pendingDocuments: mine.filter((d) => d.status === 'pending').length,
    });
  }

  const expected = new Map<string, number[]>();
  for (const reg of regs) {
    const key = `${reg.seasonId}/${reg.division}`;
    const sums = expected.get(key) ?? [0, 0, 0, 0, 0];
    const add = [1, reg.completeTypes === 4 ? 1 : 0, reg.pendingTypes > 0 ? 1 : 0, reg.liveDocuments, reg.pendingDocuments];
    expected.set(key, sums.map((n, i) => n + (add[i] ?? 0)));
  }
  const actual = new Map<string, number[]>();
  for (const row of await db.select().from(seasonTotals)) {
    const key = `${row.seasonId}/${row.division}`;
    const sums = actual.get(key) ?? [0, 0, 0, 0, 0];
    const add = [row.players, row.completePlayers, row.pendingPlayers, row.liveDocuments, row.pendingDocuments];
    actual.set(key, sums.map((n, i) => n + (add[i] ?? 0)));
  }
  // A division whose registrations all left keeps a row of zeros.
  const nonZero = (map: Map<string, number[]>) => Object.fromEntries([...map].filter(([, sums]) => sums.some((n) => n !== 0)));
  expect(nonZero(actual), 'season_totals').toEqual(nonZero(expected));

  await expectBreakdownMatchesRegistrations(db);
}

/** The first day of a timestamp's month in UTC, as a date column reads: 'YYYY-MM-01'. */
const utcMonth = (at: Date) => `${String(at.getUTCFullYear()).padStart(4, '0')}-${String(at.getUTCMonth() + 1).padStart(2, '0')}-01`;

/**
 * season_breakdown, summed over its slots, must hold exactly the registrations grouped by season, division,
 * completeness, the four statuses and the UTC months of registration and completion (decision 032); and no
 * row of it may be zero (a slot's row that reaches zero is deleted by the write that emptied it).
 */
export async function expectBreakdownMatchesRegistrations(db: Db): Promise<void> {
  const keyOf = (row: {
    seasonId: string;
    division: string;
    complete: boolean;
    statuses: readonly string[];
    registeredMonth: string;
    completedMonth: string | null;
  }) => [row.seasonId, row.division, row.complete ? 'complete' : 'incomplete', ...row.statuses, row.registeredMonth, row.completedMonth ?? 'never'].join(' / ');
  const expected = new Map<string, number>();
  for (const reg of await db.select().from(registrations)) {
    const key = keyOf({
      seasonId: reg.seasonId,
      division: reg.division,
      complete: reg.completeTypes === 4,
      statuses: [reg.birthCertificateStatus, reg.residencyStatus, reg.medicalStatus, reg.waiverStatus],
      registeredMonth: utcMonth(reg.registeredAt),
      completedMonth: reg.completedAt === null ? null : utcMonth(reg.completedAt),
    });
    expected.set(key, (expected.get(key) ?? 0) + 1);
  }
  const actual = new Map<string, number>();
  const rows = await db.select().from(seasonBreakdown);
  for (const row of rows) {
    const key = keyOf({ ...row, statuses: [row.birthCertificateStatus, row.residencyStatus, row.medicalStatus, row.waiverStatus] });
    actual.set(key, (actual.get(key) ?? 0) + row.players);
  }
  const nonZero = (map: Map<string, number>) => Object.fromEntries([...map].filter(([, n]) => n !== 0));
  expect(nonZero(actual), 'season_breakdown summed over slots').toEqual(nonZero(expected));
  expect(rows.filter((row) => row.players === 0), 'season_breakdown rows of zero').toEqual([]);
}
