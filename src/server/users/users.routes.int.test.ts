import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZUserList, ZUserResponse, type TApiError, type TUser } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { listAuditEvents, listAuditEventsByAction } from '../audit/audit-events.repository';
import type { Db } from '../platform/db/client';
import { findUserById, insertUser, insertUsers, listUsers, updateUser } from './users.repository';

/** Seeded before the server starts: one per role and status, and a name with LIKE's wildcards in it. */
const SEEDED = [
  { id: randomUUID(), email: 'morgan.reyes@example.org', firstName: 'Morgan', lastName: 'Reyes', role: 'admin', status: 'active', lastLoginAt: new Date('2026-11-20T09:30:00Z') },
  { id: randomUUID(), email: 'priya.natarajan@example.org', firstName: 'Priya', lastName: 'Natarajan', role: 'moderator', status: 'inactive' },
  { id: randomUUID(), email: 'sam.okafor@league.test', firstName: 'Sam', lastName: 'Okafor', role: 'viewer', status: 'pending' },
  { id: randomUUID(), email: 'wild_card@example.org', firstName: 'Percy', lastName: '100%Sure', role: 'viewer', status: 'active' },
] as const;
const [MORGAN, PRIYA, SAM, PERCY] = SEEDED;

describeEachDatabase('user management calls', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let cookie = '';
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const db = (): Db => getDatabase().db;
  type Call = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object; headers?: Record<string, string> };
  const call = ({ method, url, payload, headers = { cookie } }: Call) => app().inject({ method, url, payload, headers });
  const list = async (query = '') => {
    const response = await call({ method: 'GET', url: `/api/users${query}` });
    expect(response.statusCode, query).toBe(200);
    return ZUserList.parse(response.json()).users;
  };
  const emails = async (query = '') => (await list(query)).map((u) => u.email);
  const detailPaths = (body: unknown) => ((body as TApiError).details ?? []).map((d) => d.path).sort();
  const userAudits = async () => (await listAuditEventsByAction(db(), 'user.created')).concat(
    await listAuditEventsByAction(db(), 'user.updated'),
    await listAuditEventsByAction(db(), 'user.deleted'),
  );
  /** Everything a failed write could have left behind: the users table and the user audit trail. */
  const snapshot = async () => ({ users: await listUsers(db()), audits: (await userAudits()).length });

  beforeAll(async () => {
    await insertUsers(db(), SEEDED.map((u) => ({ ...u })));
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-users-api', startWorkers: false });
    cookie = server.cookie;
  });
  afterAll(() => server?.close());

  it('needs a session for every call, and writes nothing without one', async () => {
    const before = await snapshot();
    const calls: Call[] = [
      { method: 'GET', url: '/api/users' },
      { method: 'POST', url: '/api/users', payload: { email: 'x@example.org', firstName: 'X', lastName: 'Y', role: 'admin' } },
      { method: 'PATCH', url: `/api/users/${PRIYA.id}`, payload: { role: 'admin' } },
      { method: 'DELETE', url: `/api/users/${PRIYA.id}` },
    ];
    for (const request of calls) {
      const response = await call({ ...request, headers: {} });
      expect(response.statusCode, request.method).toBe(401);
      expect(response.json(), request.method).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('GET /api/users lists every user by last name with every field of a user', async () => {
    const users = await list();
    expect(users.map((u) => u.lastName)).toEqual(['100%Sure', 'Natarajan', 'Okafor', 'Reyes']);
    expect(users.find((u) => u.id === MORGAN.id)).toEqual({
      id: MORGAN.id,
      email: 'morgan.reyes@example.org',
      firstName: 'Morgan',
      lastName: 'Reyes',
      role: 'admin',
      status: 'active',
      divisions: [],
      twoFactorEnabled: false,
      lastLogin: '2026-11-20T09:30:00.000Z',
      lastActionAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) as unknown as string,
      profileImageUrl: null,
    } satisfies TUser);
    expect(users.find((u) => u.id === SAM.id)?.lastLogin).toBeNull();
  });

  it('GET /api/users filters by role and status and searches first name, last name and e-mail case-insensitively', async () => {
    expect(await emails('?role=moderator')).toEqual([PRIYA.email]);
    expect(await emails('?status=active')).toEqual([PERCY.email, MORGAN.email]);
    expect(await emails('?role=viewer&status=pending')).toEqual([SAM.email]);
    expect(await emails('?role=all&status=all')).toHaveLength(4);
    expect(await emails('?search=PRIYA')).toEqual([PRIYA.email]);
    expect(await emails('?search=okaf')).toEqual([SAM.email]);
    expect(await emails('?search=LEAGUE.TEST')).toEqual([SAM.email]);
    expect(await emails(`?search=${encodeURIComponent('morgan r')}`)).toEqual([MORGAN.email]);
    expect(await emails(`?search=${encodeURIComponent('  reyes ')}`)).toEqual([MORGAN.email]);
    // LIKE's wildcards are plain characters: '%' finds only the name with one, '_' only the e-mail with one.
    expect(await emails(`?search=${encodeURIComponent('%')}`)).toEqual([PERCY.email]);
    expect(await emails(`?search=${encodeURIComponent('_')}`)).toEqual([PERCY.email]);
    expect(await emails('?search=example.org&role=moderator')).toEqual([PRIYA.email]);
    expect(await emails('?search=nobody-by-this-name')).toEqual([]);
  });

  it('GET /api/users names every bad parameter', async () => {
    const response = await call({ method: 'GET', url: `/api/users?role=owner&status=gone&search=${'x'.repeat(101)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(detailPaths(response.json())).toEqual(['querystring.role', 'querystring.search', 'querystring.status']);
    const messages = Object.fromEntries((response.json<TApiError>().details ?? []).map((d) => [d.path, d.message]));
    expect(messages).toEqual({
      'querystring.role': 'must be all, admin, moderator or viewer',
      'querystring.status': 'must be all, active, inactive or pending',
      'querystring.search': 'must be at most 100 characters',
    });
  });

  it('POST /api/users adds a user (201, trimmed, active by default) and audits it in the same call', async () => {
    const response = await call({
      method: 'POST',
      url: '/api/users',
      payload: { email: ' Dana.Lee@Example.org ', firstName: ' Dana ', lastName: 'Lee ', role: 'moderator' },
    });
    expect(response.statusCode).toBe(201);
    const { user } = ZUserResponse.parse(response.json());
    expect(user).toMatchObject({ email: 'Dana.Lee@Example.org', firstName: 'Dana', lastName: 'Lee', role: 'moderator', status: 'active', lastLogin: null, profileImageUrl: null });
    expect(Date.now() - Date.parse(user.createdAt)).toBeLessThan(60_000);
    expect((await list('?search=dana')).map((u) => u.id)).toEqual([user.id]);

    const audits = await listAuditEvents(db(), 'user', user.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: 'staff',
      action: 'user.created',
      requestId: response.headers['x-request-id'],
      detail: { email: 'Dana.Lee@Example.org', firstName: 'Dana', lastName: 'Lee', role: 'moderator', status: 'active' },
    });

    const pending = await call({ method: 'POST', url: '/api/users', payload: { email: 'new.hire@example.org', firstName: 'New', lastName: 'Hire', role: 'viewer', status: 'pending' } });
    expect(pending.statusCode).toBe(201);
    expect(ZUserResponse.parse(pending.json()).user.status).toBe('pending');
  });

  it('POST /api/users answers 409 naming the e-mail when it is taken in any letter case, and writes nothing', async () => {
    const before = await snapshot();
    const response = await call({ method: 'POST', url: '/api/users', payload: { email: 'MORGAN.Reyes@example.ORG', firstName: 'Other', lastName: 'Morgan', role: 'viewer' } });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'The e-mail MORGAN.Reyes@example.ORG is already used by Morgan Reyes.',
      details: [{ path: 'body.email', message: 'MORGAN.Reyes@example.ORG is already used by Morgan Reyes' }],
    });
    expect(await snapshot()).toEqual(before);
  });

  it('POST /api/users names every bad field (400) and writes nothing', async () => {
    const before = await snapshot();
    const response = await call({ method: 'POST', url: '/api/users', payload: { email: 'not-an-email', firstName: '  ', role: 'owner', status: 'gone' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(detailPaths(response.json())).toEqual(['body.email', 'body.firstName', 'body.lastName', 'body.role', 'body.status']);
    const messages = Object.fromEntries((response.json<TApiError>().details ?? []).map((d) => [d.path, d.message]));
    expect(messages).toEqual({
      'body.email': 'Enter a valid e-mail address, such as name@example.org',
      'body.firstName': 'First name is required',
      'body.lastName': 'Last name is required',
      'body.role': 'Role must be admin, moderator or viewer',
      'body.status': 'Status must be active, inactive or pending',
    });
    expect((response.json<TApiError>()).message).toContain('body.email: Enter a valid e-mail address');

    const onlyEmail = await call({ method: 'POST', url: '/api/users', payload: { email: 'a@b', firstName: 'A', lastName: 'B', role: 'viewer' } });
    expect(onlyEmail.statusCode).toBe(400);
    expect(detailPaths(onlyEmail.json())).toEqual(['body.email']);
    expect((await call({ method: 'POST', url: '/api/users', payload: {} })).statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('PATCH /api/users/{id} changes role and status, and audits each change as from and to', async () => {
    const response = await call({ method: 'PATCH', url: `/api/users/${PRIYA.id}`, payload: { role: 'admin', status: 'active' } });
    expect(response.statusCode).toBe(200);
    expect(ZUserResponse.parse(response.json()).user).toMatchObject({ id: PRIYA.id, email: PRIYA.email, role: 'admin', status: 'active' });
    expect(await findUserById(db(), PRIYA.id)).toMatchObject({ role: 'admin', status: 'active' });

    const audits = await listAuditEvents(db(), 'user', PRIYA.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: 'staff',
      action: 'user.updated',
      requestId: response.headers['x-request-id'],
      detail: { role: { from: 'moderator', to: 'admin' }, status: { from: 'inactive', to: 'active' } },
    });

    // The same values again change nothing and record nothing.
    const again = await call({ method: 'PATCH', url: `/api/users/${PRIYA.id}`, payload: { role: 'admin' } });
    expect(again.statusCode).toBe(200);
    expect(await listAuditEvents(db(), 'user', PRIYA.id)).toHaveLength(1);
  });

  it("PATCH /api/users/{id} changes names and e-mail, including the letter case of the user's own e-mail", async () => {
    const response = await call({ method: 'PATCH', url: `/api/users/${SAM.id}`, payload: { email: 'Sam.Okafor@League.test', firstName: ' Samuel ' } });
    expect(response.statusCode).toBe(200);
    expect(ZUserResponse.parse(response.json()).user).toMatchObject({ email: 'Sam.Okafor@League.test', firstName: 'Samuel', lastName: 'Okafor' });
    const [audit] = await listAuditEvents(db(), 'user', SAM.id);
    expect(audit?.detail).toEqual({ email: { from: 'sam.okafor@league.test', to: 'Sam.Okafor@League.test' }, firstName: { from: 'Sam', to: 'Samuel' } });
  });

  it("PATCH /api/users/{id} answers 409 for another user's e-mail in any case, 404 for an unknown user, 400 for a bad body; writes nothing", async () => {
    const before = await snapshot();
    const taken = await call({ method: 'PATCH', url: `/api/users/${PERCY.id}`, payload: { email: 'Morgan.Reyes@Example.org', role: 'admin' } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'CONFLICT', message: 'The e-mail Morgan.Reyes@Example.org is already used by Morgan Reyes.', details: [{ path: 'body.email' }] });

    const unknownId = randomUUID();
    const unknown = await call({ method: 'PATCH', url: `/api/users/${unknownId}`, payload: { role: 'admin' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: `User ${unknownId} does not exist; it may have been deleted.` });

    const empty = await call({ method: 'PATCH', url: `/api/users/${PERCY.id}`, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body', message: 'Change at least one of e-mail, first name, last name, role or status.' }] });

    const bad = await call({ method: 'PATCH', url: `/api/users/${PERCY.id}`, payload: { email: 'nope', role: 'owner' } });
    expect(bad.statusCode).toBe(400);
    expect(detailPaths(bad.json())).toEqual(['body.email', 'body.role']);

    const extra = await call({ method: 'PATCH', url: `/api/users/${PERCY.id}`, payload: { role: 'admin', lastLogin: '2020-01-01T00:00:00Z' } });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ details: [{ path: 'body', message: 'Unknown field lastLogin: change email, firstName, lastName, role or status' }] });

    const malformedId = await call({ method: 'PATCH', url: '/api/users/not-a-uuid', payload: { role: 'admin' } });
    expect(malformedId.statusCode).toBe(400);
    expect(detailPaths(malformedId.json())).toEqual(['params.id']);
    expect(await snapshot()).toEqual(before);
  });

  it('DELETE /api/users/{id} removes the user (204) with an audit entry that keeps who it was; again is 404', async () => {
    const response = await call({ method: 'DELETE', url: `/api/users/${PERCY.id}` });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await list()).map((u) => u.id)).not.toContain(PERCY.id);
    const audits = await listAuditEvents(db(), 'user', PERCY.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: 'staff',
      action: 'user.deleted',
      requestId: response.headers['x-request-id'],
      detail: { email: PERCY.email, firstName: 'Percy', lastName: '100%Sure', role: 'viewer', status: 'active' },
    });

    const before = await snapshot();
    const again = await call({ method: 'DELETE', url: `/api/users/${PERCY.id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await call({ method: 'DELETE', url: '/api/users/42' })).statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('a write whose audit entry fails leaves nothing behind: the user and its audit commit together', async () => {
    // A trigger that refuses some audit rows stands in for any failure after the change. A function body takes
    // no bind parameters, so the (generated) id is written into it.
    await db().execute(sql`
      create function refuse_audit_for_test() returns trigger language plpgsql as $$
      begin
        if new.subject_type = 'user' and (new.detail->>'email' = 'audit.fails@example.org' or new.subject_id = '${sql.raw(SAM.id)}') then
          raise exception 'audit refused for the test';
        end if;
        return new;
      end $$`);
    await db().execute(sql`create trigger refuse_audit_for_test before insert on audit_events for each row execute function refuse_audit_for_test()`);
    try {
      const before = await snapshot();
      const created = await call({ method: 'POST', url: '/api/users', payload: { email: 'audit.fails@example.org', firstName: 'Au', lastName: 'Dit', role: 'viewer' } });
      expect(created.statusCode).toBe(500);
      expect(created.json()).toMatchObject({ code: 'INTERNAL' });
      const changed = await call({ method: 'PATCH', url: `/api/users/${SAM.id}`, payload: { role: 'admin' } });
      expect(changed.statusCode).toBe(500);
      const deleted = await call({ method: 'DELETE', url: `/api/users/${SAM.id}` });
      expect(deleted.statusCode).toBe(500);
      expect(await snapshot()).toEqual(before);
      expect(await findUserById(db(), SAM.id)).toMatchObject({ role: 'viewer' });
    } finally {
      await db().execute(sql`drop trigger refuse_audit_for_test on audit_events`);
      await db().execute(sql`drop function refuse_audit_for_test()`);
    }
  });

  it('the repository refuses a taken e-mail in any case when a concurrent change slipped past the check', async () => {
    const before = await snapshot();
    const row = { email: 'PRIYA.natarajan@example.org', firstName: 'P', lastName: 'N', role: 'viewer', status: 'active' } as const;
    expect(await insertUser(db(), row)).toBe('email-taken');
    expect(await updateUser(db(), MORGAN.id, { email: 'Priya.Natarajan@EXAMPLE.org' })).toBe('email-taken');
    expect(await snapshot()).toEqual(before);
  });
});
