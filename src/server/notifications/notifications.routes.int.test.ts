import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ZNotificationHistory,
  ZNotificationSendResult,
  ZNotificationSettings,
  ZNotificationTemplate,
  ZNotificationTemplates,
  ZNotificationTestResult,
  ZQuickActions,
  ZRecipientPreview,
  type TApiError,
  type TNotificationHistoryItem,
  type TNotificationTemplate,
} from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { D, seedReportFixture } from '../../../tests/support/report-fixture';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { startSmtpReceiver, type SmtpReceiver } from '../../../tests/support/smtp-receiver';
import { startWebhookReceiver } from '../../../tests/support/webhook-receiver';
import type { Database } from '../platform/db/client';
import { listAuditEventsByAction } from '../audit/audit-events.repository';
import { countJobsByStatus } from '../platform/jobs/jobs.repository';
import { notificationTemplates, settings } from '../platform/db/schema';
import { insertUsers } from '../users/users.repository';
import { DEFAULT_NOTIFICATION_TEMPLATES } from './notification-defaults';
import { NOTIFICATION_SEND_QUEUE } from './notifications.service';

const MASTER_KEY = randomBytes(32).toString('hex');
const CUSTOM_LIST = 'first@example.org, second@example.org\nthird@example.org';

describeEachDatabase('notifications', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let smtp: SmtpReceiver;
  let webhooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let cookie = '';

  const settingsFor = (smtpUrl: string) => ({
    CLEARBASE_MASTER_KEY: MASTER_KEY,
    SMTP_URL: smtpUrl,
    SMTP_FROM: 'League Registrations <registrations@league.example>',
    WEBHOOK_ALLOW_HTTP_LOOPBACK: 'true',
    NOTIFICATION_TIMEOUT_MS: '1500',
  });
  const start = async (database: Database, options: { startWorkers?: boolean } = {}) => {
    server = await startSignedInClearbase({ database, prefix: 'cb-notify', settings: settingsFor(smtp.url), startWorkers: options.startWorkers ?? false });
    cookie = server.cookie;
    return server;
  };
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    app().inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const history = async (): Promise<TNotificationHistoryItem[]> =>
    ZNotificationHistory.parse((await call('GET', '/api/notifications/history?pageSize=100')).json()).items;
  const templates = async (): Promise<TNotificationTemplate[]> => ZNotificationTemplates.parse((await call('GET', '/api/notifications/templates')).json()).templates;
  const templateNamed = async (name: string) => {
    const found = (await templates()).find((t) => t.name === name);
    if (!found) throw new Error(`no template ${name}`);
    return found;
  };
  const setSwitches = async (patch: Record<string, boolean>) => {
    const response = await call('PATCH', '/api/settings', patch);
    expect(response.statusCode, response.body).toBe(200);
  };
  const emailSettings = (overrides: Record<string, unknown> = {}) => ({
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    username: '',
    from: 'Settings Tab <tab@league.example>',
    ...overrides,
  });

  beforeAll(async () => {
    smtp = await startSmtpReceiver({ refuse: ['nobody@example.org'] });
    webhooks = await startWebhookReceiver();
    await seedReportFixture(getDatabase().db);
    await insertUsers(getDatabase().db, [
      { email: 'admin.one@league.example', firstName: 'Morgan', lastName: 'Reyes', role: 'admin', status: 'active' },
      { email: 'admin.off@league.example', firstName: 'Old', lastName: 'Admin', role: 'admin', status: 'inactive' },
      { email: 'viewer@league.example', firstName: 'Sam', lastName: 'Viewer', role: 'viewer', status: 'active' },
    ]);
    await start(getDatabase());
  });
  afterAll(async () => {
    await server?.close();
    await smtp.stop();
    await webhooks.stop();
  });

  it('seeds the default templates into an empty table once, however many instances start', async () => {
    const second = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-notify-2', settings: settingsFor(smtp.url), startWorkers: false });
    await second.close();
    const list = await templates();
    expect(list.map((t) => [t.name, t.type, t.enabled])).toEqual([
      ['Automatic Reminder', 'email', true],
      ['Deadline Reminder', 'email', true],
      ['Document Rejected', 'email', true],
      ['File Not Accepted', 'email', true],
      ['Missing Documents Reminder', 'email', true],
      ['Upload Link', 'email', true],
    ]);
    const notAccepted = list.find((t) => t.name === 'File Not Accepted');
    expect(`${notAccepted?.subject ?? ''}\n${notAccepted?.content ?? ''}`).toMatch(/\{\{playerName\}\}[\s\S]*\{\{guardianName\}\}[\s\S]*\{\{refusedFiles\}\}/);
  });

  it('adds a default template of a later version to an installation that lacks it, and nothing else', async () => {
    const db = getDatabase().db;
    const before = await templates();
    await db.delete(notificationTemplates).where(eq(notificationTemplates.name, 'File Not Accepted'));
    await db.delete(notificationTemplates).where(eq(notificationTemplates.name, 'Deadline Reminder'));
    const second = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-notify-3', settings: settingsFor(smtp.url), startWorkers: false });
    await second.close();
    const after = await templates();
    // Back: the template added later. Not back: one an installation had and removed.
    expect(after.map((t) => t.name)).toEqual(['Automatic Reminder', 'Document Rejected', 'File Not Accepted', 'Missing Documents Reminder', 'Upload Link']);
    expect(after.find((t) => t.name === 'File Not Accepted')?.id).not.toBe(before.find((t) => t.name === 'File Not Accepted')?.id);
    // Restored for the tests after this one.
    const deadline = DEFAULT_NOTIFICATION_TEMPLATES.find((t) => t.name === 'Deadline Reminder');
    if (deadline) await db.insert(notificationTemplates).values(deadline);
  });

  it('needs a session', async () => {
    const response = await app().inject({ method: 'GET', url: '/api/notifications/templates' });
    expect(response.statusCode).toBe(401);
  });

  it('sends a custom e-mail to a custom list through SMTP_URL: one message each, HTML escaped, History sent', async () => {
    const before = smtp.received.length;
    const response = await call('POST', '/api/notifications/send', {
      templateId: null,
      subject: 'Practice moved <today>',
      message: 'Hello {{guardianName}},\nPractice for {{season}} is at <b>5 pm</b> & on field 2.',
      recipients: 'custom',
      customRecipients: CUSTOM_LIST,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(ZNotificationSendResult.parse(response.json())).toEqual({ sent: 3, failed: 0, pending: 0 });
    const mails = (await smtp.waitFor(before + 3)).slice(before);
    expect(mails.map((m) => m.to).flat().sort()).toEqual(['first@example.org', 'second@example.org', 'third@example.org']);
    for (const mail of mails) {
      expect(mail.from).toBe('registrations@league.example');
      expect(mail.subject).toBe('Practice moved <today>');
      expect(mail.text).toContain('Hello Parent/Guardian,\nPractice for Fall Ball 2025 is at <b>5 pm</b> & on field 2.');
      expect(mail.html).toContain('Practice for Fall Ball 2025 is at &lt;b&gt;5 pm&lt;/b&gt; &amp; on field 2.');
      expect(mail.html).not.toContain('<b>5 pm</b>');
    }
    const rows = (await history()).filter((row) => row.subject === 'Practice moved <today>');
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ type: 'email', status: 'sent', errorMessage: null });
      expect(row.sentAt).not.toBeNull();
    }
    expect(await listAuditEventsByAction(getDatabase().db, 'notifications.sent')).toHaveLength(1);
  });

  it('fills a template per family from the season: the missing documents in words, the deadline chosen', async () => {
    const template = await templateNamed('Missing Documents Reminder');
    const preview = ZRecipientPreview.parse(
      (await call('POST', '/api/notifications/preview', { templateId: template.id, recipients: 'missing_documents' })).json(),
    );
    // Ben, Eve and Cara have a guardian e-mail; Dan has none.
    expect(preview).toMatchObject({
      channel: 'email',
      count: 3,
      sample: ['adams@example.org', 'fifty@example.org', 'jones@example.org'],
      withoutEmail: 1,
      season: { id: 'fall-2025', name: 'Fall Ball 2025' },
      deliveryProblem: null,
    });
    const quick = ZQuickActions.parse((await call('GET', '/api/notifications/quick-actions')).json());
    // The quick action's figures agree with the preview: 4 missing a document, 3 of them with an e-mail; Cara, Ben, Dan and Eve are below 100 %.
    expect(quick).toMatchObject({ season: { id: 'fall-2025' }, incompletePlayers: 4, missingDocuments: { players: 4, withEmail: preview.count }, administrators: 1 });

    const before = smtp.received.length;
    const response = await call('POST', '/api/notifications/send', { templateId: template.id, recipients: 'missing_documents', deadline: '2025-11-14' });
    expect(ZNotificationSendResult.parse(response.json())).toEqual({ sent: 3, failed: 0, pending: 0 });
    const mails = (await smtp.waitFor(before + 3)).slice(before);
    const jones = mails.find((m) => m.to.includes('jones@example.org'));
    expect(jones?.subject).toBe('Documents still missing for Cara Jones (Fall Ball 2025)');
    expect(jones?.text).toContain('Hello Jones Parent,');
    expect(jones?.text).toContain('Residency Proof and Medical Form');
    expect(jones?.text).toContain('before Friday, November 14, 2025');
    const fifty = mails.find((m) => m.to.includes('fifty@example.org'));
    expect(fifty?.text).toContain('Birth Certificate, Residency Proof and Medical Form');
    // Eve's surname is 'Fifty%': escaped in HTML as text, not read as anything else.
    expect(fifty?.html).toContain('Eve Fifty%');
  });

  it('sends to administrators (active admins from the users table only)', async () => {
    const preview = ZRecipientPreview.parse(
      (await call('POST', '/api/notifications/preview', { templateId: null, subject: 'x', message: 'y', recipients: 'administrators' })).json(),
    );
    expect(preview).toMatchObject({ count: 1, sample: ['admin.one@league.example'] });
  });

  it('refuses a custom list with invalid addresses, naming them; nothing is sent or recorded', async () => {
    const rowsBefore = (await history()).length;
    const response = await call('POST', '/api/notifications/send', {
      templateId: null,
      subject: 'Hi',
      message: 'Hi',
      recipients: 'custom',
      customRecipients: 'good@example.org, not-an-address\nalso@bad',
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<TApiError>();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details).toEqual([{ path: 'body.customRecipients', message: "These are not e-mail addresses: 'not-an-address', 'also@bad'" }]);
    expect((await history()).length).toBe(rowsBefore);
  });

  it('refuses a template edit with an unknown placeholder, naming it, and keeps the template as it was', async () => {
    const template = await templateNamed('Deadline Reminder');
    const response = await call('PATCH', `/api/notifications/templates/${template.id}`, { content: 'Hello {{parentName}}, see you {{deadline}}' });
    expect(response.statusCode).toBe(400);
    expect(response.json<TApiError>().message).toMatch(/^Unknown placeholder \{\{parentName\}\}\./);
    expect((await templateNamed('Deadline Reminder')).content).toBe(template.content);
  });

  it('saves a template edit and its enabled switch, with an audit event; a turned-off template cannot be sent', async () => {
    const template = await templateNamed('Deadline Reminder');
    const edited = await call('PATCH', `/api/notifications/templates/${template.id}`, { subject: 'Closing {{deadline}}', enabled: false });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(ZNotificationTemplate.parse(edited.json())).toMatchObject({ subject: 'Closing {{deadline}}', enabled: false });
    expect(await templateNamed('Deadline Reminder')).toMatchObject({ subject: 'Closing {{deadline}}', enabled: false });
    const refused = await call('POST', '/api/notifications/send', { templateId: template.id, recipients: 'all_parents' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<TApiError>().message).toBe("The template 'Deadline Reminder' is turned off. Turn it on in Templates to send it.");
    expect((await call('PATCH', `/api/notifications/templates/${template.id}`, { enabled: true })).statusCode).toBe(200);
    expect(await listAuditEventsByAction(getDatabase().db, 'notification_template.updated')).toHaveLength(2);
  });

  it('records a recipient the SMTP server refuses as failed with the server message; the others still go', async () => {
    const before = smtp.received.length;
    const response = await call('POST', '/api/notifications/send', {
      templateId: null,
      subject: 'Refusal test',
      message: 'Hello',
      recipients: 'custom',
      customRecipients: 'ok-one@example.org, nobody@example.org',
    });
    expect(ZNotificationSendResult.parse(response.json())).toEqual({ sent: 1, failed: 1, pending: 0 });
    await smtp.waitFor(before + 1);
    const rows = (await history()).filter((row) => row.subject === 'Refusal test');
    const refused = rows.find((row) => row.recipient === 'nobody@example.org');
    expect(refused).toMatchObject({ status: 'failed', sentAt: null });
    expect(refused?.errorMessage).toMatch(/^SMTP 550 5\.1\.1 <nobody@example\.org>: Recipient address rejected: User unknown/);
    expect(rows.find((row) => row.recipient === 'ok-one@example.org')).toMatchObject({ status: 'sent' });
  });

  it('posts to Slack and Teams webhooks: Slack { text }, Teams a MessageCard; a 500 answer is a failure with the status', async () => {
    const saved = await call('PUT', '/api/notifications/settings', {
      email: emailSettings({ host: '', from: '' }),
      slackWebhookUrl: `${webhooks.origin}/slack/T000/B000/secret-token`,
      teamsWebhookUrl: `${webhooks.origin}/fail/teams`,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await setSwitches({ slackNotifications: true, teamsNotifications: true });

    const slack = await call('POST', '/api/notifications/send', {
      templateId: null,
      channel: 'slack',
      subject: 'Weekly summary',
      message: '{{season}}: received {{received}}, approved {{approved}}',
    });
    expect(ZNotificationSendResult.parse(slack.json())).toEqual({ sent: 1, failed: 0, pending: 0 });
    const slackPost = webhooks.received.find((post) => post.path.startsWith('/slack'));
    expect(slackPost?.contentType).toBe('application/json');
    expect(Object.keys(slackPost?.body ?? {})).toEqual(['text']);
    expect((slackPost?.body as { text?: unknown }).text).toMatch(/^\*Weekly summary\*\nFall Ball 2025: received \d+, approved \d+$/);

    const teams = await call('POST', '/api/notifications/send', { templateId: null, channel: 'teams', subject: 'Maintenance', message: 'Down at {{deadline}}' });
    expect(ZNotificationSendResult.parse(teams.json())).toEqual({ sent: 0, failed: 1, pending: 0 });
    expect(webhooks.received.find((post) => post.path === '/fail/teams')?.body).toMatchObject({ '@type': 'MessageCard', title: 'Maintenance' });
    expect((await history()).find((row) => row.subject === 'Maintenance')).toMatchObject({
      type: 'teams',
      recipient: 'Microsoft Teams channel',
      status: 'failed',
      errorMessage: 'Microsoft Teams webhook answered 500: invalid_payload',
    });

    const personal = await call('POST', '/api/notifications/send', { templateId: null, channel: 'slack', message: 'Hi {{guardianName}}' });
    expect(personal.statusCode).toBe(400);
    expect(personal.json<TApiError>().message).toContain('{{guardianName}} cannot be used in a Slack message');
  });

  it('refuses a webhook address that is not https (http only to loopback, in tests), saving nothing', async () => {
    const before = ZNotificationSettings.parse((await call('GET', '/api/notifications/settings')).json());
    const response = await call('PUT', '/api/notifications/settings', {
      email: emailSettings({ host: 'smtp.changed.example' }),
      slackWebhookUrl: 'http://hooks.example.org/services/x',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<TApiError>().message).toBe('The Slack webhook must be an https:// address (got http)');
    expect(ZNotificationSettings.parse((await call('GET', '/api/notifications/settings')).json())).toEqual(before);
  });

  it('sends nothing on a channel switched off in System Settings, and History says why', async () => {
    await setSwitches({ emailNotifications: false, slackNotifications: false });
    const before = { mails: smtp.received.length, posts: webhooks.received.length };
    const mail = await call('POST', '/api/notifications/send', {
      templateId: null,
      subject: 'Switched off',
      message: 'x',
      recipients: 'custom',
      customRecipients: 'off@example.org',
    });
    expect(ZNotificationSendResult.parse(mail.json())).toEqual({ sent: 0, failed: 1, pending: 0 });
    const chat = await call('POST', '/api/notifications/send', { templateId: null, channel: 'slack', subject: 'Chat off', message: 'x' });
    expect(ZNotificationSendResult.parse(chat.json())).toEqual({ sent: 0, failed: 1, pending: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received.length).toBe(before.mails);
    expect(webhooks.received.length).toBe(before.posts);
    const rows = await history();
    expect(rows.find((row) => row.subject === 'Switched off')).toMatchObject({ status: 'failed', errorMessage: 'E-mail notifications are turned off in Settings' });
    expect(rows.find((row) => row.subject === 'Chat off')).toMatchObject({ status: 'failed', errorMessage: 'Slack notifications are turned off in Settings' });
    await setSwitches({ emailNotifications: true, slackNotifications: true });
  });

  it('keeps secrets encrypted in the settings row, never answers them, and keeps the password when saved without one', async () => {
    const authed = await startSmtpReceiver({ credentials: { user: 'league', password: 'correct horse battery' } });
    try {
      const saved = await call('PUT', '/api/notifications/settings', {
        email: emailSettings({ port: authed.port, username: 'league', password: 'correct horse battery' }),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.body).not.toContain('correct horse');
      expect(saved.body).not.toContain('secret-token');
      const view = ZNotificationSettings.parse(saved.json());
      expect(view.email).toMatchObject({ host: '127.0.0.1', port: authed.port, username: 'league', passwordSet: true, source: 'settings' });
      // The Slack address saved earlier is kept (left out of this save) and shown by its last four characters only.
      expect(view.slackWebhook).toEqual({ set: true, hint: '••••oken' });

      const [row] = await getDatabase().db.select().from(settings).where(eq(settings.key, 'notifications'));
      const raw = JSON.stringify(row?.value);
      expect(raw).not.toContain('correct horse');
      expect(raw).not.toContain('secret-token');
      expect(raw).not.toContain('127.0.0.1:'); // the webhook origin is encrypted too

      // The tab's server wins over SMTP_URL; saved again without a password, it keeps the old one and signs in.
      expect((await call('PUT', '/api/notifications/settings', { email: emailSettings({ port: authed.port, username: 'league' }) })).statusCode).toBe(200);
      const test = ZNotificationTestResult.parse((await call('POST', '/api/notifications/settings/test', { channel: 'email', to: 'me@league.example' })).json());
      expect(test).toEqual({ ok: true, message: 'Test e-mail sent to me@league.example.' });
      const [mail] = await authed.waitFor(1);
      expect(mail).toMatchObject({ from: 'tab@league.example', to: ['me@league.example'], subject: 'Clearbase test message' });

      // A wrong password: the server refuses the login; the answer says so and History records it.
      await call('PUT', '/api/notifications/settings', { email: emailSettings({ port: authed.port, username: 'league', password: 'wrong' }) });
      const refused = ZNotificationTestResult.parse((await call('POST', '/api/notifications/settings/test', { channel: 'email', to: 'me@league.example' })).json());
      expect(refused.ok).toBe(false);
      expect(refused.message).toMatch(/^SMTP 535 5\.7\.8 Authentication credentials invalid/);
      expect((await history())[0]).toMatchObject({ recipient: 'me@league.example', status: 'failed', errorMessage: refused.message });
    } finally {
      await authed.stop();
      // Back to SMTP_URL for the tests after this one.
      await call('PUT', '/api/notifications/settings', { email: emailSettings({ host: '', from: '', password: null }) });
    }
  });

  it('fails with a clear message when the mail server does not answer in time', async () => {
    const silent = await startSmtpReceiver({ silent: true });
    try {
      await call('PUT', '/api/notifications/settings', { email: emailSettings({ port: silent.port }) });
      const started = Date.now();
      const response = await call('POST', '/api/notifications/send', {
        templateId: null,
        subject: 'Timeout test',
        message: 'x',
        recipients: 'custom',
        customRecipients: 'late@example.org',
      });
      expect(ZNotificationSendResult.parse(response.json())).toEqual({ sent: 0, failed: 1, pending: 0 });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await history()).find((row) => row.subject === 'Timeout test')).toMatchObject({
        status: 'failed',
        errorMessage: `The mail server 127.0.0.1:${silent.port} did not answer within 1.5 s`,
      });
    } finally {
      await call('PUT', '/api/notifications/settings', { email: emailSettings({ host: '', from: '' }) });
      await silent.stop();
    }
  });

  it('rejecting a document can e-mail the guardian the reason; the rejection stands when the mail fails', async () => {
    const before = smtp.received.length;
    const rejected = await call('PATCH', `/api/documents/${D.avaMedicalPending}/status`, {
      status: 'rejected',
      reviewNotes: 'The form is not signed <by a doctor>',
      notifyGuardian: true,
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail).toMatchObject({ to: ['smith@example.org'], subject: "Ava Smith's Medical Form needs a new copy" });
    expect(mail?.text).toContain('The form is not signed <by a doctor>');
    expect(mail?.html).toContain('The form is not signed &lt;by a doctor&gt;');

    // The mail server refuses everything now: the rejection still succeeds, History shows the failure.
    await call('PUT', '/api/notifications/settings', { email: emailSettings({ port: 9 }) });
    const second = await call('PATCH', `/api/documents/${D.benResidency}/status`, { status: 'rejected', reviewNotes: 'Blurry', notifyGuardian: true });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ status: 'rejected' });
    const [failed] = await history();
    expect(failed).toMatchObject({ recipient: 'adams@example.org', status: 'failed' });
    expect(failed?.errorMessage).toMatch(/^Could not connect to the mail server 127\.0\.0\.1:9/);
    await call('PUT', '/api/notifications/settings', { email: emailSettings({ host: '', from: '' }) });
  });

  it('runs a scheduled send from the job queue after a restart: pending until then, sent after', async () => {
    const scheduledAt = new Date(Date.now() + 1_500).toISOString();
    const response = await call('POST', '/api/notifications/send', {
      templateId: null,
      subject: 'Scheduled hello',
      message: 'See you at {{deadline}}',
      recipients: 'custom',
      customRecipients: 'later@example.org',
      deadline: '2025-12-01',
      scheduledAt,
    });
    expect(ZNotificationSendResult.parse(response.json())).toEqual({ sent: 0, failed: 0, pending: 1 });
    expect((await history()).find((row) => row.subject === 'Scheduled hello')).toMatchObject({ status: 'pending', sentAt: scheduledAt });

    // This instance never ran workers; a new one on the same database does.
    await server?.close();
    server = undefined;
    const before = smtp.received.length;
    await start(getDatabase(), { startWorkers: true });
    const mails = await smtp.waitFor(before + 1, 20_000);
    expect(mails.at(-1)).toMatchObject({ to: ['later@example.org'], subject: 'Scheduled hello' });
    expect(mails.at(-1)?.text).toContain('Monday, December 1, 2025');
    await expect.poll(async () => (await history()).find((row) => row.subject === 'Scheduled hello')?.status, { timeout: 5_000 }).toBe('sent');
    await expect.poll(async () => (await countJobsByStatus(getDatabase().db, NOTIFICATION_SEND_QUEUE)).done, { timeout: 5_000 }).toBeGreaterThan(0);
  });

  it('refuses a scheduled time in the past', async () => {
    const response = await call('POST', '/api/notifications/send', {
      templateId: null,
      subject: 'x',
      message: 'x',
      recipients: 'custom',
      customRecipients: 'a@example.org',
      scheduledAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<TApiError>().message).toBe('The scheduled time has passed: choose a time in the future, or send now.');
  });

  it('pages History newest first', async () => {
    const first = ZNotificationHistory.parse((await call('GET', '/api/notifications/history?page=1&pageSize=2')).json());
    const second = ZNotificationHistory.parse((await call('GET', '/api/notifications/history?page=2&pageSize=2')).json());
    expect(first.items).toHaveLength(2);
    expect(first.total).toBeGreaterThan(10);
    expect((second.items[0]?.createdAt ?? '') <= (first.items[1]?.createdAt ?? '')).toBe(true);
    expect(new Set([...first.items, ...second.items].map((i) => i.id)).size).toBe(4);
  });
});
