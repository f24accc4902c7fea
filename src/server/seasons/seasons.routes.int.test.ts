import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZSeasonResponse, ZSeasons, type TApiError, type TCreateSeason, type TSeason } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { signInAsUser } from '../../../tests/support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { listAuditEvents, listAuditEventsByAction } from '../audit/audit-events.repository';
import { insertPlayers } from '../players/players.repository';
import { insertRegistrations } from '../players/registrations.repository';

const FALL_2026: TCreateSeason = {
  name: 'Fall Ball 2026',
  kind: 'Fall Ball',
  year: 2026,
  startsOn: '2026-08-15',
  endsOn: '2026-11-30',
  registrationDeadline: '2026-09-15',
  divisions: ['A', 'AAA', 'AA'],
};
const SPRING_2027: TCreateSeason = {
  name: 'Spring Ball 2027',
  kind: 'Spring Ball',
  year: 2027,
  startsOn: '2027-03-01',
  endsOn: '2027-06-30',
  registrationDeadline: '2027-03-31',
  divisions: ['AAA', 'AA', 'A', 'Peewee'],
};

describeEachDatabase('Seasons calls', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const started = () => {
    if (!server) throw new Error('not started');
    return server;
  };
  const get = (cookie = started().cookie) => started().app.inject({ method: 'GET', url: '/api/seasons', headers: { cookie } });
  const create = (payload: object, cookie = started().cookie) => started().app.inject({ method: 'POST', url: '/api/seasons', headers: { cookie }, payload });
  const patch = (id: string, payload: object, cookie = started().cookie) =>
    started().app.inject({ method: 'PATCH', url: `/api/seasons/${id}`, headers: { cookie }, payload });
  const problems = (body: unknown) => ((body as TApiError).details ?? []).map((d) => `${d.path}: ${d.message}`);
  const seasons = async (): Promise<TSeason[]> => ZSeasons.parse((await get()).json()).seasons;
  const audits = (id: string) => listAuditEvents(getDatabase().db, 'season', id);

  beforeAll(async () => {
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-seasons-api', startWorkers: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('needs a session for every call', async () => {
    expect((await get('')).statusCode).toBe(401);
    expect((await create(FALL_2026, '')).statusCode).toBe(401);
    expect((await patch('fall-2026', { closed: true }, '')).statusCode).toBe(401);
  });

  it('answers no season on a new installation', async () => {
    const response = await get();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ seasons: [] });
  });

  it('creates the first season as the current one, with a readable id, its divisions in the league’s order, and an audit record', async () => {
    const response = await create(FALL_2026);
    expect(response.statusCode).toBe(201);
    const { season } = ZSeasonResponse.parse(response.json());
    expect(season).toEqual({
      id: 'fall-2026',
      name: 'Fall Ball 2026',
      kind: 'Fall Ball',
      year: 2026,
      startsOn: '2026-08-15',
      endsOn: '2026-11-30',
      registrationDeadline: '2026-09-15',
      divisions: ['AAA', 'AA', 'A'],
      isCurrent: true,
      closed: false,
      closedAt: null,
    });
    expect(await seasons()).toEqual([season]);

    const [audit, ...more] = await audits('fall-2026');
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ action: 'season.created', actor: 'shared-password', subjectType: 'season', detail: { name: 'Fall Ball 2026', divisions: ['AAA', 'AA', 'A'], isCurrent: true } });
    expect(audit?.requestId).toBeTruthy();
  });

  it('creates a later season as not current, and lists the newest first', async () => {
    const response = await create(SPRING_2027);
    expect(response.statusCode).toBe(201);
    expect(ZSeasonResponse.parse(response.json()).season).toMatchObject({ id: 'spring-2027', isCurrent: false, divisions: ['AAA', 'AA', 'A', 'Peewee'] });
    expect((await seasons()).map((s) => [s.id, s.isCurrent])).toEqual([
      ['spring-2027', false],
      ['fall-2026', true],
    ]);
  });

  it('refuses a season of the same kind and year, or of a name already used, with 409 on the field', async () => {
    const again = await create({ ...FALL_2026, name: 'Fall Ball 2026 again' });
    expect(again.statusCode).toBe(409);
    expect(again.json<TApiError>()).toMatchObject({
      code: 'CONFLICT',
      message: 'Fall Ball 2026 already exists as Fall Ball 2026 (id fall-2026). Edit that season instead, or pick another year.',
    });
    expect(problems(again.json())).toEqual(['body.year: Fall Ball 2026 already exists as Fall Ball 2026 (id fall-2026). Edit that season instead, or pick another year.']);

    const sameName = await create({ ...FALL_2026, year: 2028, startsOn: '2028-08-15', endsOn: '2028-11-30', registrationDeadline: '2028-09-15' });
    expect(sameName.statusCode).toBe(409);
    expect(problems(sameName.json())).toEqual(['body.name: Another season is already called Fall Ball 2026. Choose another name.']);
    expect(await seasons()).toHaveLength(2);
  });

  it('refuses bad fields with 400 naming each one, and creates nothing', async () => {
    const missing = await create({});
    expect(missing.statusCode).toBe(400);
    expect(problems(missing.json())).toEqual([
      'body.name: Name is required',
      'body.kind: Kind is required',
      'body.year: Year is required',
      'body.startsOn: Start date is required',
      'body.endsOn: End date is required',
      'body.registrationDeadline: Registration deadline is required',
      'body.divisions: Divisions are required',
    ]);

    const bad = await create({ ...FALL_2026, kind: 'Winter Ball', year: 1999, startsOn: '2026-02-30', divisions: ['AA', 'Z'] });
    expect(problems(bad.json())).toEqual([
      'body.kind: Kind must be Spring Ball or Fall Ball',
      'body.year: Year must be 2000 or later',
      'body.startsOn: Start date must be a date such as 2026-08-15',
      'body.divisions.1: Division must be one of AAA, AA, A, TEST, Peewee',
    ]);

    const none = await create({ ...FALL_2026, divisions: [] });
    expect(problems(none.json())).toEqual(['body.divisions: Pick at least one division the season offers']);

    const dates = await create({ ...FALL_2026, year: 2031, startsOn: '2031-08-15', endsOn: '2031-08-01', registrationDeadline: '2031-12-01' });
    expect(dates.statusCode).toBe(400);
    expect(problems(dates.json())).toEqual([
      'body.endsOn: End date must be after the start date (2031-08-15)',
      'body.registrationDeadline: Registration deadline must be on or before the end date (2031-08-01)',
    ]);

    const wrongYear = await create({ ...FALL_2026, year: 2029 });
    expect(problems(wrongYear.json())).toEqual(['body.year: Year must be one the season runs in (2026)']);

    const extra = await create({ ...FALL_2026, year: 2032, isCurrent: true });
    expect(extra.statusCode).toBe(400);
    expect(extra.json<TApiError>().message).toContain('Unknown field isCurrent');

    expect(await seasons()).toHaveLength(2);
    expect(await listAuditEventsByAction(getDatabase().db, 'season.created')).toHaveLength(2);
  });

  it('makes another season current, the other one no longer, and audits it', async () => {
    const response = await patch('spring-2027', { isCurrent: true });
    expect(response.statusCode).toBe(200);
    expect(ZSeasonResponse.parse(response.json()).season).toMatchObject({ id: 'spring-2027', isCurrent: true });
    expect((await seasons()).map((s) => [s.id, s.isCurrent])).toEqual([
      ['spring-2027', true],
      ['fall-2026', false],
    ]);
    const [, made] = await audits('spring-2027');
    expect(made).toMatchObject({
      action: 'season.updated',
      actor: 'shared-password',
      detail: { name: 'Spring Ball 2027', changes: { isCurrent: { from: false, to: true } }, previousCurrent: 'fall-2026' },
    });

    // Already current: nothing changes, nothing is recorded.
    expect((await patch('spring-2027', { isCurrent: true })).statusCode).toBe(200);
    expect(await audits('spring-2027')).toHaveLength(2);

    const unset = await patch('spring-2027', { isCurrent: false });
    expect(unset.statusCode).toBe(400);
    expect(problems(unset.json())).toEqual(['body.isCurrent: isCurrent can only be set to true: to change the current season, make another season current']);

    expect((await patch('fall-2026', { isCurrent: true })).statusCode).toBe(200);
    expect((await seasons()).filter((s) => s.isCurrent).map((s) => s.id)).toEqual(['fall-2026']);
  });

  it('closes a season and reopens it, each audited', async () => {
    const closed = await patch('fall-2026', { closed: true });
    expect(closed.statusCode).toBe(200);
    const { season } = ZSeasonResponse.parse(closed.json());
    expect(season).toMatchObject({ closed: true, isCurrent: true });
    expect(Date.parse(season.closedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

    const reopened = ZSeasonResponse.parse((await patch('fall-2026', { closed: false })).json()).season;
    expect(reopened).toMatchObject({ closed: false, closedAt: null });
    const changes = (await audits('fall-2026')).filter((a) => a.action === 'season.updated').map((a) => a.detail.changes);
    expect(changes.slice(-2)).toEqual([{ closed: { from: false, to: true } }, { closed: { from: true, to: false } }]);
  });

  it('edits the name, dates and deadline, checking them with the dates the season keeps; the id stays', async () => {
    const response = await patch('fall-2026', { name: 'Fall Ball 2026 (North)', registrationDeadline: '2026-10-01' });
    expect(response.statusCode).toBe(200);
    expect(ZSeasonResponse.parse(response.json()).season).toMatchObject({ id: 'fall-2026', name: 'Fall Ball 2026 (North)', registrationDeadline: '2026-10-01' });
    const [last] = (await audits('fall-2026')).slice(-1);
    expect(last?.detail).toEqual({
      name: 'Fall Ball 2026 (North)',
      changes: { name: { from: 'Fall Ball 2026', to: 'Fall Ball 2026 (North)' }, registrationDeadline: { from: '2026-09-15', to: '2026-10-01' } },
    });

    const tooEarly = await patch('fall-2026', { endsOn: '2026-09-01' });
    expect(tooEarly.statusCode).toBe(400);
    expect(tooEarly.json<TApiError>().message).toBe('Registration deadline must be on or before the end date (2026-09-01).');
    expect(problems(tooEarly.json())).toEqual(['body.registrationDeadline: Registration deadline must be on or before the end date (2026-09-01)']);

    const beforeStart = await patch('fall-2026', { startsOn: '2026-12-01' });
    expect(problems(beforeStart.json())).toEqual(['body.endsOn: End date must be after the start date (2026-12-01)']);

    const taken = await patch('fall-2026', { name: 'Spring Ball 2027' });
    expect(taken.statusCode).toBe(409);
    expect(problems(taken.json())).toEqual(['body.name: Another season is already called Spring Ball 2027. Choose another name.']);

    const empty = await patch('fall-2026', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json<TApiError>().message).toContain('Change at least one of');

    const unknown = await patch('winter-2026', { closed: true });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<TApiError>().message).toBe('Season winter-2026 does not exist.');

    expect((await seasons()).find((s) => s.id === 'fall-2026')).toMatchObject({ name: 'Fall Ball 2026 (North)', endsOn: '2026-11-30', startsOn: '2026-08-15' });
  });

  it('adds divisions, and removes one only while no player of the season is in it', async () => {
    const { db } = getDatabase();
    await insertPlayers(db, [{ id: 'CB-2026-00000001', firstName: 'Ada', lastName: 'Lovelace', birthDate: '2015-12-10' }]);
    await insertRegistrations(db, [{ playerId: 'CB-2026-00000001', seasonId: 'fall-2026', division: 'AA' }]);

    const added = await patch('fall-2026', { divisions: ['AAA', 'AA', 'A', 'Peewee'] });
    expect(added.statusCode).toBe(200);
    expect(ZSeasonResponse.parse(added.json()).season.divisions).toEqual(['AAA', 'AA', 'A', 'Peewee']);

    const refused = await patch('fall-2026', { divisions: ['AAA', 'A'] });
    expect(refused.statusCode).toBe(409);
    const message =
      'Fall Ball 2026 (North) already has players in AA (1 in AA), so that division stays. A division can be removed only while no player of the season is in it.';
    expect(refused.json<TApiError>().message).toBe(message);
    expect(problems(refused.json())).toEqual([`body.divisions: ${message}`]);

    // A division with no player goes; the one with a player must stay in the list.
    const removed = await patch('fall-2026', { divisions: ['AA', 'A'] });
    expect(removed.statusCode).toBe(200);
    expect(ZSeasonResponse.parse(removed.json()).season.divisions).toEqual(['AA', 'A']);
    const [last] = (await audits('fall-2026')).slice(-1);
    expect(last?.detail).toMatchObject({ changes: { divisions: { from: ['AAA', 'AA', 'A', 'Peewee'], to: ['AA', 'A'] } } });
  });

  it('lets anyone signed in read, and only who may manage settings write', async () => {
    const { db } = getDatabase();
    const viewer = await signInAsUser(db, { role: 'viewer' });
    const moderator = await signInAsUser(db, { role: 'moderator' });
    const admin = await signInAsUser(db, { role: 'admin', firstName: 'Grace', lastName: 'Hopper' });

    for (const who of [viewer, moderator]) {
      expect((await get(who.cookie)).statusCode).toBe(200);
      const refusedCreate = await create({ ...FALL_2026, kind: 'Spring Ball', name: 'Spring Ball 2026', startsOn: '2026-03-01', endsOn: '2026-06-30', registrationDeadline: '2026-03-31' }, who.cookie);
      expect(refusedCreate.statusCode).toBe(403);
      expect((await patch('fall-2026', { closed: true }, who.cookie)).statusCode).toBe(403);
    }
    expect((await seasons()).find((s) => s.id === 'fall-2026')?.closed).toBe(false);

    const byAdmin = await create(
      { ...FALL_2026, kind: 'Spring Ball', name: 'Spring Ball 2026', startsOn: '2026-03-01', endsOn: '2026-06-30', registrationDeadline: '2026-03-31' },
      admin.cookie,
    );
    expect(byAdmin.statusCode).toBe(201);
    expect(ZSeasonResponse.parse(byAdmin.json()).season).toMatchObject({ id: 'spring-2026', isCurrent: false });
    const [audit] = await audits('spring-2026');
    expect(audit).toMatchObject({ action: 'season.created', actor: 'user', actorUserId: admin.userId, actorName: 'Grace Hopper' });
  });
});
