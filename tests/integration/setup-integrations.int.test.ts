import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { ZFormWebhook, ZFormWebhookSecret, ZMailboxSettings, ZMailboxTestResult, type TMailboxSettingsInput } from '../../src/contract';
import { listAuditEvents } from '../../src/server/audit/audit-events.repository';
import { auditEvents, settings } from '../../src/server/platform/db/schema';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { freePort } from '../support/child-server';
import { describeEachDatabase } from '../support/databases';
import { useDovecot } from '../support/dovecot';
import { injectSignedForm, makePdf, type Part } from '../support/multipart';
import { FALL_2025 } from '../support/pipeline';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

const dovecot = useDovecot('Settings → Integrations mailbox tests');
const ENV_SECRET = 'environment-form-webhook-secret';

const submission = (id: string): Part[] => [
  { name: 'submissionId', value: id },
  { name: 'season', value: 'fall-2025' },
  { name: 'division', value: 'AA' },
  { name: 'playerFirstName', value: 'Ada' },
  { name: 'playerLastName', value: 'Lovelace' },
  { name: 'playerBirthDate', value: '2015-12-10' },
  { name: 'birth_certificate', filename: 'birth.pdf', content: makePdf(id, 2_000), contentType: 'application/pdf' },
];

describeEachDatabase('Settings → Integrations: form webhook secret and mailbox', ({ getDatabase }) => {
  let fresh: SignedInClearbase | undefined;
  let fromEnvironment: SignedInClearbase | undefined;
  beforeAll(async () => {
    await insertSeasons(getDatabase().db, [FALL_2025]);
    // A fresh install: no FORM_WEBHOOK_SECRET, no IMAP_* variables.
    fresh = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-setup', startWorkers: false });
  });
  afterAll(async () => {
    await fromEnvironment?.close();
    await fresh?.close();
  });
  const server = () => {
    if (!fresh) throw new Error('not started');
    return fresh;
  };
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, on = server()) =>
    on.app.inject({ method, url, headers: { cookie: on.cookie }, ...(payload ? { payload } : {}) });

  it('generates the form webhook secret on first view, reveals it, and a rotation refuses the old one at once', async () => {
    expect(ZFormWebhook.parse((await call('GET', '/api/integrations/form-webhook')).json())).toEqual({ path: '/api/intake/form', source: 'settings', variable: null });
    const first = ZFormWebhookSecret.parse((await call('POST', '/api/integrations/form-webhook/reveal')).json()).secret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    // The same secret on every look: it was kept, sealed, not made again.
    expect(ZFormWebhookSecret.parse((await call('POST', '/api/integrations/form-webhook/reveal')).json()).secret).toBe(first);
    const [row] = await getDatabase().db.select().from(settings).where(eq(settings.key, 'integration.form_webhook'));
    expect(JSON.stringify(row?.value)).not.toContain(first);

    expect((await injectSignedForm(server().app, submission(`before-${randomUUID()}`), first)).statusCode).toBe(202);

    const rotated = await call('POST', '/api/integrations/form-webhook/rotate');
    expect(rotated.statusCode).toBe(200);
    const second = ZFormWebhookSecret.parse(rotated.json()).secret;
    expect(second).not.toBe(first);

    const refused = await injectSignedForm(server().app, submission(`old-${randomUUID()}`), first);
    expect(refused.statusCode).toBe(401);
    expect((await injectSignedForm(server().app, submission(`new-${randomUUID()}`), second)).statusCode).toBe(202);

    const audit = await listAuditEvents(getDatabase().db, 'settings', 'integration.form_webhook');
    expect(audit.map((event) => event.action)).toEqual(['integration.form_secret_revealed', 'integration.form_secret_revealed', 'integration.form_secret_rotated']);
    for (const secret of [first, second]) expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it('refuses to save a mailbox without a password, and validates at the contract', async () => {
    const missing = await call('PUT', '/api/integrations/mailbox', { host: 'imap.example.test', port: 993, security: 'tls', user: 'a@example.test', folder: 'INBOX' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: expect.stringContaining('Enter the password') as string });
    const bad = await call('PUT', '/api/integrations/mailbox', { host: 'not a host!', port: 70_000, security: 'ssl', user: '', folder: 'INBOX', password: 'x' });
    expect(bad.statusCode).toBe(400);
  });

  it('tests the real mailbox with unsaved values: connected with the count, wrong password, unreachable, folder not found', async (context: TestContext) => {
    const mail = dovecot.running(context);
    const [user] = mail.users;
    if (!user) throw new Error('Dovecot has no user');
    const values = { host: mail.host, port: mail.port, security: 'none', user: user.user, password: user.password, folder: 'INBOX' } as const;
    const test = async (body: object) => {
      const answer = await call('POST', '/api/integrations/mailbox/test', body);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.body).not.toContain(user.password);
      return ZMailboxTestResult.parse(answer.json());
    };
    const connected = await test(values);
    expect(connected).toMatchObject({ outcome: 'connected', messages: expect.any(Number) as number });
    expect(connected.message).toContain(`in INBOX`);
    expect(await test({ ...values, password: 'not the password' })).toMatchObject({ outcome: 'wrong_password', message: expect.stringContaining('refused the sign-in') as string });
    const closedPort = await freePort();
    expect(await test({ ...values, host: '127.0.0.1', port: closedPort })).toMatchObject({ outcome: 'unreachable', message: expect.stringContaining('could not be reached') as string });
    expect(await test({ ...values, folder: 'No such folder' })).toMatchObject({ outcome: 'folder_not_found' });
  });

  it('saves the mailbox sealed, never answers its password, and the mailbox runner uses it without a restart', async (context: TestContext) => {
    const mail = dovecot.running(context);
    const [user] = mail.users;
    if (!user) throw new Error('Dovecot has no user');
    const input: TMailboxSettingsInput = { host: mail.host, port: mail.port, security: 'none', user: user.user, password: user.password, folder: 'INBOX' };
    expect(ZMailboxSettings.parse((await call('GET', '/api/integrations/mailbox')).json())).toMatchObject({ source: 'none', passwordSet: false });
    expect((await call('GET', '/api/gmail/status')).json()).toMatchObject({ configured: false });

    const saved = await call('PUT', '/api/integrations/mailbox', input);
    expect(saved.statusCode, saved.body).toBe(200);
    // Taken up at once: the status read next says it connected, without a restart.
    expect((await call('GET', '/api/gmail/status')).json()).toMatchObject({ configured: true, connection: true, error: null });
    expect(saved.body).not.toContain(user.password);
    expect(ZMailboxSettings.parse(saved.json())).toEqual({ source: 'settings', host: mail.host, port: mail.port, security: 'none', user: user.user, passwordSet: true, folder: 'INBOX', variables: null });

    const [row] = await getDatabase().db.select().from(settings).where(eq(settings.key, 'integration.mailbox'));
    const stored = JSON.stringify(row?.value);
    expect(stored).not.toContain(user.password);
    expect(row?.value).toMatchObject({ password: { v: 1, ciphertext: expect.any(String) as string } });

    const read = await call('GET', '/api/integrations/mailbox');
    expect(read.body).not.toContain(user.password);
    expect(ZMailboxSettings.parse(read.json())).toMatchObject({ source: 'settings', passwordSet: true });
    // Test connection with nothing given tests what is saved, the saved password included.
    const savedTest = await call('POST', '/api/integrations/mailbox/test', {});
    expect(ZMailboxTestResult.parse(savedTest.json())).toMatchObject({ outcome: 'connected' });

    // The saved password goes nowhere else: another server, port, user or a weaker security needs it typed again.
    for (const elsewhere of [{ host: 'mail.example.org' }, { port: mail.port + 1 }, { user: 'someone-else' }, { security: 'tls' as const }]) {
      const tested = await call('POST', '/api/integrations/mailbox/test', elsewhere);
      expect(tested.statusCode, tested.body).toBe(400);
      expect(tested.json()).toMatchObject({ message: expect.stringContaining('Enter the password again') as string });
      const moved = await call('PUT', '/api/integrations/mailbox', { ...input, ...elsewhere, password: undefined });
      expect(moved.statusCode, moved.body).toBe(400);
    }

    // Saved again without a password: the sealed one is kept.
    expect((await call('PUT', '/api/integrations/mailbox', { ...input, password: undefined, folder: 'INBOX' })).statusCode).toBe(200);

    expect((await call('GET', '/api/gmail/status')).json()).toMatchObject({ configured: true });
    expect((await call('GET', '/api/settings/installation')).json()).toMatchObject({ mailbox: { configured: true, intervalMs: 300_000 } });
    await expect(server().clearbase.mailbox.check()).resolves.toEqual({ recorded: 0, acknowledged: 0, leftUnread: 0 });

    const audit = await getDatabase().db.select().from(auditEvents).where(eq(auditEvents.action, 'integration.mailbox_updated'));
    expect(audit.map((event) => event.detail)).toEqual([
      { changed: ['host', 'port', 'security', 'user', 'folder'], password: 'set' },
      { changed: [], password: 'kept' },
    ]);
    expect(JSON.stringify(audit)).not.toContain(user.password);
  });

  describe('with the variables set on the server', () => {
    beforeAll(async () => {
      fromEnvironment = await startSignedInClearbase({
        database: getDatabase(),
        prefix: 'cb-setup-env',
        startWorkers: false,
        settings: { FORM_WEBHOOK_SECRET: ENV_SECRET, IMAP_HOST: '127.0.0.1', IMAP_PORT: '1', IMAP_TLS: 'false', IMAP_USER: 'env@example.test', IMAP_PASSWORD: 'environment password' },
      });
    });
    const envServer = () => {
      if (!fromEnvironment) throw new Error('not started');
      return fromEnvironment;
    };

    it('refuses Rotate with a clear 409, and the environment secret is the one the webhook takes', async () => {
      expect(ZFormWebhook.parse((await call('GET', '/api/integrations/form-webhook', undefined, envServer())).json())).toEqual({
        path: '/api/intake/form',
        source: 'environment',
        variable: 'FORM_WEBHOOK_SECRET',
      });
      const rotate = await call('POST', '/api/integrations/form-webhook/rotate', undefined, envServer());
      expect(rotate.statusCode).toBe(409);
      expect(rotate.json()).toMatchObject({ code: 'CONFLICT', message: 'The form webhook secret is set on the server by FORM_WEBHOOK_SECRET; change it there.' });
      expect((await injectSignedForm(envServer().app, submission(`env-${randomUUID()}`), ENV_SECRET)).statusCode).toBe(202);
    });

    it('shows the IMAP_* mailbox with each field’s variable, never its password, and refuses a save', async () => {
      const read = await call('GET', '/api/integrations/mailbox', undefined, envServer());
      expect(read.body).not.toContain('environment password');
      expect(ZMailboxSettings.parse(read.json())).toEqual({
        source: 'environment',
        host: '127.0.0.1',
        port: 1,
        security: 'starttls',
        user: 'env@example.test',
        passwordSet: true,
        folder: 'INBOX',
        variables: { host: 'IMAP_HOST', port: 'IMAP_PORT', security: 'IMAP_TLS', user: 'IMAP_USER', password: 'IMAP_PASSWORD', folder: 'IMAP_MAILBOX' },
      });
      const save = await call('PUT', '/api/integrations/mailbox', { host: 'imap.example.test', port: 993, security: 'tls', user: 'a@example.test', password: 'p', folder: 'INBOX' }, envServer());
      expect(save.statusCode).toBe(409);
      expect(save.json()).toMatchObject({ message: expect.stringContaining('IMAP_HOST') as string });
    });
  });
});
