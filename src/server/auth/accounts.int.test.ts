import { createHash } from 'node:crypto';
import { and, eq, isNotNull, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMON_PASSWORD_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  INVALID_SECOND_FACTOR_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  PERSONAL_ACCOUNTS_OFF_MESSAGE,
  SECOND_FACTOR_REQUIRED_MESSAGE,
  SHARED_PASSWORD_OFF_MESSAGE,
  TWO_FACTOR_SETUP_REQUIRED_MESSAGE,
  ZRecoveryCodes,
  ZSession,
  ZSessionList,
  ZTwoFactorSetup,
  ZUserCreated,
  ZUserInvitation,
  ZUserList,
  ZUserResponse,
  type TApiError,
} from '../../contract';
import { addPerson, enrolTwoFactor, loginAs, sessionCookieOf, setSignInMode, signInAs, tokenOfLink, totpCode } from '../../../tests/support/accounts';
import { describeEachDatabase } from '../../../tests/support/databases';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { listAuditEvents, listAuditEventsByAction } from '../audit/audit-events.repository';
import { verifyPassword } from '../platform/crypto/password';
import { loginAttempts, sessions, users, userTokens } from '../platform/db/schema';

describeEachDatabase('personal accounts', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  /** The shared password's session: an admin of every division. */
  let shared = '';
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const db = () => getDatabase().db;
  const get = (url: string, cookie: string) => app().inject({ method: 'GET', url, headers: { cookie } });
  const session = async (cookie: string) => ZSession.parse((await get('/api/auth/session', cookie)).json());
  const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0];
  const invite = async (email: string, role: 'admin' | 'moderator' | 'viewer' = 'viewer') => {
    const response = await app().inject({ method: 'POST', url: '/api/users', headers: { cookie: shared }, payload: { email, firstName: 'Ivy', lastName: 'Invited', role } });
    expect(response.statusCode).toBe(201);
    const created = ZUserCreated.parse(response.json());
    return { id: created.user.id, token: tokenOfLink(created.invitation.url) };
  };
  const accept = (token: string, password: string) => app().inject({ method: 'POST', url: '/api/auth/invitation', payload: { token, password } });
  const expectRefused = (response: { statusCode: number; json(): unknown }, status: number, code: string, message: string) => {
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code, message });
  };

  beforeAll(async () => {
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-accounts', startWorkers: false });
    shared = server.cookie;
  });
  afterAll(() => server?.close());

  describe('invitation links', () => {
    it('sets the password (12 characters at least, not a common one), makes the account active, and works once', async () => {
      const { id, token } = await invite('ivy.invited@example.org');
      const tooShort = await accept(token, 'short pass');
      expect(tooShort.statusCode).toBe(400);
      expect(tooShort.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body.password', message: 'Use at least 12 characters' }] });
      for (const common of ['password1234', 'Sunshine2024!', 'qwertyuiop12']) {
        const refused = await accept(token, common);
        expect(refused.statusCode, common).toBe(400);
        expect(refused.json(), common).toMatchObject({ code: 'VALIDATION_FAILED', message: COMMON_PASSWORD_MESSAGE, details: [{ path: 'body.password', message: COMMON_PASSWORD_MESSAGE }] });
      }
      // A refused password leaves the link usable.
      expect((await userRow(id))?.status).toBe('pending');

      const accepted = await accept(token, 'ivy chooses a long one');
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json()).toEqual({ email: 'ivy.invited@example.org' });
      const row = await userRow(id);
      expect(row?.status).toBe('active');
      await expect(verifyPassword('ivy chooses a long one', row?.passwordHash ?? '')).resolves.toBe(true);
      expect(await db().select().from(userTokens).where(eq(userTokens.userId, id))).toEqual([]);
      const [audit] = (await listAuditEvents(db(), 'user', id)).filter((a) => a.action === 'auth.password_set');
      expect(audit).toMatchObject({ actor: 'user', actorUserId: id, actorName: 'Ivy Invited', detail: { purpose: 'invitation', sessionsEnded: 0 } });

      expectRefused(await accept(token, 'ivy tries it again later'), 404, 'NOT_FOUND', INVITATION_INVALID_MESSAGE);
      expectRefused(await app().inject({ method: 'POST', url: '/api/auth/invitation/status', payload: { token } }), 404, 'NOT_FOUND', INVITATION_INVALID_MESSAGE);
    });

    it('of two uses at the same moment, exactly one sets the password', async () => {
      const { id, token } = await invite('twice.at.once@example.org');
      const answers = await Promise.all([accept(token, 'first racer passphrase'), accept(token, 'second racer passphrase')]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404]);
      const winner = answers.findIndex((answer) => answer.statusCode === 200);
      const hash = (await userRow(id))?.passwordHash ?? '';
      await expect(verifyPassword(winner === 0 ? 'first racer passphrase' : 'second racer passphrase', hash)).resolves.toBe(true);
    });

    it('stops working when it has expired', async () => {
      const { id, token } = await invite('too.late@example.org');
      await db().update(userTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(userTokens.userId, id));
      expectRefused(await app().inject({ method: 'POST', url: '/api/auth/invitation/status', payload: { token } }), 404, 'NOT_FOUND', INVITATION_INVALID_MESSAGE);
      expectRefused(await accept(token, 'a perfectly good passphrase'), 404, 'NOT_FOUND', INVITATION_INVALID_MESSAGE);
      expect((await userRow(id))?.status).toBe('pending');
      // A made-up token, and one too short to be one.
      expect((await accept(createHash('sha256').update('x').digest('base64url'), 'a perfectly good passphrase')).statusCode).toBe(404);
      expect((await accept('abc', 'a perfectly good passphrase')).json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body.token' }] });
    });

    it('a reset link sets a new password and ends every session of the person', async () => {
      await setSignInMode(app(), shared, 'both');
      const person = await addPerson(app(), shared, { email: 'rita.reset@example.org', password: 'rita first passphrase' });
      const cookies = [await signInAs(app(), person), await signInAs(app(), person)];
      const link = await app().inject({ method: 'POST', url: `/api/users/${person.id}/invitation`, headers: { cookie: shared } });
      const token = tokenOfLink(ZUserInvitation.parse(link.json()).invitation.url);
      expect((await app().inject({ method: 'POST', url: '/api/auth/invitation/status', payload: { token } })).json()).toMatchObject({ purpose: 'reset', email: person.email });
      expect((await accept(token, 'rita second passphrase')).statusCode).toBe(200);
      for (const cookie of cookies) expect((await get('/api/users', cookie)).statusCode).toBe(401);
      expectRefused(await loginAs(app(), person), 401, 'INVALID_PASSWORD', INVALID_CREDENTIALS_MESSAGE);
      expect((await loginAs(app(), { ...person, password: 'rita second passphrase' })).statusCode).toBe(200);
      const audit = (await listAuditEvents(db(), 'user', person.id)).filter((a) => a.action === 'auth.password_set').at(-1);
      expect(audit?.detail).toEqual({ purpose: 'reset', sessionsEnded: 2 });
    });
  });

  describe('signing in', () => {
    const PERSON = { email: 'Lou.Login@Example.org', password: 'lou login passphrase' };
    let personId = '';

    beforeAll(async () => {
      await setSignInMode(app(), shared, 'both');
      personId = (await addPerson(app(), shared, { ...PERSON, role: 'moderator', firstName: 'Lou', lastName: 'Login', divisions: ['AA'] })).id;
    });

    it('signs a person in by e-mail (any letter case) and password, as themselves with their role', async () => {
      const response = await loginAs(app(), { ...PERSON, email: 'lou.login@example.ORG' });
      expect(response.statusCode).toBe(200);
      const answer = ZSession.parse(response.json());
      expect(answer).toMatchObject({
        authenticated: true,
        signInMode: 'both',
        principal: { kind: 'user', userId: personId, name: 'Lou Login', email: 'Lou.Login@Example.org', role: 'moderator', divisions: ['AA'], twoFactorEnabled: false, twoFactorSetupRequired: false },
      });
      expect(answer.permissions).toContain('documents.review');
      expect(answer.permissions).not.toContain('users.manage');
      const cookie = sessionCookieOf(response);
      expect(await session(cookie)).toMatchObject({ authenticated: true, principal: { userId: personId } });
      const [row] = await db().select().from(sessions).where(eq(sessions.userId, personId));
      expect(row).toBeDefined();
      expect(Date.now() - ((await userRow(personId))?.lastLoginAt?.getTime() ?? 0)).toBeLessThan(60_000);
      const logins = (await listAuditEventsByAction(db(), 'auth.login')).filter((a) => a.actorUserId === personId);
      expect(logins.at(-1)).toMatchObject({ actor: 'user', actorName: 'Lou Login', subjectType: 'session', detail: { method: 'password' } });
      // A moderator is refused what only admins may do.
      expect((await app().inject({ method: 'POST', url: '/api/users', headers: { cookie }, payload: { email: 'x@example.org', firstName: 'X', lastName: 'Y', role: 'viewer' } })).statusCode).toBe(403);
    });

    it('answers the same refusal for an unknown e-mail, a wrong password, a pending and an inactive account, and audits each without the e-mail or password', async () => {
      const pending = await invite('still.pending@example.org');
      const inactive = await addPerson(app(), shared, { email: 'gone.inactive@example.org', password: 'inactive passphrase 1' });
      await app().inject({ method: 'PATCH', url: `/api/users/${inactive.id}`, headers: { cookie: shared }, payload: { status: 'inactive' } });
      const failedBefore = (await listAuditEventsByAction(db(), 'auth.login_failed')).length;
      const attempts = [
        { email: 'nobody.here@example.org', password: 'whatever passphrase' },
        { email: PERSON.email, password: 'not lou login passphrase' },
        { email: 'still.pending@example.org', password: 'whatever passphrase' },
        { email: inactive.email, password: inactive.password },
      ];
      for (const attempt of attempts) {
        const response = await loginAs(app(), attempt);
        expectRefused(response, 401, 'INVALID_PASSWORD', INVALID_CREDENTIALS_MESSAGE);
        expect(response.headers['set-cookie']).toBeUndefined();
      }
      const failed = (await listAuditEventsByAction(db(), 'auth.login_failed')).slice(failedBefore);
      expect(failed.map((a) => a.detail.reason)).toEqual(['unknown-account', 'wrong-password', 'wrong-password', 'account-inactive']);
      expect(failed.map((a) => a.subjectId)).toEqual([null, personId, pending.id, inactive.id]);
      const trail = JSON.stringify(failed).toLowerCase();
      for (const attempt of attempts) {
        expect(trail).not.toContain(attempt.email.toLowerCase());
        expect(trail).not.toContain(attempt.password);
      }
    });

    it('follows the sign-in mode: personal accounts refused under "shared", the shared password under "personal"', async () => {
      await setSignInMode(app(), shared, 'shared');
      expectRefused(await loginAs(app(), PERSON), 401, 'INVALID_PASSWORD', PERSONAL_ACCOUNTS_OFF_MESSAGE);
      expect((await session(shared)).signInMode).toBe('shared');
      await setSignInMode(app(), shared, 'both');
      expect((await loginAs(app(), PERSON)).statusCode).toBe(200);
      // The mode 'personal' is tested with its switch below (it ends the shared sessions).
    });

    it('limits attempts per account: 10 per 15 minutes for one e-mail, in any case, from any address; others are not affected', async () => {
      const target = { email: 'Tess.Throttled@example.org', password: 'tess throttled passphrase' };
      await addPerson(app(), shared, target);
      const answers: number[] = [];
      for (let i = 0; i < 10; i++) {
        const email = i % 2 === 0 ? target.email.toUpperCase() : target.email.toLowerCase();
        answers.push((await loginAs(app(), { email, password: 'wrong guess passphrase' }, undefined, { 'x-forwarded-for': `198.51.100.${i}` })).statusCode);
      }
      expect(answers).toEqual(Array(10).fill(401));
      const limited = await loginAs(app(), target);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many sign-in attempts for this e-mail address. Try again in 15 minutes.' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(900);
      // An unknown e-mail is limited the same way: the limit tells nothing about who has an account.
      for (let i = 0; i < 10; i++) await loginAs(app(), { email: 'nobody.throttled@example.org', password: 'wrong guess passphrase' });
      expect((await loginAs(app(), { email: 'nobody.throttled@example.org', password: 'wrong guess passphrase' })).statusCode).toBe(429);
      expect((await loginAs(app(), PERSON)).statusCode).toBe(200);
    });

    it('a role or divisions change reaches the open session at once; deactivation ends it', async () => {
      const person = await addPerson(app(), shared, { email: 'cass.changed@example.org', password: 'cass changed passphrase', role: 'viewer' });
      const cookie = await signInAs(app(), person);
      expect((await session(cookie)).principal).toMatchObject({ role: 'viewer', divisions: null });
      expect((await get(`/api/users/${person.id}/sessions`, cookie)).statusCode).toBe(403);
      await app().inject({ method: 'PATCH', url: `/api/users/${person.id}`, headers: { cookie: shared }, payload: { role: 'admin', divisions: ['A'] } });
      expect((await session(cookie)).principal).toMatchObject({ role: 'admin', divisions: ['A'] });
      expect((await get(`/api/users/${person.id}/sessions`, cookie)).statusCode).toBe(200);
      await app().inject({ method: 'PATCH', url: `/api/users/${person.id}`, headers: { cookie: shared }, payload: { status: 'inactive' } });
      expect(await session(cookie)).toMatchObject({ authenticated: false });
      expect((await get('/api/users', cookie)).statusCode).toBe(401);
      expect(await db().select().from(sessions).where(eq(sessions.userId, person.id))).toEqual([]);
    });
  });

  describe('own sessions', () => {
    it("lists the person's sessions with the current one marked, and signs out all the others", async () => {
      await setSignInMode(app(), shared, 'both');
      const person = await addPerson(app(), shared, { email: 'sol.sessions@example.org', password: 'sol sessions passphrase' });
      const [phone, laptop, tablet] = [await signInAs(app(), person), await signInAs(app(), person), await signInAs(app(), person)];
      const listed = ZSessionList.parse((await get('/api/auth/sessions', laptop)).json()).sessions;
      expect(listed).toHaveLength(3);
      expect(listed.filter((entry) => entry.current)).toHaveLength(1);
      const ended = await app().inject({ method: 'DELETE', url: '/api/auth/sessions', headers: { cookie: laptop } });
      expect(ended.json()).toEqual({ ended: 2 });
      expect((await get('/api/users', phone)).statusCode).toBe(401);
      expect((await get('/api/users', tablet)).statusCode).toBe(401);
      expect((await get('/api/users', laptop)).statusCode).toBe(200);
      expect(ZSessionList.parse((await get('/api/auth/sessions', laptop)).json()).sessions.map((entry) => entry.current)).toEqual([true]);
      const [audit] = (await listAuditEvents(db(), 'user', person.id)).filter((a) => a.action === 'auth.sessions_ended');
      expect(audit).toMatchObject({ actorUserId: person.id, detail: { ended: 2, keptCurrent: true } });
    });

    it('the shared password has no sessions of its own to list or end', async () => {
      expect((await get('/api/auth/sessions', shared)).json()).toEqual({ sessions: [] });
      expect((await app().inject({ method: 'DELETE', url: '/api/auth/sessions', headers: { cookie: shared } })).json()).toEqual({ ended: 0 });
      expect((await get('/api/users', shared)).statusCode).toBe(200);
    });
  });

  describe('two-step sign-in', () => {
    const PERSON = { email: 'tom.totp@example.org', password: 'tom totp passphrase' };
    let personId = '';
    let cookie = '';
    let secret = '';
    let recoveryCodes: string[] = [];

    beforeAll(async () => {
      await setSignInMode(app(), shared, 'both');
      personId = (await addPerson(app(), shared, { ...PERSON, role: 'moderator', firstName: 'Tom', lastName: 'Totp' })).id;
      cookie = await signInAs(app(), PERSON);
    });

    it('enrols with a secret sealed in the database, confirmed by a first code; answers ten recovery codes once', async () => {
      expect((await app().inject({ method: 'POST', url: '/api/auth/two-factor/setup', headers: { cookie: shared } })).statusCode).toBe(409);
      const setup = await app().inject({ method: 'POST', url: '/api/auth/two-factor/setup', headers: { cookie } });
      expect(setup.statusCode).toBe(200);
      const enrolment = ZTwoFactorSetup.parse(setup.json());
      secret = enrolment.secret;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(enrolment.otpauthUrl).toBe(`otpauth://totp/Clearbase:tom.totp%40example.org?secret=${secret}&issuer=Clearbase`);
      expect(enrolment.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
      const stored = await userRow(personId);
      expect(stored?.totpSecretSealed).toBeTruthy();
      expect(stored?.totpSecretSealed).not.toContain(secret);
      expect(stored?.totpEnabledAt).toBeNull();
      // Not on yet: signing in needs no code.
      expect((await loginAs(app(), PERSON)).statusCode).toBe(200);

      const wrong = await app().inject({ method: 'POST', url: '/api/auth/two-factor/enable', headers: { cookie }, payload: { code: '000000' } });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ details: [{ path: 'body.code', message: INVALID_SECOND_FACTOR_MESSAGE }] });
      const enabled = await app().inject({ method: 'POST', url: '/api/auth/two-factor/enable', headers: { cookie }, payload: { code: await totpCode(secret) } });
      expect(enabled.statusCode).toBe(200);
      recoveryCodes = ZRecoveryCodes.parse(enabled.json()).recoveryCodes;
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      const row = await userRow(personId);
      expect(row?.recoveryCodeHashes).toHaveLength(10);
      expect(JSON.stringify(row)).not.toContain(recoveryCodes[0]);
      const listed = ZUserList.parse((await get('/api/users?search=tom.totp', shared)).json()).users;
      expect(listed[0]?.twoFactorEnabled).toBe(true);
      expect((await listAuditEvents(db(), 'user', personId)).map((a) => a.action)).toContain('auth.two_factor_enabled');
      expect((await app().inject({ method: 'POST', url: '/api/auth/two-factor/setup', headers: { cookie } })).statusCode).toBe(409);
    });

    it('asks for the code only after the right password; refuses a wrong code and a code used before', async () => {
      expectRefused(await loginAs(app(), { ...PERSON, password: 'not the passphrase' }), 401, 'INVALID_PASSWORD', INVALID_CREDENTIALS_MESSAGE);
      expectRefused(await loginAs(app(), PERSON), 401, 'SECOND_FACTOR_REQUIRED', SECOND_FACTOR_REQUIRED_MESSAGE);
      expectRefused(await loginAs(app(), PERSON, '123456'), 401, 'INVALID_PASSWORD', INVALID_SECOND_FACTOR_MESSAGE);
      // The enrolment used the current step: the next one (a phone a little ahead) signs in, once.
      const code = await totpCode(secret, 1);
      const signedIn = await loginAs(app(), PERSON, code);
      expect(signedIn.statusCode).toBe(200);
      expectRefused(await loginAs(app(), PERSON, code), 401, 'INVALID_PASSWORD', INVALID_SECOND_FACTOR_MESSAGE);
      const logins = (await listAuditEventsByAction(db(), 'auth.login')).filter((a) => a.actorUserId === personId);
      expect(logins.at(-1)?.detail).toMatchObject({ method: 'password+totp' });
    });

    it('takes a recovery code in place of a code, once, however it is typed', async () => {
      const [first, second] = recoveryCodes;
      if (!first || !second) throw new Error('no recovery codes');
      expect((await loginAs(app(), PERSON, first)).statusCode).toBe(200);
      expectRefused(await loginAs(app(), PERSON, first), 401, 'INVALID_PASSWORD', INVALID_SECOND_FACTOR_MESSAGE);
      expect((await loginAs(app(), PERSON, ` ${second.toUpperCase().replace('-', ' ')} `)).statusCode).toBe(200);
      expect((await userRow(personId))?.recoveryCodeHashes).toHaveLength(8);
    });

    it('turns off with the password again; an admin can reset it for a lost phone', async () => {
      // Past the per-account limit by now (every attempt above counted): as if its 15 minutes had passed.
      await db().delete(loginAttempts).where(like(loginAttempts.addressHash, 'account:%'));
      const wrong = await app().inject({ method: 'DELETE', url: '/api/auth/two-factor', headers: { cookie }, payload: { password: 'not my passphrase' } });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ details: [{ path: 'body.password' }] });
      const off = await app().inject({ method: 'DELETE', url: '/api/auth/two-factor', headers: { cookie }, payload: { password: PERSON.password } });
      expect(off.statusCode).toBe(204);
      expect(await userRow(personId)).toMatchObject({ totpSecretSealed: null, totpEnabledAt: null, recoveryCodeHashes: [] });
      expect((await loginAs(app(), PERSON)).statusCode).toBe(200);

      await enrolTwoFactor(app(), cookie);
      expect((await loginAs(app(), PERSON)).statusCode).toBe(401);
      const reset = await app().inject({ method: 'DELETE', url: `/api/users/${personId}/two-factor`, headers: { cookie: shared } });
      expect(reset.statusCode).toBe(200);
      expect(ZUserResponse.parse(reset.json()).user.twoFactorEnabled).toBe(false);
      expect((await loginAs(app(), PERSON)).statusCode).toBe(200);
      const disabled = (await listAuditEvents(db(), 'user', personId)).filter((a) => a.action === 'auth.two_factor_disabled');
      expect(disabled.map((a) => a.detail)).toEqual([{ by: 'self' }, { by: 'admin' }]);
    });

    it('when required for admins, an admin without it may use only their account until it is set up, and cannot turn it off', async () => {
      const admin = await addPerson(app(), shared, { email: 'ari.required@example.org', password: 'ari required passphrase', role: 'admin' });
      const adminCookie = await signInAs(app(), admin);
      const patched = await app().inject({ method: 'PATCH', url: '/api/settings', headers: { cookie: shared }, payload: { requireTwoFactorForAdmins: true } });
      expect(patched.statusCode).toBe(200);
      try {
        // Read again within the session cache's time at most.
        await new Promise((resolve) => setTimeout(resolve, 5_100));
        expect((await session(adminCookie)).principal?.twoFactorSetupRequired).toBe(true);
        expectRefused(await get('/api/users', adminCookie), 403, 'FORBIDDEN', TWO_FACTOR_SETUP_REQUIRED_MESSAGE);
        // The own-account routes stay open, enrolment among them.
        expect((await get('/api/auth/sessions', adminCookie)).statusCode).toBe(200);
        await enrolTwoFactor(app(), adminCookie);
        expect((await session(adminCookie)).principal?.twoFactorSetupRequired).toBe(false);
        expect((await get('/api/users', adminCookie)).statusCode).toBe(200);
        const off = await app().inject({ method: 'DELETE', url: '/api/auth/two-factor', headers: { cookie: adminCookie }, payload: { password: admin.password } });
        expect(off.statusCode).toBe(409);
        expect(off.json<TApiError>().message).toMatch(/must use two-step sign-in/);
      } finally {
        await app().inject({ method: 'PATCH', url: '/api/settings', headers: { cookie: shared }, payload: { requireTwoFactorForAdmins: false } });
      }
    }, 20_000);
  });

  describe('sign-in mode "personal"', () => {
    it('is refused until an admin can sign in with a password of their own; then it ends every shared-password session', async () => {
      // Every admin made above is deactivated first: none can sign in as themselves.
      const admins = await db().select({ id: users.id }).from(users).where(and(eq(users.role, 'admin'), isNotNull(users.passwordHash)));
      await db().update(users).set({ status: 'inactive' }).where(eq(users.role, 'admin'));
      const refused = await app().inject({ method: 'PATCH', url: '/api/settings', headers: { cookie: shared }, payload: { signInMode: 'personal' } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json<TApiError>().message).toMatch(/Invite an admin and let them set a password first/);
      expect((await session(shared)).signInMode).not.toBe('personal');

      await db().update(users).set({ status: 'active' }).where(eq(users.id, admins[0]?.id ?? ''));
      const second = await signInAs(app(), { email: 'lou.login@example.org', password: 'lou login passphrase' });
      const anotherShared = sessionCookieOf(await app().inject({ method: 'POST', url: '/api/auth/login', payload: { password: 'cb-accounts test password' } }));
      const switched = await app().inject({ method: 'PATCH', url: '/api/settings', headers: { cookie: shared }, payload: { signInMode: 'personal' } });
      expect(switched.statusCode).toBe(200);
      for (const cookie of [shared, anotherShared]) {
        expect((await get('/api/users', cookie)).statusCode).toBe(401);
        expect(await session(cookie)).toEqual({ authenticated: false, signInMode: 'personal' });
      }
      expect(await db().$count(sessions, sql`${sessions.userId} is null`)).toBe(0);
      expect((await get('/api/users', second)).statusCode).toBe(200);
      expectRefused(await app().inject({ method: 'POST', url: '/api/auth/login', payload: { password: 'cb-accounts test password' } }), 401, 'INVALID_PASSWORD', SHARED_PASSWORD_OFF_MESSAGE);
      const ended = (await listAuditEventsByAction(db(), 'auth.sessions_ended')).at(-1);
      expect(ended?.detail).toEqual({ ended: 2, shared: true });
    });
  });
});
