import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ZMessagePreview,
  ZNotificationHistory,
  ZNotificationSendResult,
  ZNotificationTemplates,
  ZRecipientPreview,
  type TNotificationTemplate,
  UPLOAD_LINK_STAND_IN,
} from '../../contract';
import { eq } from 'drizzle-orm';
import { uploadLinks } from '../platform/db/schema';
import { hashUploadToken } from '../upload-links';
import { describeEachDatabase } from '../../../tests/support/databases';
import { D, seedReportFixture } from '../../../tests/support/report-fixture';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { startSmtpReceiver, type SmtpReceiver } from '../../../tests/support/smtp-receiver';
import type { Database } from '../platform/db/client';
import { insertNotificationHistory } from './notification-history.repository';

const MASTER_KEY = randomBytes(32).toString('hex');
/** A family's upload link as an e-mail carries it: the server's address, the family page, a 43-character token. */
const UPLOAD_LINK_URL = /http:\/\/[^\s/]+\/family#token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/;
const withoutLinks = (text: string) => text.replace(new RegExp(UPLOAD_LINK_URL.source, 'g'), UPLOAD_LINK_STAND_IN);

/**
 * What a message will look like before it is sent, whether it can be delivered at all, and what History keeps
 * of it afterwards: against a real SMTP server.
 */
describeEachDatabase('notification preview and history text', ({ getDatabase }) => {
  let smtp: SmtpReceiver;
  let withMail: SignedInClearbase;

  const start = (database: Database, prefix: string, smtpUrl: string | undefined) =>
    startSignedInClearbase({
      database,
      prefix,
      startWorkers: false,
      settings: {
        CLEARBASE_MASTER_KEY: MASTER_KEY,
        ...(smtpUrl ? { SMTP_URL: smtpUrl, SMTP_FROM: 'League Registrations <registrations@league.example>' } : {}),
      },
    });
  const call = (server: SignedInClearbase, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    server.app.inject({ method, url, headers: { cookie: server.cookie }, ...(payload ? { payload } : {}) });
  const templateNamed = async (name: string): Promise<TNotificationTemplate> => {
    const list = ZNotificationTemplates.parse((await call(withMail, 'GET', '/api/notifications/templates')).json()).templates;
    const found = list.find((t) => t.name === name);
    if (!found) throw new Error(`no template ${name}`);
    return found;
  };
  const history = async () => ZNotificationHistory.parse((await call(withMail, 'GET', '/api/notifications/history?pageSize=100')).json()).items;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    await seedReportFixture(getDatabase().db);
    withMail = await start(getDatabase(), 'cb-preview', smtp.url);
  });
  afterAll(async () => {
    await withMail.close();
    await smtp.stop();
  });

  it('previews the message as the first family gets it, naming the family, and sends exactly that text', async () => {
    const template = await templateNamed('Missing Documents Reminder');
    const request = { templateId: template.id, recipients: 'missing_documents', deadline: '2025-11-14' };
    const preview = ZRecipientPreview.parse((await call(withMail, 'POST', '/api/notifications/preview', request)).json());
    expect(preview.count).toBe(3);
    expect(preview.deliveryProblem).toBeNull();
    // Families by last name: Adams first; Ben Adams misses only his waiver (rejected).
    expect(preview.message).toMatchObject({
      audience: 'the family of Ben Adams',
      to: 'adams@example.org',
      subject: 'Documents still missing for Ben Adams (Fall Ball 2025)',
      deliveryProblem: null,
    });
    expect(preview.message?.body).toContain('Hello Adams Parent,\n\nWe are still missing these documents for Ben Adams for Fall Ball 2025:\nLiability Waiver\n');
    expect(preview.message?.body).toContain('before Friday, November 14, 2025');

    const before = smtp.received.length;
    const sent = await call(withMail, 'POST', '/api/notifications/send', request);
    expect(ZNotificationSendResult.parse(sent.json())).toEqual({ sent: 3, failed: 0, pending: 0 });
    const mails = (await smtp.waitFor(before + 3)).slice(before);
    const adams = mails.find((mail) => mail.to.includes('adams@example.org'));
    // Each family its own link, for its own player.
    const issued = await Promise.all(
      mails.map(async (mail) => {
        const [row] = await getDatabase().db.select().from(uploadLinks).where(eq(uploadLinks.tokenHash, hashUploadToken(UPLOAD_LINK_URL.exec(mail.text)?.[1] ?? '')));
        return row?.playerId;
      }),
    );
    expect(new Set(issued).size).toBe(3);
    expect(issued.every((playerId) => playerId !== undefined)).toBe(true);
    expect(adams?.subject).toBe(preview.message?.subject);
    // The preview and History show a stand-in where the e-mail has the family's own link, made as it was sent.
    expect(preview.message?.body).toContain(`upload page:\n${UPLOAD_LINK_STAND_IN}\n`);
    expect(adams?.text).toMatch(UPLOAD_LINK_URL);
    expect(withoutLinks(adams?.text ?? '').trim()).toBe(preview.message?.body.trim());
    // The link works: only its token's hash is kept, for Ben Adams and the season.
    const token = UPLOAD_LINK_URL.exec(adams?.text ?? '')?.[1] ?? '';
    const [link] = await getDatabase().db.select().from(uploadLinks).where(eq(uploadLinks.tokenHash, hashUploadToken(token)));
    expect(link).toMatchObject({ seasonId: 'fall-2025', revokedAt: null });
    expect(link?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 60 * 60_000);
    expect(adams?.html).toContain(`<a href="${UPLOAD_LINK_URL.exec(adams?.text ?? '')?.[0] ?? 'none'}">`);

    // History keeps the whole text of each message, as the SMTP server received it, but for the link.
    const row = (await history()).find((item) => item.recipient === 'adams@example.org' && item.subject === preview.message?.subject);
    expect(row).toMatchObject({ status: 'sent', body: preview.message?.body });
    expect(row?.body?.trim()).toBe(withoutLinks(adams?.text ?? '').trim());
    expect(row?.body).not.toMatch(/#token=/);
  });

  it('keeps the text of a rejection notice, the one the reject dialog previewed', async () => {
    const reason = 'The photo is cut off <at the bottom>';
    const previewed = ZMessagePreview.parse((await call(withMail, 'POST', '/api/notifications/preview/rejection', { documentId: D.benResidency, reason })).json());
    expect(previewed).toMatchObject({
      audience: 'the family of Ben Adams',
      to: 'adams@example.org',
      subject: "Ben Adams's Residency Proof needs a new copy",
      deliveryProblem: null,
    });
    expect(previewed.body).toContain(`sent for Ben Adams (Fall Ball 2025):\n${reason}\n`);

    const before = smtp.received.length;
    const rejected = await call(withMail, 'PATCH', `/api/documents/${D.benResidency}/status`, { status: 'rejected', reviewNotes: reason, notifyGuardian: true });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail?.subject).toBe(previewed.subject);
    expect(mail?.text).toMatch(UPLOAD_LINK_URL);
    expect(withoutLinks(mail?.text ?? '').trim()).toBe(previewed.body.trim());
    const [row] = await history();
    expect(row).toMatchObject({ recipient: 'adams@example.org', subject: previewed.subject, status: 'sent', body: previewed.body });

    // A document that does not exist has no notice to preview.
    const missing = await call(withMail, 'POST', '/api/notifications/preview/rejection', { documentId: '00000000-0000-4000-8000-0000000000ff', reason });
    expect(missing.statusCode).toBe(404);
  });

  it('answers no text for a message recorded before texts were kept', async () => {
    await insertNotificationHistory(getDatabase().db, [
      { type: 'email', recipient: 'older@example.org', subject: 'From an older version', status: 'sent', sentAt: new Date(), createdAt: new Date(Date.now() + 60_000) },
    ]);
    const [row] = await history();
    expect(row).toMatchObject({ recipient: 'older@example.org', body: null });
  });

  it('refuses to send by hand a template only an automatic message can fill', async () => {
    for (const name of ['File Not Accepted', 'Document Rejected']) {
      const template = await templateNamed(name);
      const response = await call(withMail, 'POST', '/api/notifications/preview', { templateId: template.id, recipients: 'all_parents' });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ message: `The template '${name}' is sent by Clearbase itself, when a document is rejected or a file is refused; it cannot be sent from here.` });
    }
  });

  it('says, before sending, that no mail server is set up and where to set one; then that e-mail is switched off', async () => {
    const bare = await start(getDatabase(), 'cb-preview-bare', undefined);
    try {
      const request = { templateId: null, subject: 'Hello {{guardianName}}', message: 'About {{playerName}}', recipients: 'all_parents' };
      const readProblem = async () => ZRecipientPreview.parse((await call(bare, 'POST', '/api/notifications/preview', request)).json()).deliveryProblem;
      expect(await readProblem()).toEqual({
        reason: 'no_mail_server',
        message: 'No mail server is set up, so e-mail cannot be delivered. Set one up in Notifications → Settings → Mail Server.',
      });
      const rejection = ZMessagePreview.parse((await call(bare, 'POST', '/api/notifications/preview/rejection', { documentId: D.avaMedicalPending, reason: 'x' })).json());
      expect(rejection.deliveryProblem?.reason).toBe('no_mail_server');

      // A server saved on the Settings tab sets it up; the e-mail switch off is the next thing that holds mail back.
      const email = { host: '127.0.0.1', port: smtp.port, secure: false, username: '', from: 'Tab <tab@league.example>' };
      expect((await call(bare, 'PUT', '/api/notifications/settings', { email })).statusCode).toBe(200);
      expect(await readProblem()).toBeNull();
      expect((await call(bare, 'PATCH', '/api/settings', { emailNotifications: false })).statusCode).toBe(200);
      expect(await readProblem()).toEqual({
        reason: 'switched_off',
        message: 'E-mail notifications are turned off, so nothing goes out. Turn them on in Settings → Notifications.',
      });
    } finally {
      await call(bare, 'PATCH', '/api/settings', { emailNotifications: true });
      await call(bare, 'PUT', '/api/notifications/settings', { email: { host: '', port: 587, secure: false, username: '', from: '' } });
      await bare.close();
    }
  });
});
