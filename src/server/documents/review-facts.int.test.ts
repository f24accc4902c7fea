import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZDocument, ZDocumentHistory, type TApiError } from '../../contract';
import { ZDocumentReviewContext } from '../../contract';
import { FALL_2025, SPRING_2025 } from '../../../tests/support/pipeline';
import { describeEachDatabase } from '../../../tests/support/databases';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { players, registrations } from '../platform/db/schema';
import { findDocument, insertDocuments, type NewDocument } from './documents.repository';
import { derivePlayerId } from '../players/player-id';
import { insertPlayers } from '../players/players.repository';
import { insertRegistrations } from '../players/registrations.repository';
import { insertSeasons } from '../seasons/seasons.repository';

/** Ana's id is the one her name and first registered date derive, so adding her again finds her. */
const ANA = {
  id: derivePlayerId({ prefix: 'CB', year: 2025, firstName: 'Ana', lastName: 'Silva', birthDate: '2016-04-03' }),
  firstName: 'Ana',
  lastName: 'Silva',
  birthDate: '2016-04-03',
};
const BEN = { id: 'CB-2025-000000b2', firstName: 'Ben', lastName: 'Okafor', birthDate: '2015-07-19' };

let counter = 0;
const pending = (playerId: string, docType: NewDocument['docType']): NewDocument & { id: string } => ({
  id: randomUUID(),
  playerId,
  seasonId: FALL_2025.id,
  docType,
  originalFilename: `${docType ?? 'unknown'}-${++counter}.pdf`,
  status: 'pending',
  bytes: 1000,
  fileSha256: counter.toString(16).padStart(64, '0'),
});

const D = {
  anaBirth: pending(ANA.id, 'birth_certificate'),
  benBirth: pending(BEN.id, 'birth_certificate'),
  benBirthAgain: pending(BEN.id, 'birth_certificate'),
  anaMedical: pending(ANA.id, 'medical'),
  anaWaiver: pending(ANA.id, 'waiver'),
  anaResidency: pending(ANA.id, 'residency'),
  benResidency: pending(BEN.id, 'residency'),
  benWaiver: pending(BEN.id, 'waiver'),
};

describeEachDatabase('review decisions record the facts the requirement rules need', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const call = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object) => {
    if (!server) throw new Error('not started');
    return server.app.inject({ method, url, headers: { cookie: server.cookie }, ...(payload ? { payload } : {}) });
  };
  const decide = (id: string, body: object) => call('PATCH', `/api/documents/${id}/status`, body);
  const player = async (id: string) => (await getDatabase().db.select().from(players).where(eq(players.id, id)))[0];
  const registration = async (id: string) =>
    (await getDatabase().db.select().from(registrations).where(and(eq(registrations.playerId, id), eq(registrations.seasonId, FALL_2025.id))))[0];
  const messageOf = (body: unknown) => (body as TApiError).message;

  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [FALL_2025, SPRING_2025]);
    await insertPlayers(db, [ANA, BEN]);
    await insertRegistrations(db, [
      { playerId: ANA.id, seasonId: FALL_2025.id, division: 'AA' },
      { playerId: BEN.id, seasonId: FALL_2025.id, division: 'AAA' },
    ]);
    await insertDocuments(db, Object.values(D));
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-review-facts' });
  });
  afterAll(() => server?.close());

  it('answers what the approval step asks with: the registered date of birth and the season’s residency groups', async () => {
    const response = await call('GET', `/api/documents/${D.anaBirth.id}/review`);
    expect(response.statusCode, response.body).toBe(200);
    expect(ZDocumentReviewContext.parse(response.json())).toEqual({
      documentId: D.anaBirth.id,
      docType: 'birth_certificate',
      seasonId: FALL_2025.id,
      player: { id: ANA.id, firstName: 'Ana', lastName: 'Silva', birthDate: '2016-04-03', birthDateVerifiedAt: null },
      residencyGroups: [],
    });
  });

  it('approves a birth certificate showing the registered date: records it, who approved, and locks the date of birth', async () => {
    const response = await decide(D.benBirth.id, { status: 'verified', birthDate: BEN.birthDate });
    expect(response.statusCode, response.body).toBe(200);
    const document = ZDocument.parse(response.json());
    expect(document).toMatchObject({ status: 'verified', reviewedBy: 'Shared password', facts: { birthDate: BEN.birthDate, documentDate: null, residencyGroup: null } });
    const ben = await player(BEN.id);
    expect(ben?.birthDate).toBe(BEN.birthDate);
    expect(ben?.birthDateVerifiedAt).toBeInstanceOf(Date);
    expect((await registration(BEN.id))?.birthCertificateStatus).toBe('complete');
  });

  it('refuses a birth certificate with another date until the change is confirmed, then changes the date of birth and locks it', async () => {
    const refused = await decide(D.anaBirth.id, { status: 'verified', birthDate: '2016-04-30' });
    expect(refused.statusCode).toBe(409);
    expect(messageOf(refused.json())).toBe(
      "The certificate shows 30 Apr 2016 but Ana's registration says 3 Apr 2016. Confirm to change Ana's date of birth.",
    );
    expect((await findDocument(getDatabase().db, D.anaBirth.id))?.status).toBe('pending');
    expect((await player(ANA.id))?.birthDate).toBe(ANA.birthDate);

    const confirmed = await decide(D.anaBirth.id, { status: 'verified', birthDate: '2016-04-30', confirmBirthDateChange: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(ZDocument.parse(confirmed.json()).facts.birthDate).toBe('2016-04-30');
    const ana = await player(ANA.id);
    expect(ana?.birthDate).toBe('2016-04-30');
    expect(ana?.birthDateVerifiedAt).toBeInstanceOf(Date);

    const history = ZDocumentHistory.parse((await call('GET', `/api/documents/${D.anaBirth.id}/history`)).json());
    expect(history.events.at(-1)?.summary).toBe('Status changed from pending to verified; date of birth 30 Apr 2016 verified (changed from 3 Apr 2016)');

    // Adding her again under the date first registered (the same id, another season) leaves the verified date alone.
    const again = await call('POST', '/api/players', { firstName: 'Ana', lastName: 'Silva', birthDate: ANA.birthDate, division: 'AA', season: SPRING_2025.id });
    expect(again.statusCode, again.body).toBe(201);
    expect((await player(ANA.id))?.birthDate).toBe('2016-04-30');
  });

  it('refuses a second certificate that would change a verified date of birth, even confirmed', async () => {
    const response = await decide(D.benBirthAgain.id, { status: 'verified', birthDate: '2015-07-20', confirmBirthDateChange: true });
    expect(response.statusCode).toBe(409);
    expect(messageOf(response.json())).toMatch(/^Ben's date of birth was verified from the birth certificate on \d{1,2} \w{3} \d{4}; it cannot be changed here\.$/);
    expect((await player(BEN.id))?.birthDate).toBe(BEN.birthDate);
  });

  it('records a medical form’s exam date, refuses one after today, and refuses facts a type has no use for', async () => {
    const future = await decide(D.anaMedical.id, { status: 'verified', documentDate: '2999-01-01' });
    expect(future.statusCode).toBe(400);
    expect(messageOf(future.json())).toContain('is after today');

    const birthOnWaiver = await decide(D.anaWaiver.id, { status: 'verified', birthDate: '2016-04-30' });
    expect(birthOnWaiver.statusCode).toBe(400);
    expect(messageOf(birthOnWaiver.json())).toBe('A date of birth is recorded only when approving a birth certificate; this is a liability waiver.');
    const dateOnWaiver = await decide(D.anaWaiver.id, { status: 'verified', documentDate: '2025-09-01' });
    expect(dateOnWaiver.statusCode).toBe(400);
    const groupOnMedical = await decide(D.anaMedical.id, { status: 'verified', documentDate: '2025-09-01', residencyGroup: 'Group I' });
    expect(groupOnMedical.statusCode).toBe(400);

    const response = await decide(D.anaMedical.id, { status: 'verified', documentDate: '2025-09-01' });
    expect(response.statusCode, response.body).toBe(200);
    expect(ZDocument.parse(response.json()).facts).toEqual({ birthDate: null, documentDate: '2025-09-01', residencyGroup: null });
    expect((await findDocument(getDatabase().db, D.anaMedical.id))?.documentDate).toBe('2025-09-01');
  });

  it('files a residency proof under one of the season’s groups when its rule lists them, and under none otherwise', async () => {
    const noGroups = await decide(D.benResidency.id, { status: 'verified', documentDate: '2025-08-01', residencyGroup: 'Group I' });
    expect(noGroups.statusCode).toBe(400);
    expect(messageOf(noGroups.json())).toContain('lists no groups');

    await getDatabase().db.execute(
      sql`update season_requirements set groups = array['Group I: ID', 'Group II: records']::text[], documents = 1 where season_id = ${FALL_2025.id} and doc_type = 'residency'`,
    );
    const context = ZDocumentReviewContext.parse((await call('GET', `/api/documents/${D.anaResidency.id}/review`)).json());
    expect(context.residencyGroups).toEqual(['Group I: ID', 'Group II: records']);

    const missing = await decide(D.anaResidency.id, { status: 'verified', documentDate: '2025-08-01' });
    expect(missing.statusCode).toBe(400);
    expect(messageOf(missing.json())).toBe('Choose the group this residency proof belongs to: Group I: ID; Group II: records.');
    const unknown = await decide(D.anaResidency.id, { status: 'verified', documentDate: '2025-08-01', residencyGroup: 'Group III' });
    expect(unknown.statusCode).toBe(400);
    expect(messageOf(unknown.json())).toContain('is not one of this season’s residency groups: Group I: ID; Group II: records.');

    const response = await decide(D.anaResidency.id, { status: 'verified', documentDate: '2025-08-01', residencyGroup: 'group ii: RECORDS' });
    expect(response.statusCode, response.body).toBe(200);
    expect(ZDocument.parse(response.json()).facts).toEqual({ birthDate: null, documentDate: '2025-08-01', residencyGroup: 'Group II: records' });
  });

  it('records who rejected, refuses facts on a rejection, and a bulk approval records who approved but no facts', async () => {
    const withFacts = await decide(D.anaWaiver.id, { status: 'rejected', reviewNotes: 'Missing signature', documentDate: '2025-09-01' });
    expect(withFacts.statusCode).toBe(400);
    const rejected = await decide(D.anaWaiver.id, { status: 'rejected', reviewNotes: 'Missing signature' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(ZDocument.parse(rejected.json())).toMatchObject({ status: 'rejected', reviewedBy: 'Shared password', reviewNotes: 'Missing signature' });

    const bulk = await call('POST', '/api/documents/status', { documentIds: [D.benWaiver.id], status: 'verified' });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const row = await findDocument(getDatabase().db, D.benWaiver.id);
    expect(row).toMatchObject({ status: 'verified', reviewedBy: 'Shared password', factBirthDate: null, documentDate: null, residencyGroup: null });
  });
});
