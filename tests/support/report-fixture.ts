import type { TDocType, TDocumentStatus } from '../../src/contract';
import type { Db } from '../../src/server/platform/db/client';
import { insertDocuments, type NewDocument } from '../../src/server/documents/documents.repository';
import { insertPlayers } from '../../src/server/players/players.repository';
import { insertRegistrations } from '../../src/server/players/registrations.repository';
import { insertSeasons, type NewSeason } from '../../src/server/seasons/seasons.repository';

/**
 * A small league whose report figures are worked out by hand in the tests (reports.service.int.test.ts,
 * reports.routes.int.test.ts). The clock of the breakdown is REPORT_NOW: a week earlier is 2025-10-08, the
 * last 30 days start 2025-09-15.
 *
 * Fall Ball 2025 (current):
 * | player            | division | birth cert.            | residency           | medical                  | waiver          | %   |
 * |-------------------|----------|------------------------|---------------------|--------------------------|-----------------|-----|
 * | Ava Smith   (P1)  | AA       | verified               | verified            | verified + a pending one | verified        | 100 |
 * | Ben Adams   (P2)  | AA       | verified               | pending             | processing               | rejected        | 25  |
 * | Cara Jones  (P3)  | AAA      | rejected, resubmitted  | rejected at intake  | verified but purged      | pending         | 25  |
 * |                   |          |   and verified         |                     |                          | (+ one pending with no type) |
 * | Dan Brown   (P4)  | A        | –                      | –                   | –                        | –               | 0   |
 * | Eve Fifty%  (P5)  | TEST     | –                      | –                   | –                        | verified        | 25  |
 * | Kai Young   (P6)  | Peewee   | verified               | verified            | verified                 | verified        | 100 |
 * Spring Ball 2025: Ava Smith (same player id, division A), birth certificate verified. Fall Ball 2024: Old Timer.
 */
export const REPORT_NOW = new Date('2025-10-15T00:00:00.000Z');

export const REPORT_SEASONS = {
  fall2025: { id: 'fall-2025', name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-15', endsOn: '2025-11-30', isCurrent: true },
  spring2025: { id: 'spring-2025', name: 'Spring Ball 2025', kind: 'Spring Ball', year: 2025, startsOn: '2025-03-01', endsOn: '2025-06-30' },
  fall2024: { id: 'fall-2024', name: 'Fall Ball 2024', kind: 'Fall Ball', year: 2024, startsOn: '2024-08-15', endsOn: '2024-11-30' },
} satisfies Record<string, NewSeason>;

export const P = {
  ava: 'CB-2025-0000000a',
  ben: 'CB-2025-0000000b',
  cara: 'CB-2025-0000000c',
  dan: 'CB-2025-0000000d',
  eve: 'CB-2025-0000000e',
  kai: 'CB-2025-0000000f',
  old: 'CB-2024-00000001',
} as const;

/** Documents the tests change or look for, by a fixed id. */
export const D = {
  avaBirth: '00000000-0000-4000-8000-00000000a001',
  avaMedical: '00000000-0000-4000-8000-00000000a003',
  avaMedicalPending: '00000000-0000-4000-8000-00000000a005',
  benResidency: '00000000-0000-4000-8000-00000000b002',
  benMedical: '00000000-0000-4000-8000-00000000b003',
  benWaiver: '00000000-0000-4000-8000-00000000b004',
  caraBirthRejected: '00000000-0000-4000-8000-00000000c001',
  caraBirth: '00000000-0000-4000-8000-00000000c011',
  caraResidency: '00000000-0000-4000-8000-00000000c002',
  caraMedicalPurged: '00000000-0000-4000-8000-00000000c003',
  caraWaiver: '00000000-0000-4000-8000-00000000c004',
  caraUndetected: '00000000-0000-4000-8000-00000000c005',
  eveWaiver: '00000000-0000-4000-8000-00000000e004',
  kaiWaiver: '00000000-0000-4000-8000-00000000f004',
} as const;

const at = (iso: string) => new Date(iso);

type Doc = { id?: string; playerId: string; seasonId?: string; docType: TDocType | null; status: TDocumentStatus; uploaded: string; reviewed?: string; purged?: string; stored?: boolean };

function toRow(doc: Doc, index: number): NewDocument {
  const id = doc.id ?? `00000000-0000-4000-9000-${String(index).padStart(12, '0')}`;
  const key = doc.stored === false ? null : `seasons/2025/fixture/${doc.playerId}/${id}.pdf`;
  return {
    id,
    playerId: doc.playerId,
    seasonId: doc.seasonId ?? REPORT_SEASONS.fall2025.id,
    docType: doc.docType,
    originalFilename: `${doc.docType ?? 'scan'}-${index}.pdf`,
    status: doc.status,
    bytes: 1000 + index,
    fileSha256: `${String(index).padStart(2, '0')}${'ab'.repeat(31)}`,
    storageDriver: key ? 'local' : null,
    storageKey: key,
    storedPath: key,
    mime: 'application/pdf',
    uploadedAt: at(doc.uploaded),
    reviewedAt: doc.reviewed ? at(doc.reviewed) : null,
    reviewNotes: doc.status === 'rejected' ? 'Unreadable' : null,
    purgedAt: doc.purged ? at(doc.purged) : null,
  };
}

export const FIXTURE_DOCUMENTS: Doc[] = [
  { id: D.avaBirth, playerId: P.ava, docType: 'birth_certificate', status: 'verified', uploaded: '2025-09-02T10:00:00Z', reviewed: '2025-09-10T00:00:00Z' },
  { playerId: P.ava, docType: 'residency', status: 'verified', uploaded: '2025-09-02T10:01:00Z', reviewed: '2025-09-10T00:00:00Z' },
  { id: D.avaMedical, playerId: P.ava, docType: 'medical', status: 'verified', uploaded: '2025-09-02T10:02:00Z', reviewed: '2025-09-10T00:00:00Z' },
  { playerId: P.ava, docType: 'waiver', status: 'verified', uploaded: '2025-09-02T10:03:00Z', reviewed: '2025-09-10T00:00:00Z' },
  { id: D.avaMedicalPending, playerId: P.ava, docType: 'medical', status: 'pending', uploaded: '2025-09-20T00:00:00Z' },

  { playerId: P.ben, docType: 'birth_certificate', status: 'verified', uploaded: '2025-09-03T10:00:00Z', reviewed: '2025-09-10T00:00:00Z' },
  { id: D.benResidency, playerId: P.ben, docType: 'residency', status: 'pending', uploaded: '2025-09-21T00:00:00Z' },
  { id: D.benMedical, playerId: P.ben, docType: 'medical', status: 'processing', uploaded: '2025-10-14T20:00:00Z', stored: false },
  // Reviewed 12 h after upload, inside the last 30 days.
  { id: D.benWaiver, playerId: P.ben, docType: 'waiver', status: 'rejected', uploaded: '2025-10-01T00:00:00Z', reviewed: '2025-10-01T12:00:00Z' },

  { id: D.caraBirthRejected, playerId: P.cara, docType: 'birth_certificate', status: 'rejected', uploaded: '2025-09-04T00:00:00Z', reviewed: '2025-09-05T00:00:00Z' },
  { id: D.caraBirth, playerId: P.cara, docType: 'birth_certificate', status: 'verified', uploaded: '2025-09-06T00:00:00Z', reviewed: '2025-09-10T00:00:00Z' },
  // Refused at intake: 'reviewed' the moment it arrived, which is no review.
  { id: D.caraResidency, playerId: P.cara, docType: 'residency', status: 'rejected', uploaded: '2025-10-05T00:00:00Z', reviewed: '2025-10-05T00:00:00Z', stored: false },
  { id: D.caraMedicalPurged, playerId: P.cara, docType: 'medical', status: 'verified', uploaded: '2025-09-04T12:00:00Z', reviewed: '2025-09-10T00:00:00Z', purged: '2025-10-01T00:00:00Z', stored: false },
  { id: D.caraWaiver, playerId: P.cara, docType: 'waiver', status: 'pending', uploaded: '2025-10-13T00:00:00Z' },
  { id: D.caraUndetected, playerId: P.cara, docType: null, status: 'pending', uploaded: '2025-10-13T01:00:00Z' },

  // Reviewed 6 h after upload.
  { id: D.eveWaiver, playerId: P.eve, docType: 'waiver', status: 'verified', uploaded: '2025-10-14T00:00:00Z', reviewed: '2025-10-14T06:00:00Z' },

  { playerId: P.kai, docType: 'birth_certificate', status: 'verified', uploaded: '2025-09-02T11:00:00Z', reviewed: '2025-09-10T00:00:00Z' },
  { playerId: P.kai, docType: 'residency', status: 'verified', uploaded: '2025-09-02T11:01:00Z', reviewed: '2025-09-10T00:00:00Z' },
  { playerId: P.kai, docType: 'medical', status: 'verified', uploaded: '2025-09-02T11:02:00Z', reviewed: '2025-09-10T00:00:00Z' },
  // Verified 24 h after upload, three days before REPORT_NOW: Kai was not complete a week ago.
  { id: D.kaiWaiver, playerId: P.kai, docType: 'waiver', status: 'verified', uploaded: '2025-10-11T12:00:00Z', reviewed: '2025-10-12T12:00:00Z' },

  // Other seasons: never in Fall Ball 2025's figures.
  { playerId: P.ava, seasonId: REPORT_SEASONS.spring2025.id, docType: 'birth_certificate', status: 'verified', uploaded: '2025-03-05T00:00:00Z', reviewed: '2025-03-06T00:00:00Z' },
  { playerId: P.old, seasonId: REPORT_SEASONS.fall2024.id, docType: 'waiver', status: 'pending', uploaded: '2024-09-01T00:00:00Z' },
];

/** Writes the fixture league: seasons, players, registrations, then the documents (so the triggers fill the summaries). */
export async function seedReportFixture(db: Db): Promise<void> {
  await insertSeasons(db, Object.values(REPORT_SEASONS));
  const guardian = (name: string) => ({ guardianName: `${name} Parent`, guardianEmail: `${name.toLowerCase()}@example.org`, guardianPhone: '555-0100' });
  await insertPlayers(db, [
    { id: P.ava, firstName: 'Ava', lastName: 'Smith', birthDate: '2014-05-03', ...guardian('Smith') },
    { id: P.ben, firstName: 'Ben', lastName: 'Adams', birthDate: '2013-01-20', ...guardian('Adams') },
    { id: P.cara, firstName: 'Cara', lastName: 'Jones', birthDate: '2015-07-07', ...guardian('Jones') },
    { id: P.dan, firstName: 'Dan', lastName: 'Brown', birthDate: '2012-11-11', guardianName: null, guardianEmail: null, guardianPhone: null },
    { id: P.eve, firstName: 'Eve', lastName: 'Fifty%', birthDate: '2016-02-29', ...guardian('Fifty') },
    { id: P.kai, firstName: 'Kai', lastName: 'Young', birthDate: '2014-09-09', ...guardian('Young') },
    { id: P.old, firstName: 'Old', lastName: 'Timer', birthDate: '2010-01-01', ...guardian('Timer') },
  ]);
  const registered = at('2025-09-01T00:00:00Z');
  const fall = REPORT_SEASONS.fall2025.id;
  await insertRegistrations(db, [
    { playerId: P.ava, seasonId: fall, division: 'AA', registeredAt: registered },
    { playerId: P.ben, seasonId: fall, division: 'AA', registeredAt: registered },
    { playerId: P.cara, seasonId: fall, division: 'AAA', registeredAt: registered },
    { playerId: P.dan, seasonId: fall, division: 'A', registeredAt: registered },
    // Registered the day before REPORT_NOW: not a registration of a week ago.
    { playerId: P.eve, seasonId: fall, division: 'TEST', registeredAt: at('2025-10-14T00:00:00Z') },
    { playerId: P.kai, seasonId: fall, division: 'Peewee', registeredAt: registered },
    { playerId: P.ava, seasonId: REPORT_SEASONS.spring2025.id, division: 'A', registeredAt: at('2025-03-02T00:00:00Z') },
    { playerId: P.old, seasonId: REPORT_SEASONS.fall2024.id, division: 'AAA', registeredAt: at('2024-08-20T00:00:00Z') },
  ]);
  await insertDocuments(db, FIXTURE_DOCUMENTS.map(toRow));
}
