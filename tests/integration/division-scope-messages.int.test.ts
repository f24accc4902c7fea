import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  ZInstallation,
  ZMailboxRecent,
  ZMailboxStats,
  ZNotificationHistory,
  ZNotificationSendResult,
  ZNotificationSettings,
  ZQuickActions,
  ZRecipientPreview,
} from '../../src/contract';
import { insertDocuments } from '../../src/server/documents/documents.repository';
import { insertNotificationHistory } from '../../src/server/notifications/notification-history.repository';
import { insertSubmissions } from '../../src/server/pipeline/submissions.repository';
import { notificationHistory } from '../../src/server/platform/db/schema';
import { freePort } from '../support/child-server';
import { describeEachDatabase } from '../support/databases';
import { D, P, REPORT_SEASONS, seedReportFixture } from '../support/report-fixture';
import { scopedRows } from '../support/scope-rows';
import { signInAs } from '../support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';

const FALL = REPORT_SEASONS.fall2025.id;
const SPRING = REPORT_SEASONS.spring2025.id;
const HOUR = 3_600_000;

/** Mailbox submissions: matched to AA (Ava, Ben), AAA (Cara), Ava in Spring (then A), and one matched to nobody. */
const SUB = {
  avaProcessed: randomUUID(),
  benFailed: randomUUID(),
  caraFailed: randomUUID(),
  avaSpring: randomUUID(),
  unmatched: randomUUID(),
};

/** History: a message about Ava (AA), about Cara (AAA), about Ava in Spring (A), and one about no player. */
const MESSAGE = { ava: randomUUID(), cara: randomUUID(), avaSpring: randomUUID(), chat: randomUUID() };

/**
 * The report fixture's league seen by a moderator and a viewer limited to AA, and by the shared password
 * (every division): mailbox submissions, notification recipients, History and counts, and the settings'
 * server details that only those who may configure them see.
 */
describeEachDatabase('division scope: mailbox, notifications and settings', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let smtp: SmtpReceiver;
  let everyone = '';
  let aa = '';
  let aaViewer = '';
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const call = (cookie: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    app().inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload }) });
  const ok = async <T>(cookie: string, method: 'GET' | 'POST', url: string, schema: { parse(value: unknown): T }, payload?: object): Promise<T> => {
    const response = await call(cookie, method, url, payload);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return schema.parse(response.json());
  };
  const shape = (response: LightMyRequestResponse) => {
    const body = response.json<Record<string, unknown>>();
    return { status: response.statusCode, keys: Object.keys(body).sort(), code: body.code, message: body.message };
  };

  beforeAll(async () => {
    const { db } = getDatabase();
    await seedReportFixture(db);
    const now = Date.now();
    const mail = (id: string, playerId: string | null, seasonId: string | null, status: 'processed' | 'failed', attachmentCount: number, hoursAgo: number) => {
      const fields: Record<string, string | null> = playerId ? {} : { firstName: 'Zed', lastName: 'Nobody', division: 'AA' };
      return {
        id,
        source: 'mailbox' as const,
        externalId: `<${id}@mail.example.org>`,
        receivedAt: new Date(now - hoursAgo * HOUR),
        fromEmail: 'parent@example.org',
        subject: 'Registration documents',
        playerId,
        seasonId,
        fields,
        status,
        errorMessage: status === 'failed' ? 'No player details found in the e-mail' : null,
        attachmentCount,
      };
    };
    await insertSubmissions(db, [
      mail(SUB.avaProcessed, P.ava, FALL, 'processed', 2, 1),
      mail(SUB.benFailed, P.ben, FALL, 'failed', 1, 2),
      mail(SUB.caraFailed, P.cara, FALL, 'failed', 3, 3),
      mail(SUB.avaSpring, P.ava, SPRING, 'processed', 1, 4),
      mail(SUB.unmatched, null, null, 'failed', 1, 5),
    ]);
    const message = (id: string, recipient: string, playerId: string | null, seasonId: string | null, minutesAgo: number) => ({
      id,
      type: 'email' as const,
      recipient,
      subject: 'Missing documents',
      status: 'sent' as const,
      sentAt: new Date(now - minutesAgo * 60_000),
      createdAt: new Date(now - minutesAgo * 60_000),
      playerId,
      seasonId,
    });
    await insertNotificationHistory(db, [
      message(MESSAGE.ava, 'smith@example.org', P.ava, FALL, 40),
      message(MESSAGE.cara, 'jones@example.org', P.cara, FALL, 30),
      message(MESSAGE.avaSpring, 'smith@example.org', P.ava, SPRING, 20),
      { ...message(MESSAGE.chat, 'Slack channel', null, null, 10), type: 'slack' as const },
    ]);
    // Documents of this week, for last week's figures: one of Ben's (AA; his waiver stays missing), one of Cara's (AAA).
    await insertDocuments(db, [
      { playerId: P.ben, seasonId: FALL, docType: 'birth_certificate', originalFilename: 'ben new birth certificate.pdf', status: 'pending', uploadedAt: new Date(now - HOUR), fileSha256: 'b'.repeat(64) },
      { playerId: P.cara, seasonId: FALL, docType: 'medical', originalFilename: 'cara new medical.pdf', status: 'pending', uploadedAt: new Date(now - HOUR), fileSha256: 'c'.repeat(64) },
    ]);

    smtp = await startSmtpReceiver();
    server = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-scope-messages',
      startWorkers: false,
      settings: {
        // A mailbox that refuses connections: a retry that gets past the scope reaches it and is told it is down.
        IMAP_HOST: '127.0.0.1',
        IMAP_PORT: String(await freePort()),
        IMAP_TLS: 'false',
        IMAP_USER: 'registrations',
        IMAP_PASSWORD: 'not-used',
        CLAMD_URL: 'tcp://127.0.0.1:3310',
      },
    });
    everyone = server.cookie;
    aa = await signInAs(db, { role: 'moderator', divisions: ['AA'] });
    aaViewer = await signInAs(db, { role: 'viewer', divisions: ['AA'] });
    const saved = await call(everyone, 'PUT', '/api/notifications/settings', {
      email: { host: '127.0.0.1', port: smtp.port, secure: false, username: 'mailer', from: 'League <registrations@league.example>', password: 'mail-secret' },
      slackWebhookUrl: 'https://hooks.slack.com/services/T000/B000/abcd',
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await smtp.stop();
  });

  it('GET /api/gmail/recent lists submissions of AA players only; one matched to nobody only for the shared password', async () => {
    const { submissions } = await ok(aa, 'GET', '/api/gmail/recent?limit=100', ZMailboxRecent);
    expect(submissions.map((s) => s.id)).toEqual([SUB.avaProcessed, SUB.benFailed]);
    expect((await ok(aa, 'GET', '/api/gmail/recent?status=failed', ZMailboxRecent)).submissions.map((s) => s.id)).toEqual([SUB.benFailed]);
    const unscoped = await ok(everyone, 'GET', '/api/gmail/recent?limit=100', ZMailboxRecent);
    expect(unscoped.submissions.map((s) => s.id)).toEqual([SUB.avaProcessed, SUB.benFailed, SUB.caraFailed, SUB.avaSpring, SUB.unmatched]);
  });

  it('GET /api/gmail/stats counts AA\'s submissions and their attachments only', async () => {
    expect(await ok(aa, 'GET', '/api/gmail/stats?range=30d', ZMailboxStats)).toEqual({ received: 2, processed: 1, failed: 1, totalAttachments: 3 });
    expect(await ok(everyone, 'GET', '/api/gmail/stats?range=30d', ZMailboxStats)).toEqual({ received: 5, processed: 2, failed: 3, totalAttachments: 8 });
  });

  it('retrying a submission of another division, or matched to nobody, answers 404 as an unknown one; AA\'s reaches the mailbox', async () => {
    const unknown = await call(aa, 'POST', `/api/gmail/submissions/${randomUUID()}/retry`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No e-mail submission with this id.' });
    for (const id of [SUB.caraFailed, SUB.unmatched]) expect(shape(await call(aa, 'POST', `/api/gmail/submissions/${id}/retry`))).toEqual(shape(unknown));
    // Past the scope, the mailbox itself answers: it refuses connections here.
    expect((await call(aa, 'POST', `/api/gmail/submissions/${SUB.benFailed}/retry`)).statusCode).toBe(503);
    expect((await call(everyone, 'POST', `/api/gmail/submissions/${SUB.caraFailed}/retry`)).statusCode).toBe(503);
  });

  it('the quick actions count AA\'s incomplete players and AA\'s documents of the last week', async () => {
    const rows = await scopedRows(getDatabase().db, ['AA'], FALL);
    const weekAgo = Date.now() - 7 * 24 * HOUR;
    const recent = rows.documents.filter((d) => d.uploadedAt.getTime() >= weekAgo);
    const actions = await ok(aa, 'GET', '/api/notifications/quick-actions', ZQuickActions);
    expect(actions.missingDocuments.players).toBe(rows.missingSomeType.length);
    expect(actions.missingDocuments.players).toBeGreaterThan(0);
    expect(actions.incompletePlayers).toBe(rows.registrations.length - rows.complete.length);
    expect(actions.lastWeek).toEqual({ received: recent.length, approved: 0, rejected: 0, pending: recent.filter((d) => d.status === 'pending').length });
    expect(actions.lastWeek.received).toBe(1);
    const unscoped = await ok(everyone, 'GET', '/api/notifications/quick-actions', ZQuickActions);
    expect(unscoped.lastWeek.received).toBe(2);
    expect(unscoped.missingDocuments.players).toBeGreaterThan(actions.missingDocuments.players);
  });

  it('the recipients of a send are AA\'s families only', async () => {
    const custom = { templateId: null, channel: 'email', subject: 'Documents for {{playerName}}', message: 'Dear {{guardianName}}, {{missingDocuments}}' };
    const all = await ok(aa, 'POST', '/api/notifications/preview', ZRecipientPreview, { ...custom, recipients: 'all_parents' });
    expect(all).toMatchObject({ count: 2, withoutEmail: 0, sample: ['adams@example.org', 'smith@example.org'] });
    const missing = await ok(aa, 'POST', '/api/notifications/preview', ZRecipientPreview, { ...custom, recipients: 'missing_documents' });
    // Ava has every type; Ben has no waiver (his was rejected).
    expect((await scopedRows(getDatabase().db, ['AA'], FALL)).missingSomeType).toEqual([P.ben]);
    expect(missing).toMatchObject({ count: 1, sample: ['adams@example.org'] });
    const unscoped = await ok(everyone, 'POST', '/api/notifications/preview', ZRecipientPreview, { ...custom, recipients: 'all_parents' });
    expect(unscoped.count).toBeGreaterThan(all.count);
    expect(unscoped.sample).toContain('jones@example.org');
  });

  it('the AA moderator previews the rejection notice of an AA document only', async () => {
    const mine = await call(aa, 'POST', '/api/notifications/preview/rejection', { documentId: D.benResidency, reason: 'Blurry' });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ audience: 'the family of Ben Adams', to: 'adams@example.org' });
    const theirs = await call(aa, 'POST', '/api/notifications/preview/rejection', { documentId: D.caraWaiver, reason: 'Blurry' });
    expect(theirs.statusCode).toBe(404);
    expect(JSON.stringify(theirs.json())).not.toContain('jones');
  });

  it('a send by the AA moderator goes to AA\'s families; History shows them messages about AA\'s players only', async () => {
    const db = getDatabase().db;
    const sent = await ok(aa, 'POST', '/api/notifications/send', ZNotificationSendResult, {
      templateId: null,
      channel: 'email',
      subject: 'Documents for {{playerName}}',
      message: 'Dear {{guardianName}}',
      recipients: 'all_parents',
    });
    expect(sent).toEqual({ sent: 2, failed: 0, pending: 0 });
    // An address of another division's family gets no details of that family.
    const custom = await ok(aa, 'POST', '/api/notifications/send', ZNotificationSendResult, {
      templateId: null,
      channel: 'email',
      subject: 'About {{playerName}}.',
      message: 'Hello',
      recipients: 'custom',
      customRecipients: 'jones@example.org',
    });
    expect(custom).toEqual({ sent: 1, failed: 0, pending: 0 });
    const mails = await smtp.waitFor(3);
    expect(mails.map((m) => `${m.to.join(',')} ${m.subject}`).sort()).toEqual([
      'adams@example.org Documents for Ben Adams',
      'jones@example.org About .',
      'smith@example.org Documents for Ava Smith',
    ]);

    const rows = await db.select().from(notificationHistory);
    const about = (recipient: string, subject: string) => rows.find((r) => r.recipient === recipient && r.subject === subject);
    expect(about('adams@example.org', 'Documents for Ben Adams')).toMatchObject({ playerId: P.ben, seasonId: FALL });
    expect(about('jones@example.org', 'About .')).toMatchObject({ playerId: null, seasonId: null });

    const history = await ok(aa, 'GET', '/api/notifications/history?pageSize=100', ZNotificationHistory);
    const expected = rows.filter((r) => r.seasonId === FALL && (r.playerId === P.ava || r.playerId === P.ben)).map((r) => r.id);
    expect(history.items.map((item) => item.id).sort()).toEqual([...expected].sort());
    expect(history.total).toBe(expected.length);
    expect(history.items.map((item) => item.id)).toContain(MESSAGE.ava);
    for (const hidden of [MESSAGE.cara, MESSAGE.avaSpring, MESSAGE.chat]) expect(history.items.map((item) => item.id)).not.toContain(hidden);
    const paged = await ok(aa, 'GET', '/api/notifications/history?pageSize=1&page=2', ZNotificationHistory);
    expect(paged).toMatchObject({ total: expected.length, items: [{ id: history.items[1]?.id }] });

    const unscoped = await ok(everyone, 'GET', '/api/notifications/history?pageSize=100', ZNotificationHistory);
    expect(unscoped.total).toBe(rows.length);
  });

  it('GET /api/notifications/settings shows the mail server and webhook hints only to those who may configure them', async () => {
    const full = await ok(everyone, 'GET', '/api/notifications/settings', ZNotificationSettings);
    expect(full.email).toMatchObject({ host: '127.0.0.1', port: smtp.port, username: 'mailer', from: 'League <registrations@league.example>', passwordSet: true, source: 'settings' });
    expect(full.slackWebhook).toEqual({ set: true, hint: '••••abcd' });
    for (const cookie of [aaViewer, aa]) {
      const response = await call(cookie, 'GET', '/api/notifications/settings');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        email: { passwordSet: true, source: 'settings' },
        slackWebhook: { set: true, hint: null },
        teamsWebhook: { set: false, hint: null },
        switches: full.switches,
      });
      expect(response.body).not.toContain('127.0.0.1');
      expect(response.body).not.toContain('mailer');
      expect(response.body).not.toContain('abcd');
    }
  });

  it('GET /api/settings/installation shows where files are and the antivirus address only to those who manage settings; usage covers AA only', async () => {
    const full = await ok(everyone, 'GET', '/api/settings/installation', ZInstallation);
    expect(full.storage.location).toEqual(expect.any(String));
    expect(full.antivirus.clamdLocation).toBe('tcp://127.0.0.1:3310');
    const rows = await scopedRows(getDatabase().db, ['AA'], FALL);
    const stored = rows.documents.filter((d) => d.storageKey !== null && d.storageDriver !== null && d.purgedAt === null);
    for (const cookie of [aaViewer, aa]) {
      const limited = await ok(cookie, 'GET', '/api/settings/installation', ZInstallation);
      expect(limited.storage.location).toBeNull();
      expect(limited.antivirus).toEqual({ scanningOn: full.antivirus.scanningOn, clamdConfigured: true, clamdLocation: null });
      expect(limited.storage.usage).toEqual([{ driver: 'local', documents: stored.length, bytes: stored.reduce((sum, d) => sum + d.bytes, 0) }]);
    }
    const everyDocument = full.storage.usage.reduce((sum, row) => sum + row.documents, 0);
    expect(everyDocument).toBeGreaterThan(stored.length);
  });
});
