import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  DEFAULT_DIVISION_AGES,
  DEFAULT_REQUIREMENT_RULES,
  littleLeagueResidencyRule,
  ZSeasonRequirements,
  type TApiError,
  type TCreateSeason,
  type TSeasonRequirements,
} from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { signInAsUser } from '../../../tests/support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { listAuditEvents } from '../audit/audit-events.repository';
import { seasons } from '../platform/db/schema';
import { insertDocuments } from '../documents/documents.repository';
import { insertPlayers } from '../players/players.repository';
import { findRegistration, insertRegistrations } from '../players/registrations.repository';

const FALL_2026: TCreateSeason = {
  name: 'Fall Ball 2026',
  kind: 'Fall Ball',
  year: 2026,
  startsOn: '2026-08-15',
  endsOn: '2026-11-30',
  registrationDeadline: '2026-09-15',
  divisions: ['AAA', 'AA', 'A'],
};
const PLAYER = 'CB-2026-0000abcd';

describeEachDatabase('Season requirement calls', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const started = () => {
    if (!server) throw new Error('not started');
    return server;
  };
  const get = (id: string, cookie = started().cookie) =>
    started().app.inject({ method: 'GET', url: `/api/seasons/${id}/requirements`, headers: { cookie } });
  const put = (id: string, payload: object, cookie = started().cookie) =>
    started().app.inject({ method: 'PUT', url: `/api/seasons/${id}/requirements`, headers: { cookie }, payload });
  const problems = (body: unknown) => ((body as TApiError).details ?? []).map((d) => `${d.path}: ${d.message}`);
  const current = async (): Promise<TSeasonRequirements> => ZSeasonRequirements.parse((await get('fall-2026')).json());
  const withRule = (requirements: TSeasonRequirements, docType: string, change: object) => ({
    ...requirements,
    rules: requirements.rules.map((rule) => (rule.docType === docType ? { ...rule, ...change } : rule)),
  });

  beforeAll(async () => {
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-season-rules-api', startWorkers: false });
    const created = await started().app.inject({ method: 'POST', url: '/api/seasons', headers: { cookie: started().cookie }, payload: FALL_2026 });
    expect(created.statusCode).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('gives a new season the default rules, league age on 31 August and the usual ages of the divisions it offers', async () => {
    const response = await get('fall-2026');
    expect(response.statusCode).toBe(200);
    const { Peewee: _notOffered, ...offered } = DEFAULT_DIVISION_AGES;
    expect(response.json()).toEqual({
      rules: DEFAULT_REQUIREMENT_RULES,
      ageDate: '2026-08-31',
      divisionAges: offered,
      removeVerifiedBirthCertificateFilesAfterDays: null,
    });
    const unknown = await get('winter-2026');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<TApiError>().message).toBe('Season winter-2026 does not exist.');
    expect((await put('winter-2026', await current())).statusCode).toBe(404);
  });

  it('refuses rules it cannot keep, each message on its field', async () => {
    const before = await current();
    const noMonths = await put('fall-2026', withRule(before, 'medical', { lasts: 'months', months: null }));
    expect(noMonths.statusCode).toBe(400);
    expect(problems(noMonths.json())).toEqual(['body.rules.2.months: Say how many months an approval lasts']);
    const tooMany = await put('fall-2026', withRule(before, 'residency', { documents: 3, groups: ['Bills', 'Bills'] }));
    expect(problems(tooMany.json())).toEqual([
      'body.rules.1.documents: Documents needed cannot be more than the 2 groups they come from',
      'body.rules.1.groups: Each group needs a different name',
    ]);
    const backwards = await put('fall-2026', { ...withRule(before, 'residency', { datedFrom: '2026-02-01', datedTo: '2025-02-01' }), removeVerifiedBirthCertificateFilesAfterDays: 0 });
    expect(problems(backwards.json())).toEqual([
      'body.rules.1.datedTo: Dated to must be on or after 2026-02-01',
      'body.removeVerifiedBirthCertificateFilesAfterDays: Days must be at least 1',
    ]);
    const ages = await put('fall-2026', { ...before, divisionAges: { AA: { min: 11, max: 9 } } });
    expect(problems(ages.json())).toEqual(['body.divisionAges.AA.max: Oldest age must not be below the youngest']);
    const peewee = await put('fall-2026', { ...before, divisionAges: { AA: { min: 8, max: 10 }, Peewee: { min: 4, max: 6 } } });
    expect(peewee.statusCode).toBe(400);
    const message = 'Fall Ball 2026 has no Peewee division. Give ages only for AAA, AA and A.';
    expect(peewee.json<TApiError>().message).toBe(message);
    expect(problems(peewee.json())).toEqual([`body.divisionAges.Peewee: ${message}`]);
    expect(await current()).toEqual(before);
  });

  it('lets anyone signed in read the rules, and only who may manage settings change them', async () => {
    const { db } = getDatabase();
    const before = await current();
    for (const role of ['viewer', 'moderator'] as const) {
      const who = await signInAsUser(db, { role });
      expect((await get('fall-2026', who.cookie)).statusCode).toBe(200);
      expect((await put('fall-2026', withRule(before, 'waiver', { required: false }), who.cookie)).statusCode).toBe(403);
    }
    expect((await get('fall-2026', '')).statusCode).toBe(401);
    expect(await current()).toEqual(before);
  });

  it('recomputes the season’s players when a rule changes, and audits what changed', async () => {
    const { db } = getDatabase();
    await insertPlayers(db, [{ id: PLAYER, firstName: 'Ada', lastName: 'Lovelace', birthDate: '2016-05-10' }]);
    await insertRegistrations(db, [{ playerId: PLAYER, seasonId: 'fall-2026', division: 'AA' }]);
    const verified = { playerId: PLAYER, seasonId: 'fall-2026', status: 'verified' as const, reviewedAt: new Date(), originalFilename: 'scan.pdf' };
    await insertDocuments(db, [
      { ...verified, docType: 'birth_certificate', factBirthDate: '2016-05-10' },
      { ...verified, docType: 'residency', documentDate: '2026-03-01' },
      { ...verified, docType: 'waiver' },
    ]);
    expect(await findRegistration(db, PLAYER, 'fall-2026')).toMatchObject({ completeTypes: 3, medicalStatus: 'missing' });

    const before = await current();
    const wanted = {
      ...withRule(before, 'medical', { required: false }),
      ageDate: '2026-12-31',
      divisionAges: { ...before.divisionAges, AA: { min: 9, max: null } },
      removeVerifiedBirthCertificateFilesAfterDays: 30,
    };
    const saved = await put('fall-2026', wanted);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(wanted);
    expect(await current()).toEqual(wanted);
    expect(await findRegistration(db, PLAYER, 'fall-2026')).toMatchObject({ completeTypes: 4, medicalStatus: 'not_required', residencyStatus: 'complete' });

    const [audit] = (await listAuditEvents(db, 'season', 'fall-2026')).filter((event) => event.action === 'season.requirements_updated');
    expect(audit?.detail).toEqual({
      name: 'Fall Ball 2026',
      changes: {
        medical: { required: { from: true, to: false } },
        ageDate: { from: '2026-08-31', to: '2026-12-31' },
        divisionAges: { AA: { from: { min: 8, max: 10 }, to: { min: 9, max: null } } },
        removeVerifiedBirthCertificateFilesAfterDays: { from: null, to: 30 },
      },
    });

    // Little League's residency rule: three documents from three groups; the one residency document has no group.
    const stricter = await put('fall-2026', withRule(await current(), 'residency', littleLeagueResidencyRule(2026)));
    expect(stricter.statusCode).toBe(200);
    expect(ZSeasonRequirements.parse(stricter.json()).rules[1]).toEqual(littleLeagueResidencyRule(2026));
    expect(await findRegistration(db, PLAYER, 'fall-2026')).toMatchObject({ completeTypes: 3, residencyStatus: 'missing' });

    // Peewee's ages were kept for when the season offers Peewee again.
    const [stored] = await db.select({ ages: seasons.divisionAges }).from(seasons).where(eq(seasons.id, 'fall-2026'));
    expect(stored?.ages.Peewee).toEqual(DEFAULT_DIVISION_AGES.Peewee);

    // Saving the same rules again changes nothing and records nothing.
    const events = (await listAuditEvents(db, 'season', 'fall-2026')).length;
    expect((await put('fall-2026', await current())).statusCode).toBe(200);
    expect((await listAuditEvents(db, 'season', 'fall-2026')).length).toBe(events);
  });
});
