import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ZApiError, ZHealth, ZServerMessage } from '../../src/contract';
import { loadConfig } from '../../src/server/platform/config';
import { listAuditEventsByAction } from '../../src/server/audit/audit-events.repository';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { describeEachDatabase } from '../support/databases';

const PASSWORD = 'correct horse battery staple';

type Harness = { clearbase: Clearbase; dataDir: string };

async function startHarness(database: Clearbase['database'], env: Record<string, string> = {}): Promise<Harness> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cb-http-'));
  const config = loadConfig({
    CLEARBASE_DATA_DIR: dataDir,
    CLEARBASE_PASSWORD: PASSWORD,
    CLEARBASE_DEMO: 'false',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const clearbase = await createClearbase(config, createLogger('silent'), { readDocuments: false, database, webDir: path.join(dataDir, 'no-web') });
  return { clearbase, dataDir };
}

async function stopHarness(harness: Harness | undefined): Promise<void> {
  if (!harness) return;
  await harness.clearbase.close();
  await rm(harness.dataDir, { recursive: true, force: true });
}

function sessionCookieOf(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((c) => c.startsWith('cb_session='));
  if (!header) throw new Error('no session cookie was set');
  return header.split(';')[0] ?? '';
}

describeEachDatabase('HTTP API', ({ getDatabase }) => {
  let harness: Harness | undefined;
  const app = () => {
    if (!harness) throw new Error('harness not started');
    return harness.clearbase.app;
  };
  const login = async (password = PASSWORD) =>
    app().inject({ method: 'POST', url: '/api/auth/login', payload: { password } });
  const loggedInCookie = async () => sessionCookieOf((await login()).headers['set-cookie']);

  beforeAll(async () => {
    // This suite logs in many times from one address; the limit itself is tested in the suite below.
    harness = await startHarness(getDatabase(), { CLEARBASE_LOGIN_RATE_LIMIT: '10000' });
  });
  afterAll(async () => {
    await stopHarness(harness);
  });

  describe('access gate', () => {
    it('refuses a wrong password with the message the login screen shows and sets no cookie', async () => {
      const response = await login('not the password');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'INVALID_PASSWORD', message: 'Invalid password. Please try again.' });
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('accepts the right password with an httpOnly, SameSite=Strict session cookie', async () => {
      const response = await login();
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ authenticated: true });
      const cookie = [response.headers['set-cookie']].flat().join(';');
      expect(cookie).toMatch(/cb_session=[\w-]{40,}/);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      expect(cookie).not.toMatch(/Secure/i);
    });

    it('reports the session, and none after logout', async () => {
      const cookie = await loggedInCookie();
      const before = await app().inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
      expect(before.json()).toMatchObject({ authenticated: true });

      const logout = await app().inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
      expect(logout.json()).toEqual({ authenticated: false, signInMode: 'shared' });

      const after = await app().inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
      expect(after.json()).toEqual({ authenticated: false, signInMode: 'shared' });
      const health = await app().inject({ method: 'GET', url: '/api/health', headers: { cookie } });
      expect(health.statusCode).toBe(401);
    });

    it('records successful and failed logins in the audit log, without the password', async () => {
      await login('wrong again');
      await login();
      const db = getDatabase().db;
      const failed = await listAuditEventsByAction(db, 'auth.login_failed');
      const succeeded = await listAuditEventsByAction(db, 'auth.login');
      expect(failed.length).toBeGreaterThan(0);
      expect(succeeded.length).toBeGreaterThan(0);
      expect(JSON.stringify([...failed, ...succeeded])).not.toContain('wrong again');
      expect(JSON.stringify([...failed, ...succeeded])).not.toContain(PASSWORD);
    });
  });

  // Every registered route in many spellings: tests/integration/access-gate.int.test.ts.
  describe('every private route needs a session', () => {
    it('answers 401, not 404, for an unknown /api route without a session', async () => {
      const response = await app().inject({ method: 'GET', url: '/api/does-not-exist' });
      expect(response.statusCode).toBe(401);
    });

    it('serves a bare liveness probe without a session or details', async () => {
      const response = await app().inject({ method: 'GET', url: '/healthz' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('ok');
    });
  });

  describe('health', () => {
    it('reports every service from real checks', async () => {
      const cookie = await loggedInCookie();
      const response = await app().inject({ method: 'GET', url: '/api/health', headers: { cookie } });
      expect(response.statusCode).toBe(200);
      const health = ZHealth.parse(response.json());
      expect(Date.parse(health.timestamp)).not.toBeNaN();
      expect(health.services.database).toMatchObject({ status: 'ok' });
      expect(health.services.database.message).toMatch(/answered in/);
      // Storage works; the master key that opens its files has not been backed up yet (Settings → Security).
      expect(health.services.s3).toMatchObject({ status: 'warning' });
      expect(health.services.s3.message).toMatch(/^The master key has not been backed up: .* write and read OK$/);
      // No FORM_WEBHOOK_SECRET: a secret was generated, and health names the screen that shows it.
      expect(health.services.form).toEqual({ status: 'ok', message: 'Ready for form submissions. Its address and secret are in Settings → Integrations.' });
      expect(health.services.gmail).toEqual({ status: 'warning', message: 'The mailbox is not set up yet. Set it up in Settings → Integrations.' });
      expect(health.services.antivirus.status).toBe('warning');
    });
  });

  describe('bad input gets a clear JSON error with a stable code, never a 500 or a stack', () => {
    const post = (cookie: string | undefined, payload: string, contentType: string) =>
      app().inject({
        method: 'POST',
        url: '/api/auth/login',
        payload,
        headers: { 'content-type': contentType, ...(cookie ? { cookie } : {}) },
      });

    it.each([
      ['malformed JSON', '{"password": ', 'application/json', 400, 'INVALID_JSON'],
      ['an empty JSON body', '', 'application/json', 400, 'INVALID_JSON'],
      ['a wrong content type', 'password=x', 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['a JSON array', '[]', 'application/json', 400, 'VALIDATION_FAILED'],
      ['a missing password', '{}', 'application/json', 400, 'VALIDATION_FAILED'],
      ['an oversized body', JSON.stringify({ password: 'x'.repeat(2 * 1024 * 1024) }), 'application/json', 413, 'PAYLOAD_TOO_LARGE'],
    ])('%s', async (_name, payload, contentType, status, code) => {
      const response = await post(undefined, payload, contentType);
      expect(response.statusCode).toBe(status);
      const body = ZApiError.parse(response.json());
      expect(body.code).toBe(code);
      expect(body.message.length).toBeGreaterThan(5);
      expect(response.body).not.toMatch(/\n\s+at /);
    });

    it('names the bad field', async () => {
      const response = await post(undefined, '{"password": ""}', 'application/json');
      const body = ZApiError.parse(response.json());
      expect(body.details).toEqual([{ path: 'body.password', message: 'Password is required' }]);
    });

    it('answers an unknown API route with 404 JSON when signed in', async () => {
      const cookie = await loggedInCookie();
      const response = await app().inject({ method: 'GET', url: '/api/nope', headers: { cookie } });
      expect(response.statusCode).toBe(404);
      expect(ZApiError.parse(response.json()).code).toBe('NOT_FOUND');
    });

    it('refuses a state change sent from another site', async () => {
      const response = await app().inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { password: PASSWORD },
        headers: { origin: 'https://evil.example' },
      });
      expect(response.statusCode).toBe(403);
      expect(ZApiError.parse(response.json()).code).toBe('FORBIDDEN');
    });

    it('sets a strict content security policy, the other security headers and a request id on every kind of answer', async () => {
      const cookie = await loggedInCookie();
      const answers = [
        await app().inject({ method: 'GET', url: '/healthz' }),
        await app().inject({ method: 'GET', url: '/api/seasons', headers: { cookie } }),
        await app().inject({ method: 'GET', url: '/api/seasons' }),
        await app().inject({ method: 'GET', url: '/api/no-such-route', headers: { cookie } }),
      ];
      expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 401, 404]);
      for (const response of answers) {
        const csp = String(response.headers['content-security-policy']);
        for (const directive of ["default-src 'self'", "script-src 'self'", "script-src-attr 'none'", "object-src 'none'", "frame-ancestors 'none'", "style-src-attr 'unsafe-inline'", "frame-src 'self' blob:"]) {
          expect(csp.split(';')).toContain(directive);
        }
        expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
        expect(response.headers).toMatchObject({
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'SAMEORIGIN',
          'referrer-policy': 'no-referrer',
          'cross-origin-opener-policy': 'same-origin',
          'cross-origin-resource-policy': 'same-origin',
        });
        expect(response.headers['strict-transport-security']).toBeUndefined();
        expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
    });
  });

  describe('live connection', () => {
    let url = '';
    let origin = '';
    beforeAll(async () => {
      origin = await app().listen({ host: '127.0.0.1', port: 0 });
      url = origin.replace('http', 'ws') + '/ws';
    });

    it('refuses the upgrade without a session', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(url, { headers: { origin } });
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.on('open', () => reject(new Error('upgrade should have been refused')));
        socket.on('error', () => undefined);
      });
      expect(status).toBe(401);
    });

    it("sends a typed 'connected' message on open", async () => {
      const cookie = await loggedInCookie();
      const message = await new Promise<unknown>((resolve, reject) => {
        const socket = new WebSocket(url, { headers: { cookie, origin } });
        socket.on('message', (data: Buffer) => {
          resolve(JSON.parse(data.toString('utf8')));
          socket.close(1000);
        });
        socket.on('error', reject);
      });
      const parsed = ZServerMessage.parse(message);
      expect(parsed.type).toBe('connected');
      if (parsed.type === 'connected') expect(parsed.connectionId).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});

describeEachDatabase('HTTP API behind a proxy, with a small login limit', ({ getDatabase }) => {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness(getDatabase(), {
      TRUST_PROXY: 'true',
      CLEARBASE_LOGIN_RATE_LIMIT: '3',
      FORM_WEBHOOK_SECRET: 'a-long-enough-webhook-secret',
    });
  });
  afterAll(async () => {
    await stopHarness(harness);
  });

  const login = (ip: string, password: string) =>
    harness?.clearbase.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { password },
      headers: { 'x-forwarded-for': ip, 'x-forwarded-proto': 'https' },
    });

  it('marks the cookie Secure when the client came over https', async () => {
    const response = await login('203.0.113.9', PASSWORD);
    expect([response?.headers['set-cookie']].flat().join(';')).toMatch(/Secure/);
  });

  it('limits login attempts per client address with a clear 429', async () => {
    for (let i = 0; i < 3; i++) expect((await login('203.0.113.10', 'wrong'))?.statusCode).toBe(401);
    const limited = await login('203.0.113.10', PASSWORD);
    expect(limited?.statusCode).toBe(429);
    const body = ZApiError.parse(limited?.json());
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.message).toMatch(/^Too many login attempts\. Try again in \d+ seconds\.$/);
    // Another address is not affected.
    expect((await login('203.0.113.11', PASSWORD))?.statusCode).toBe(200);
  });

  it('counts the password-link routes against the same per-address limit as the login', async () => {
    const linkCall = (url: string, payload: object) =>
      harness?.clearbase.app.inject({ method: 'POST', url, payload, headers: { 'x-forwarded-for': '203.0.113.13' } });
    const token = 'a'.repeat(43);
    expect((await linkCall('/api/auth/invitation/status', { token }))?.statusCode).toBe(404);
    expect((await linkCall('/api/auth/invitation', { token, password: 'a long enough password' }))?.statusCode).toBe(404);
    expect((await login('203.0.113.13', 'wrong'))?.statusCode).toBe(401);
    const limited = await linkCall('/api/auth/invitation/status', { token });
    expect(limited?.statusCode).toBe(429);
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await login('203.0.113.13', PASSWORD))?.statusCode).toBe(429);
  });

  it('reports the form webhook as configured when its secret is set', async () => {
    const cookieResponse = await login('203.0.113.12', PASSWORD);
    const cookie = sessionCookieOf(cookieResponse?.headers['set-cookie']);
    const response = await harness?.clearbase.app.inject({ method: 'GET', url: '/api/health', headers: { cookie } });
    expect(ZHealth.parse(response?.json()).services.form.status).toBe('ok');
  });
});
