import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { ZRecoveryCodes, ZTwoFactorSetup, ZUserCreated, ZUserInvitation } from '../../src/contract';
import { createLogger } from '../../src/server/platform/logger';
import { sessionCookieOf, tokenOfLink, totpCode } from '../support/accounts';
import { describeEachDatabase } from '../support/databases';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

/**
 * Every secret of personal accounts (passwords typed, right or wrong; link tokens; session tokens; the
 * two-step secret and recovery codes) runs through the real flows, and then the whole database, every log
 * line and every answer are searched for each in the clear. The answers made to carry one (the invitation's
 * link, the enrolment, the recovery codes) are the only places allowed, and must carry it.
 */
/** The rows of a raw query, whichever driver answered it (pg and PGlite both put them in `rows`). */
const rowsOf = <T extends z.ZodType>(result: unknown, row: T): Array<z.infer<T>> => z.object({ rows: z.array(row) }).parse(result).rows;

describeEachDatabase('no account secret in clear', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const logLines: string[] = [];
  const answers: Array<{ what: string; status: number; body: string }> = [];
  const secrets = new Map<string, string>();
  /** Answers allowed to hold a secret, by what they are: each must hold exactly the secrets named. */
  const carriers = new Map<string, string[]>();

  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const call = async (what: string, options: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; cookie?: string; payload?: object }): Promise<LightMyRequestResponse> => {
    const response = await app().inject({ method: options.method, url: options.url, headers: options.cookie ? { cookie: options.cookie } : {}, payload: options.payload });
    answers.push({ what, status: response.statusCode, body: response.body });
    const cookie = [response.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith('cb_session='));
    const token = cookie?.split(';')[0]?.slice('cb_session='.length);
    if (token) secrets.set(`session token (${what})`, token);
    return response;
  };
  const keep = (name: string, value: string) => {
    secrets.set(name, value);
    return value;
  };

  beforeAll(async () => {
    server = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-secrets',
      startWorkers: false,
      log: createLogger('debug', { write: (line: string) => void logLines.push(line) }),
    });
    keep('shared password', 'cb-secrets test password');
    secrets.set('session token (shared, at start)', server.cookie.slice('cb_session='.length));
  });
  afterAll(() => server?.close());

  it('runs the account flows', async () => {
    const admin = server?.cookie ?? '';
    await call('sign-in mode', { method: 'PATCH', url: '/api/settings', cookie: admin, payload: { signInMode: 'both' } });

    const created = await call('invite', { method: 'POST', url: '/api/users', cookie: admin, payload: { email: 'sid.secret@example.org', firstName: 'Sid', lastName: 'Secret', role: 'admin' } });
    const { user, invitation } = ZUserCreated.parse(created.json());
    carriers.set('invite', [keep('invitation token', tokenOfLink(invitation.url))]);
    await call('link status', { method: 'POST', url: '/api/auth/invitation/status', payload: { token: secrets.get('invitation token') } });
    await call('common password', { method: 'POST', url: '/api/auth/invitation', payload: { token: secrets.get('invitation token'), password: keep('common password tried', 'Password12345') } });
    await call('accept', { method: 'POST', url: '/api/auth/invitation', payload: { token: secrets.get('invitation token'), password: keep('first password', 'sid first chosen passphrase') } });

    const credentials = { email: 'sid.secret@example.org', password: secrets.get('first password') };
    await call('wrong password', { method: 'POST', url: '/api/auth/login', payload: { ...credentials, password: keep('wrong password tried', 'sid wrong guessed passphrase') } });
    const cookie = sessionCookieOf(await call('sign in', { method: 'POST', url: '/api/auth/login', payload: credentials }));

    const setup = ZTwoFactorSetup.parse((await call('two-step setup', { method: 'POST', url: '/api/auth/two-factor/setup', cookie })).json());
    carriers.set('two-step setup', [keep('two-step secret', setup.secret)]);
    const enabled = await call('two-step enable', { method: 'POST', url: '/api/auth/two-factor/enable', cookie, payload: { code: await totpCode(setup.secret) } });
    const { recoveryCodes } = ZRecoveryCodes.parse(enabled.json());
    carriers.set('two-step enable', recoveryCodes.map((code, index) => keep(`recovery code ${index + 1}`, code)));

    await call('sign in without code', { method: 'POST', url: '/api/auth/login', payload: credentials });
    await call('sign in with code', { method: 'POST', url: '/api/auth/login', payload: { ...credentials, code: await totpCode(setup.secret, 1) } });
    await call('sign in with recovery code', { method: 'POST', url: '/api/auth/login', payload: { ...credentials, code: recoveryCodes[0] } });
    await call('two-step off, wrong password', { method: 'DELETE', url: '/api/auth/two-factor', cookie, payload: { password: secrets.get('wrong password tried') } });

    const reset = ZUserInvitation.parse((await call('reset link', { method: 'POST', url: `/api/users/${user.id}/invitation`, cookie: admin })).json());
    carriers.set('reset link', [keep('reset token', tokenOfLink(reset.invitation.url))]);
    await call('accept reset', { method: 'POST', url: '/api/auth/invitation', payload: { token: secrets.get('reset token'), password: keep('second password', 'sid second chosen passphrase') } });
    await call('sign in after reset', { method: 'POST', url: '/api/auth/login', payload: { email: credentials.email, password: secrets.get('second password'), code: recoveryCodes[1] } });
    await call('sessions', { method: 'GET', url: `/api/users/${user.id}/sessions`, cookie: admin });
    await call('activity', { method: 'GET', url: '/api/users/activity?limit=200', cookie: admin });
    await call('users', { method: 'GET', url: '/api/users', cookie: admin });

    const status = Object.fromEntries(answers.map((answer) => [answer.what, answer.status]));
    expect(status).toMatchObject({
      invite: 201,
      'common password': 400,
      accept: 200,
      'wrong password': 401,
      'sign in without code': 401,
      'sign in with code': 200,
      'sign in with recovery code': 200,
      'two-step off, wrong password': 400,
      'accept reset': 200,
      'sign in after reset': 200,
    });
    expect(secrets.size).toBeGreaterThan(20);
  });

  it('the answers made to carry a secret carry it, and no other answer holds any', () => {
    for (const [what, carried] of carriers) {
      const answer = answers.find((entry) => entry.what === what);
      for (const secret of carried) expect(answer?.body, what).toContain(secret);
    }
    for (const answer of answers) {
      const allowed = new Set(carriers.get(answer.what) ?? []);
      for (const [name, secret] of secrets) {
        if (allowed.has(secret)) continue;
        expect(answer.body.includes(secret), `${name} in the answer to ${answer.what}`).toBe(false);
      }
    }
  });

  it('no log line holds any', () => {
    // The requests were logged (the capture works), the invitation routes among them.
    expect(logLines.some((line) => line.includes('/api/auth/invitation'))).toBe(true);
    const log = logLines.join('\n');
    for (const [name, secret] of secrets) expect(log.includes(secret), `${name} in the log`).toBe(false);
  });

  it('no text or JSON column of any table holds any', async () => {
    const db = getDatabase().db;
    const rows = rowsOf(
      await db.execute(sql`
        select table_name, column_name from information_schema.columns
        where table_schema = 'public' and (data_type in ('text', 'character varying', 'json', 'jsonb') or (data_type = 'ARRAY' and udt_name in ('_text', '_varchar')))`),
      z.object({ table_name: z.string(), column_name: z.string() }),
    );
    const tables = new Set(rows.map((row) => row.table_name));
    for (const table of ['users', 'sessions', 'user_tokens', 'audit_events', 'login_attempts', 'settings']) expect(tables.has(table), table).toBe(true);
    let values = 0;
    for (const { table_name: table, column_name: column } of rows) {
      const found = rowsOf(await db.execute(sql`select ${sql.identifier(column)}::text as value from ${sql.identifier(table)}`), z.object({ value: z.string().nullable() }));
      for (const { value } of found) {
        if (value === null) continue;
        values += 1;
        for (const [name, secret] of secrets) expect(value.includes(secret), `${name} in ${table}.${column}`).toBe(false);
      }
    }
    expect(values).toBeGreaterThan(50);
  });
});
