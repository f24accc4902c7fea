import type { TDivision, TDocType, TDocumentStatus } from '../../src/contract';
import type { Db } from '../../src/server/platform/db/client';
import { insertDocuments, type NewDocument } from '../../src/server/documents/documents.repository';
import { insertPlayers } from '../../src/server/players/players.repository';
import { insertRegistrations } from '../../src/server/players/registrations.repository';
import { insertSeasons, type NewSeason } from '../../src/server/seasons/seasons.repository';

/**
 * A league of four Fall Ball seasons and two Spring Ball ones, whose season report figures are worked out by
 * hand in season-report.service.int.test.ts and season-report.routes.int.test.ts.
 *
 * | season           | starts     | players | complete | division |
 * |------------------|------------|---------|----------|----------|
 * | Fall Ball 2022   | 2022-08-15 | 2       | 1        | AA       |
 * | Fall Ball 2023   | 2023-08-15 | 4       | 2        | AA       |
 * | Spring Ball 2024 | 2024-03-01 | 3       | 3        | AA       |
 * | Fall Ball 2024   | 2024-08-15 | 6       | 3        | AA       |
 * | Spring Ball 2025 | 2025-03-01 | 5       | 1        | AA       |
 * | Fall Ball 2025   | 2025-08-15 | 8       | 4        | below    |  (current, ends 2025-11-30)
 * In the earlier seasons a complete player has four verified documents, reviewed ten days after the season
 * starts; the others have none.
 *
 * Fall Ball 2025 (v verified, p pending, pr processing, x rejected, – none):
 * | player       | div. | registered | birth | resid. | medical | waiver | complete since     | %   |
 * |--------------|------|------------|-------|--------|---------|--------|--------------------|-----|
 * | Fay One      | AAA  | 2025-08-20 | v     | v      | v       | v      | 2025-09-10         | 100 |
 * | Gus Two      | AAA  | 2025-08-20 | v     | v      | v       | v      | 2025-10-05         | 100 |
 * | Hal Three    | AA   | 2025-08-20 | v     | v      | v       | v      | 2025-09-20         | 100 |
 * | Ida Four     | A    | 2025-08-20 | v     | v      | v       | v      | 2025-10-12         | 100 |
 * | Jo Baker     | AA   | 2025-09-05 | v     | p      | pr      | –      |                    | 25  |
 * | Kim Cole     | AA   | 2025-09-05 | v     | v      | v       | p      |                    | 75  |
 * | Lou Zed      | A    | 2025-10-01 | –     | –      | –       | –      |                    | 0   |
 * | Max Adams    | AAA  | 2025-07-30 | –     | –      | x       | v      |                    | 25  |
 */
export const SR_SEASONS = {
  fall2022: { id: 'fall-2022', name: 'Fall Ball 2022', kind: 'Fall Ball', year: 2022, startsOn: '2022-08-15', endsOn: '2022-11-30' },
  fall2023: { id: 'fall-2023', name: 'Fall Ball 2023', kind: 'Fall Ball', year: 2023, startsOn: '2023-08-15', endsOn: '2023-11-30' },
  spring2024: { id: 'spring-2024', name: 'Spring Ball 2024', kind: 'Spring Ball', year: 2024, startsOn: '2024-03-01', endsOn: '2024-06-30' },
  fall2024: { id: 'fall-2024', name: 'Fall Ball 2024', kind: 'Fall Ball', year: 2024, startsOn: '2024-08-15', endsOn: '2024-11-30' },
  spring2025: { id: 'spring-2025', name: 'Spring Ball 2025', kind: 'Spring Ball', year: 2025, startsOn: '2025-03-01', endsOn: '2025-06-30' },
  fall2025: { id: 'fall-2025', name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-15', endsOn: '2025-11-30', isCurrent: true },
} satisfies Record<string, NewSeason>;

/** Players and complete players of the earlier seasons (all in AA). */
const EARLIER: Array<{ season: NewSeason; players: number; complete: number }> = [
  { season: SR_SEASONS.fall2022, players: 2, complete: 1 },
  { season: SR_SEASONS.fall2023, players: 4, complete: 2 },
  { season: SR_SEASONS.spring2024, players: 3, complete: 3 },
  { season: SR_SEASONS.fall2024, players: 6, complete: 3 },
  { season: SR_SEASONS.spring2025, players: 5, complete: 1 },
];

export const SR = {
  fay: 'CB-2025-000000f1',
  gus: 'CB-2025-000000f2',
  hal: 'CB-2025-000000f3',
  ida: 'CB-2025-000000f4',
  jo: 'CB-2025-000000f5',
  kim: 'CB-2025-000000f6',
  lou: 'CB-2025-000000f7',
  max: 'CB-2025-000000f8',
} as const;

type Doc = { playerId: string; seasonId: string; docType: TDocType; status: TDocumentStatus; reviewed?: string };
const ALL_TYPES: TDocType[] = ['birth_certificate', 'residency', 'medical', 'waiver'];
const verifiedSet = (playerId: string, seasonId: string, reviewed: string): Doc[] =>
  ALL_TYPES.map((docType) => ({ playerId, seasonId, docType, status: 'verified', reviewed }));

function toRow(doc: Doc, index: number): NewDocument {
  const id = `00000000-0000-4000-a000-${String(index).padStart(12, '0')}`;
  const reviewedAt = doc.reviewed ? new Date(doc.reviewed) : null;
  return {
    id,
    playerId: doc.playerId,
    seasonId: doc.seasonId,
    docType: doc.docType,
    originalFilename: `${doc.docType}-${index}.pdf`,
    status: doc.status,
    bytes: 1000 + index,
    fileSha256: `${String(index).padStart(4, '0')}${'cd'.repeat(30)}`,
    storageDriver: 'local',
    storageKey: `seasons/fixture/${doc.playerId}/${id}.pdf`,
    storedPath: `seasons/fixture/${doc.playerId}/${id}.pdf`,
    mime: 'application/pdf',
    // Uploaded a day before review (or 2025-09-15 when not reviewed).
    uploadedAt: reviewedAt ? new Date(reviewedAt.getTime() - 86_400_000) : new Date('2025-09-15T00:00:00Z'),
    reviewedAt,
    reviewNotes: doc.status === 'rejected' ? 'Unreadable' : null,
    purgedAt: null,
  };
}

/** Writes the league: seasons, players, registrations, then the documents (the triggers fill the summaries). */
export async function seedSeasonReportFixture(db: Db): Promise<void> {
  await insertSeasons(db, Object.values(SR_SEASONS));
  const people: Array<{ id: string; firstName: string; lastName: string }> = [
    { id: SR.fay, firstName: 'Fay', lastName: 'One' },
    { id: SR.gus, firstName: 'Gus', lastName: 'Two' },
    { id: SR.hal, firstName: 'Hal', lastName: 'Three' },
    { id: SR.ida, firstName: 'Ida', lastName: 'Four' },
    { id: SR.jo, firstName: 'Jo', lastName: 'Baker' },
    { id: SR.kim, firstName: 'Kim', lastName: 'Cole' },
    { id: SR.lou, firstName: 'Lou', lastName: 'Zed' },
    { id: SR.max, firstName: 'Max', lastName: 'Adams' },
  ];
  const regs: Array<{ playerId: string; seasonId: string; division: TDivision; registeredAt: Date }> = [];
  const docs: Doc[] = [];
  for (const { season, players, complete } of EARLIER) {
    for (let i = 0; i < players; i += 1) {
      const id = `CB-${season.year}-${season.kind === 'Fall Ball' ? 'fa' : 'bb'}${String(i).padStart(6, '0')}`;
      people.push({ id, firstName: `P${i}`, lastName: season.name.replace(/ /g, '') });
      regs.push({ playerId: id, seasonId: season.id, division: 'AA', registeredAt: new Date(`${season.startsOn}T12:00:00Z`) });
      const reviewed = new Date(new Date(`${season.startsOn}T12:00:00Z`).getTime() + 10 * 86_400_000).toISOString();
      if (i < complete) docs.push(...verifiedSet(id, season.id, reviewed));
    }
  }
  await insertPlayers(db, people.map((p) => ({ ...p, birthDate: '2014-01-01', guardianName: null, guardianEmail: null, guardianPhone: null })));

  const fall = SR_SEASONS.fall2025.id;
  const reg = (playerId: string, division: TDivision, day: string) => regs.push({ playerId, seasonId: fall, division, registeredAt: new Date(`${day}T12:00:00Z`) });
  reg(SR.fay, 'AAA', '2025-08-20');
  reg(SR.gus, 'AAA', '2025-08-20');
  reg(SR.hal, 'AA', '2025-08-20');
  reg(SR.ida, 'A', '2025-08-20');
  reg(SR.jo, 'AA', '2025-09-05');
  reg(SR.kim, 'AA', '2025-09-05');
  reg(SR.lou, 'A', '2025-10-01');
  reg(SR.max, 'AAA', '2025-07-30');
  await insertRegistrations(db, regs);

  docs.push(
    ...verifiedSet(SR.fay, fall, '2025-09-10T12:00:00Z'),
    ...verifiedSet(SR.gus, fall, '2025-10-05T12:00:00Z'),
    ...verifiedSet(SR.hal, fall, '2025-09-20T12:00:00Z'),
    ...verifiedSet(SR.ida, fall, '2025-10-12T12:00:00Z'),
    { playerId: SR.jo, seasonId: fall, docType: 'birth_certificate', status: 'verified', reviewed: '2025-09-12T12:00:00Z' },
    { playerId: SR.jo, seasonId: fall, docType: 'residency', status: 'pending' },
    { playerId: SR.jo, seasonId: fall, docType: 'medical', status: 'processing' },
    { playerId: SR.kim, seasonId: fall, docType: 'birth_certificate', status: 'verified', reviewed: '2025-09-12T12:00:00Z' },
    { playerId: SR.kim, seasonId: fall, docType: 'residency', status: 'verified', reviewed: '2025-09-12T12:00:00Z' },
    { playerId: SR.kim, seasonId: fall, docType: 'medical', status: 'verified', reviewed: '2025-09-12T12:00:00Z' },
    { playerId: SR.kim, seasonId: fall, docType: 'waiver', status: 'pending' },
    { playerId: SR.max, seasonId: fall, docType: 'medical', status: 'rejected', reviewed: '2025-09-01T12:00:00Z' },
    { playerId: SR.max, seasonId: fall, docType: 'waiver', status: 'verified', reviewed: '2025-09-01T12:00:00Z' },
  );
  await insertDocuments(db, docs.map(toRow));
}
