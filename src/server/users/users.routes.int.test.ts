import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { INVITATION_INVALID_MESSAGE, ZInvitationStatus, ZSessionList, ZUserActivity, ZUserCreated, ZUserInvitation, ZUserList, ZUserResponse, type TApiError, type TUser } from '../../contract';
import { addPerson, setSignInMode, signInAs, tokenOfLink } from '../../../tests/support/accounts';
import { startSmtpReceiver, type SmtpReceiver } from '../../../tests/support/smtp-receiver';
import { createLogger } from '../platform/logger';
import { describeEachDatabase } from '../../../tests/support/databases';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { listAuditEvents, listAuditEventsByAction } from '../audit/audit-events.repository';
import type { Db } from '../platform/db/client';
import { userTokens } from '../platform/db/schema';
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
    await listAuditEventsByAction(db(), 'user.invitation_issued'),
  );
  /** Everything a failed write could have left behind: the users table, their links and the user audit trail. */
  const snapshot = async () => ({ users: await listUsers(db()), links: await db().$count(userTokens), audits: (await userAudits()).length });
  const linkStatus = (token: string) => app().inject({ method: 'POST', url: '/api/auth/invitation/status', payload: { token } });
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

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
      { method: 'GET', url: '/api/users/activity' },
      { method: 'POST', url: '/api/users', payload: { email: 'x@example.org', firstName: 'X', lastName: 'Y', role: 'admin' } },
      { method: 'POST', url: `/api/users/${SAM.id}/invitation` },
      { method: 'PATCH', url: `/api/users/${PRIYA.id}`, payload: { role: 'admin' } },
      { method: 'DELETE', url: `/api/users/${PRIYA.id}` },
      { method: 'GET', url: `/api/users/${PERCY.id}/sessions` },
      { method: 'DELETE', url: `/api/users/${PERCY.id}/sessions` },
      { method: 'DELETE', url: `/api/users/${PERCY.id}/two-factor` },
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

  it('POST /api/users invites a person: pending, with a single-use link of 7 days whose token only the answer holds; audited without it', async () => {
    const response = await call({
      method: 'POST',
      url: '/api/users',
      payload: { email: ' Dana.Lee@Example.org ', firstName: ' Dana ', lastName: 'Lee ', role: 'moderator', divisions: ['AA', 'AAA', 'AA'] },
    });
    expect(response.statusCode).toBe(201);
    const { user, invitation, emailed } = ZUserCreated.parse(response.json());
    expect(user).toMatchObject({ email: 'Dana.Lee@Example.org', firstName: 'Dana', lastName: 'Lee', role: 'moderator', status: 'pending', divisions: ['AAA', 'AA'], lastLogin: null, twoFactorEnabled: false });
    expect(Date.now() - Date.parse(user.createdAt)).toBeLessThan(60_000);
    // No mail server is set up: the admin passes the link on.
    expect(emailed).toBe(false);
    // The request's own origin (no CLEARBASE_PUBLIC_URL), the token in the fragment.
    expect(invitation.url).toMatch(/^http:\/\/localhost(:80)?\/invitation#token=[\w-]{43}$/);
    const token = tokenOfLink(invitation.url);
    const days = (Date.parse(invitation.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    // Only the token's SHA-256 is stored.
    const stored = await db().select().from(userTokens);
    expect(stored.filter((row) => row.userId === user.id)).toEqual([expect.objectContaining({ tokenHash: sha256(token), purpose: 'invitation' })]);
    expect(JSON.stringify(stored)).not.toContain(token);

    const status = await linkStatus(token);
    expect(status.statusCode).toBe(200);
    expect(ZInvitationStatus.parse(status.json())).toEqual({ email: 'Dana.Lee@Example.org', firstName: 'Dana', purpose: 'invitation', expiresAt: invitation.expiresAt });

    const audits = await listAuditEvents(db(), 'user', user.id);
    expect(audits.map((a) => a.action)).toEqual(['user.created', 'user.invitation_issued']);
    expect(audits[0]).toMatchObject({
      actor: 'shared-password',
      actorName: 'Shared password',
      requestId: response.headers['x-request-id'],
      detail: { email: 'Dana.Lee@Example.org', firstName: 'Dana', lastName: 'Lee', role: 'moderator', status: 'pending', divisions: ['AAA', 'AA'] },
    });
    expect(audits[1]?.detail).toEqual({ purpose: 'invitation', expiresAt: invitation.expiresAt });
    expect(JSON.stringify(audits)).not.toContain(token);
    expect((await list('?search=dana')).map((u) => u.id)).toEqual([user.id]);
  });

  it('POST /api/users/{id}/invitation: a new invitation for a pending user (the older link stops), a reset for an active one, 409 for an inactive one', async () => {
    const first = await call({ method: 'POST', url: `/api/users/${SAM.id}/invitation` });
    expect(first.statusCode).toBe(200);
    const firstLink = ZUserInvitation.parse(first.json());
    expect(firstLink.emailed).toBe(false);
    const second = ZUserInvitation.parse((await call({ method: 'POST', url: `/api/users/${SAM.id}/invitation` })).json());
    expect((await linkStatus(tokenOfLink(firstLink.invitation.url))).json()).toMatchObject({ code: 'NOT_FOUND', message: INVITATION_INVALID_MESSAGE });
    expect(ZInvitationStatus.parse((await linkStatus(tokenOfLink(second.invitation.url))).json())).toMatchObject({ email: SAM.email, purpose: 'invitation' });

    const reset = ZUserInvitation.parse((await call({ method: 'POST', url: `/api/users/${PERCY.id}/invitation` })).json());
    expect(ZInvitationStatus.parse((await linkStatus(tokenOfLink(reset.invitation.url))).json())).toMatchObject({ email: PERCY.email, purpose: 'reset' });
    const issued = (await listAuditEvents(db(), 'user', PERCY.id)).filter((a) => a.action === 'user.invitation_issued');
    expect(issued.map((a) => a.detail)).toEqual([{ purpose: 'reset', expiresAt: reset.invitation.expiresAt }]);

    const before = await snapshot();
    const inactive = await call({ method: 'POST', url: `/api/users/${PRIYA.id}/invitation` });
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json()).toMatchObject({ code: 'CONFLICT', message: 'Reactivate Priya Natarajan first: an inactive account gets no link to sign in.' });
    expect((await call({ method: 'POST', url: `/api/users/${randomUUID()}/invitation` })).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
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
    const response = await call({ method: 'POST', url: '/api/users', payload: { email: 'not-an-email', firstName: '  ', role: 'owner', divisions: ['Z'] } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(detailPaths(response.json())).toEqual(['body.divisions.0', 'body.email', 'body.firstName', 'body.lastName', 'body.role']);
    const messages = Object.fromEntries((response.json<TApiError>().details ?? []).map((d) => [d.path, d.message]));
    expect(messages).toEqual({
      'body.email': 'Enter a valid e-mail address, such as name@example.org',
      'body.firstName': 'First name is required',
      'body.lastName': 'Last name is required',
      'body.role': 'Role must be admin, moderator or viewer',
      'body.divisions.0': 'Division must be one of AAA, AA, A, TEST, Peewee',
    });
    expect((response.json<TApiError>()).message).toContain('body.email: Enter a valid e-mail address');

    const onlyEmail = await call({ method: 'POST', url: '/api/users', payload: { email: 'a@b', firstName: 'A', lastName: 'B', role: 'viewer' } });
    expect(onlyEmail.statusCode).toBe(400);
    expect(detailPaths(onlyEmail.json())).toEqual(['body.email']);
    expect((await call({ method: 'POST', url: '/api/users', payload: {} })).statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('PATCH /api/users/{id} changes role, status and divisions, and audits each change as from and to', async () => {
    const response = await call({ method: 'PATCH', url: `/api/users/${PRIYA.id}`, payload: { role: 'admin', status: 'active', divisions: ['A', 'AAA'] } });
    expect(response.statusCode).toBe(200);
    expect(ZUserResponse.parse(response.json()).user).toMatchObject({ id: PRIYA.id, email: PRIYA.email, role: 'admin', status: 'active', divisions: ['AAA', 'A'] });
    expect(await findUserById(db(), PRIYA.id)).toMatchObject({ role: 'admin', status: 'active', divisions: ['AAA', 'A'] });

    const audits = await listAuditEvents(db(), 'user', PRIYA.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: 'shared-password',
      action: 'user.updated',
      requestId: response.headers['x-request-id'],
      detail: { role: { from: 'moderator', to: 'admin' }, status: { from: 'inactive', to: 'active' }, divisions: { from: [], to: ['AAA', 'A'] } },
    });
    // The same divisions in another order are no change.
    expect((await call({ method: 'PATCH', url: `/api/users/${PRIYA.id}`, payload: { divisions: ['AAA', 'A'] } })).statusCode).toBe(200);
    expect(await listAuditEvents(db(), 'user', PRIYA.id)).toHaveLength(1);

    // The same values again change nothing and record nothing.
    const again = await call({ method: 'PATCH', url: `/api/users/${PRIYA.id}`, payload: { role: 'admin' } });
    expect(again.statusCode).toBe(200);
    expect(await listAuditEvents(db(), 'user', PRIYA.id)).toHaveLength(1);
  });

  it("PATCH /api/users/{id} changes names and e-mail, including the letter case of the user's own e-mail", async () => {
    const response = await call({ method: 'PATCH', url: `/api/users/${SAM.id}`, payload: { email: 'Sam.Okafor@League.test', firstName: ' Samuel ' } });
    expect(response.statusCode).toBe(200);
    expect(ZUserResponse.parse(response.json()).user).toMatchObject({ email: 'Sam.Okafor@League.test', firstName: 'Samuel', lastName: 'Okafor' });
    const [audit] = (await listAuditEvents(db(), 'user', SAM.id)).filter((a) => a.action === 'user.updated');
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
    expect(empty.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body', message: 'Change at least one of e-mail, first name, last name, role, status or divisions.' }] });

    const bad = await call({ method: 'PATCH', url: `/api/users/${PERCY.id}`, payload: { email: 'nope', role: 'owner' } });
    expect(bad.statusCode).toBe(400);
    expect(detailPaths(bad.json())).toEqual(['body.email', 'body.role']);

    const extra = await call({ method: 'PATCH', url: `/api/users/${PERCY.id}`, payload: { role: 'admin', lastLogin: '2020-01-01T00:00:00Z' } });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ details: [{ path: 'body', message: 'Unknown field lastLogin: change email, firstName, lastName, role, status or divisions' }] });

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
    const audits = (await listAuditEvents(db(), 'user', PERCY.id)).filter((a) => a.action === 'user.deleted');
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: 'shared-password',
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

  describe('with personal accounts', () => {
    const ADMIN = { email: 'ada.admin@example.org', password: 'ada admin passphrase 1' };
    const VIEWER = { email: 'vic.viewer@example.org', password: 'vic viewer passphrase 1' };
    let adminId = '';
    let viewerId = '';
    let adminCookie = '';

    beforeAll(async () => {
      await setSignInMode(app(), cookie, 'both');
      adminId = (await addPerson(app(), cookie, { ...ADMIN, role: 'admin', firstName: 'Ada', lastName: 'Admin' })).id;
      viewerId = (await addPerson(app(), cookie, { ...VIEWER, role: 'viewer', firstName: 'Vic', lastName: 'Viewer' })).id;
      adminCookie = await signInAs(app(), ADMIN);
    });

    it('an admin may not deactivate, demote or delete themselves (409), and nothing changes', async () => {
      const before = await snapshot();
      const asAdmin = (request: Omit<Call, 'headers'>) => call({ ...request, headers: { cookie: adminCookie } });
      const deactivate = await asAdmin({ method: 'PATCH', url: `/api/users/${adminId}`, payload: { status: 'inactive' } });
      expect(deactivate.statusCode).toBe(409);
      expect(deactivate.json()).toMatchObject({ code: 'CONFLICT', message: 'You cannot deactivate your own account. Ask another admin to do it.' });
      const demote = await asAdmin({ method: 'PATCH', url: `/api/users/${adminId}`, payload: { role: 'moderator' } });
      expect(demote.json()).toMatchObject({ code: 'CONFLICT', message: 'You cannot take away your own admin role. Ask another admin to do it.' });
      const remove = await asAdmin({ method: 'DELETE', url: `/api/users/${adminId}` });
      expect(remove.json()).toMatchObject({ code: 'CONFLICT', message: 'You cannot delete your own account. Ask another admin to do it.' });
      expect(await snapshot()).toEqual(before);
      // Their own names they may change.
      expect((await asAdmin({ method: 'PATCH', url: `/api/users/${adminId}`, payload: { firstName: 'Adah' } })).statusCode).toBe(200);
    });

    it("GET and DELETE /api/users/{id}/sessions list another person's sessions and sign them out everywhere", async () => {
      const first = await signInAs(app(), VIEWER);
      const second = await signInAs(app(), VIEWER);
      const listed = await call({ method: 'GET', url: `/api/users/${viewerId}/sessions`, headers: { cookie: adminCookie } });
      expect(listed.statusCode).toBe(200);
      const { sessions } = ZSessionList.parse(listed.json());
      expect(sessions).toHaveLength(2);
      expect(sessions.every((session) => !session.current && session.id.length === 16)).toBe(true);

      const ended = await call({ method: 'DELETE', url: `/api/users/${viewerId}/sessions`, headers: { cookie: adminCookie } });
      expect(ended.statusCode).toBe(200);
      expect(ended.json()).toEqual({ ended: 2 });
      for (const viewerCookie of [first, second]) {
        expect((await call({ method: 'GET', url: '/api/users', headers: { cookie: viewerCookie } })).statusCode).toBe(401);
      }
      expect(ZSessionList.parse((await call({ method: 'GET', url: `/api/users/${viewerId}/sessions`, headers: { cookie: adminCookie } })).json()).sessions).toEqual([]);
      const [audit] = (await listAuditEvents(db(), 'user', viewerId)).filter((a) => a.action === 'auth.sessions_ended');
      expect(audit).toMatchObject({ actor: 'user', actorUserId: adminId, actorName: 'Adah Admin', detail: { ended: 2, keptCurrent: false } });
      expect((await call({ method: 'GET', url: `/api/users/${randomUUID()}/sessions`, headers: { cookie: adminCookie } })).statusCode).toBe(404);
    });

    it('a viewer may read the list and the activity but change nothing (403)', async () => {
      const viewerCookie = await signInAs(app(), VIEWER);
      expect((await call({ method: 'GET', url: '/api/users', headers: { cookie: viewerCookie } })).statusCode).toBe(200);
      expect((await call({ method: 'GET', url: '/api/users/activity', headers: { cookie: viewerCookie } })).statusCode).toBe(200);
      const before = await snapshot();
      const refused = await call({ method: 'POST', url: '/api/users', headers: { cookie: viewerCookie }, payload: { email: 'n@example.org', firstName: 'N', lastName: 'O', role: 'admin' } });
      expect(refused.statusCode).toBe(403);
      expect((await call({ method: 'PATCH', url: `/api/users/${viewerId}`, headers: { cookie: viewerCookie }, payload: { role: 'admin' } })).statusCode).toBe(403);
      expect((await call({ method: 'GET', url: `/api/users/${viewerId}/sessions`, headers: { cookie: viewerCookie } })).statusCode).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it('GET /api/users/activity: newest first, by person or the shared password, in pages; the list says when each person last acted', async () => {
      const everyone = ZUserActivity.parse((await call({ method: 'GET', url: '/api/users/activity?limit=200' })).json());
      const ids = everyone.entries.map((entry) => entry.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));

      const adminOnly = ZUserActivity.parse((await call({ method: 'GET', url: `/api/users/activity?userId=${adminId}` })).json());
      expect(adminOnly.entries.length).toBeGreaterThan(0);
      expect(adminOnly.entries.every((entry) => entry.actorUserId === adminId && entry.actorName.startsWith('Ada'))).toBe(true);
      expect(adminOnly.entries.map((entry) => entry.summary)).toContain('Signed in');
      expect(adminOnly.entries.map((entry) => entry.summary)).toContain('Signed out 2 sessions');

      const shared = ZUserActivity.parse((await call({ method: 'GET', url: '/api/users/activity?userId=shared' })).json());
      expect(shared.entries.every((entry) => entry.actorName === 'Shared password' && entry.actorUserId === null)).toBe(true);
      expect(shared.entries.map((entry) => entry.summary)).toContain('Invited Dana Lee');

      // Pages of two, continued by `before`, walk the same records as one long page.
      const walked: number[] = [];
      let before: number | null | undefined;
      for (let page = 0; page < 100 && before !== null; page++) {
        const query = before === undefined ? '?limit=2' : `?limit=2&before=${before}`;
        const answer = ZUserActivity.parse((await call({ method: 'GET', url: `/api/users/activity${query}` })).json());
        walked.push(...answer.entries.map((entry) => entry.id));
        before = answer.nextBefore;
      }
      expect(walked).toEqual(ids);

      const bad = await call({ method: 'GET', url: '/api/users/activity?userId=someone&limit=0' });
      expect(bad.statusCode).toBe(400);
      expect(detailPaths(bad.json())).toEqual(['querystring.limit', 'querystring.userId']);

      const users = await list();
      const adminRow = users.find((u) => u.id === adminId);
      expect(adminRow?.lastActionAt).toBe(adminOnly.entries[0]?.at);
      expect(adminRow?.lastLogin).not.toBeNull();
      expect(users.find((u) => u.id === SAM.id)?.lastActionAt).toBeNull();
    });

    it("DEACTIVATE ends the person's sessions and links at once; the last admin who can sign in cannot be demoted when only personal accounts sign in", async () => {
      const viewerCookie = await signInAs(app(), VIEWER);
      const link = ZUserInvitation.parse((await call({ method: 'POST', url: `/api/users/${viewerId}/invitation`, headers: { cookie: adminCookie } })).json());
      const deactivated = await call({ method: 'PATCH', url: `/api/users/${viewerId}`, headers: { cookie: adminCookie }, payload: { status: 'inactive' } });
      expect(deactivated.statusCode).toBe(200);
      expect((await call({ method: 'GET', url: '/api/users', headers: { cookie: viewerCookie } })).statusCode).toBe(401);
      expect((await linkStatus(tokenOfLink(link.invitation.url))).statusCode).toBe(404);

      // Two admins demote each other at the same moment: one of them must stay an admin.
      const second = { email: 'bo.admin@example.org', password: 'bo admin passphrase 12' };
      const secondId = (await addPerson(app(), cookie, { ...second, role: 'admin', firstName: 'Bo', lastName: 'Admin' })).id;
      const secondCookie = await signInAs(app(), second);
      await setSignInMode(app(), adminCookie, 'personal');
      const answers = await Promise.all([
        call({ method: 'PATCH', url: `/api/users/${secondId}`, headers: { cookie: adminCookie }, payload: { role: 'viewer' } }),
        call({ method: 'PATCH', url: `/api/users/${adminId}`, headers: { cookie: secondCookie }, payload: { role: 'viewer' } }),
      ]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses[0]).toBe(200);
      // The other is refused: by the last-admin rule, or by the gate when its sender was demoted first.
      expect([403, 409]).toContain(statuses[1]);
      const refused = answers.find((answer) => answer.statusCode === 409);
      if (refused) expect(refused.json<TApiError>().message).toMatch(/is the last active admin who can sign in/);
      const admins = (await listUsers(db())).filter((u) => u.role === 'admin' && u.status === 'active' && u.passwordHash !== null);
      expect(admins).toHaveLength(1);
    });
  });
});

describeEachDatabase('invitations by e-mail, pointing at the public address', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let receiver: SmtpReceiver | undefined;
  const logLines: string[] = [];
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const invite = (email: string) =>
    app().inject({ method: 'POST', url: '/api/users', headers: { cookie: server?.cookie ?? '' }, payload: { email, firstName: 'Mia', lastName: 'Mailed', role: 'viewer' } });

  beforeAll(async () => {
    receiver = await startSmtpReceiver({ refuse: ['nobody@example.org'] });
    server = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-users-mail',
      startWorkers: false,
      settings: { CLEARBASE_PUBLIC_URL: 'https://clearbase.example.org', SMTP_URL: receiver.url, SMTP_FROM: 'League <registrations@example.org>' },
      log: createLogger('info', { write: (line: string) => void logLines.push(line) }),
    });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.stop();
  });

  it('e-mails the link, which points at CLEARBASE_PUBLIC_URL whatever address the admin used', async () => {
    const response = await invite('mia.mailed@example.org');
    expect(response.statusCode).toBe(201);
    const { invitation, emailed } = ZUserCreated.parse(response.json());
    expect(emailed).toBe(true);
    expect(invitation.url).toMatch(/^https:\/\/clearbase\.example\.org\/invitation#token=[\w-]{43}$/);
    const [mail] = await (receiver?.waitFor(1) ?? Promise.reject(new Error('no receiver')));
    expect(mail).toMatchObject({ to: ['mia.mailed@example.org'], subject: 'You are invited to Clearbase' });
    expect(mail?.text).toContain(invitation.url);
    expect(mail?.text).toContain('Hello Mia');
    expect(mail?.html).toContain(invitation.url);
  });

  it('a send the mail server refuses is not a failed invitation: the admin gets the link, the log never does', async () => {
    const response = await invite('nobody@example.org');
    expect(response.statusCode).toBe(201);
    const { invitation, emailed } = ZUserCreated.parse(response.json());
    expect(emailed).toBe(false);
    const token = tokenOfLink(invitation.url);
    const warning = logLines.find((line) => line.includes('did not e-mail the link'));
    expect(warning).toBeDefined();
    expect(logLines.join('\n')).not.toContain(token);
  });
});
