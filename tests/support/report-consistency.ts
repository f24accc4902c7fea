import { expect } from 'vitest';
import { DOC_TYPES, type TPlayerDocStatus } from '../../src/contract';
import type { Db } from '../../src/server/platform/db/client';
import { documents, registrations, seasonTotals } from '../../src/server/platform/db/schema';

const RANK: Record<string, number> = { verified: 1, pending: 2, processing: 3 };
const STATUS_OF_RANK: Record<number, TPlayerDocStatus> = { 1: 'complete', 2: 'pending', 3: 'processing', 4: 'missing' };

/**
 * Recomputes every registration's summary and every season_totals sum from the raw documents, in plain
 * TypeScript (the rule of docs/decisions/012-registration-status-summary.md: per type the best of
 * verified > pending > processing, else missing; purged documents and those without a type count for no
 * type; completedAt), and expects the database's to equal it.
 */
export async function expectSummariesMatchDocuments(db: Db): Promise<void> {
  const regs = await db.select().from(registrations);
  const docs = await db.select().from(documents);
  for (const reg of regs) {
    const mine = docs.filter((d) => d.playerId === reg.playerId && d.seasonId === reg.seasonId && d.purgedAt === null);
    const statusOf = (type: string): TPlayerDocStatus =>
      STATUS_OF_RANK[Math.min(4, ...mine.filter((d) => d.docType === type).map((d) => RANK[d.status] ?? 4))] ?? 'missing';
    const statuses = DOC_TYPES.map(statusOf);
    // When the last type got its first verified document (review time, else upload time), while all four are complete.
    const verifiedSince = DOC_TYPES.map((type) =>
      Math.min(...mine.filter((d) => d.docType === type && d.status === 'verified').map((d) => (d.reviewedAt ?? d.uploadedAt).getTime())),
    );
    const completedAt = statuses.every((s) => s === 'complete') ? new Date(Math.max(...verifiedSince)) : null;
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
        liveDocuments: reg.liveDocuments,
        pendingDocuments: reg.pendingDocuments,
      },
      `summary of ${reg.playerId} in ${reg.seasonId}`,
    ).toEqual({
      playerId: reg.playerId,
      seasonId: reg.seasonId,
      birthCertificateStatus: statuses[0],
      residencyStatus: statuses[1],
      medicalStatus: statuses[2],
      waiverStatus: statuses[3],
      completeTypes: statuses.filter((s) => s === 'complete').length,
      pendingTypes: statuses.filter((s) => s === 'pending').length,
      completedAt,
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
}
