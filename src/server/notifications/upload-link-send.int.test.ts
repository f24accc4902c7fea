import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UPLOAD_LINK_STAND_IN, ZReminderSchedule, ZUploadLinkSendResult, type TApiError } from '../../contract';
import { addPerson, setSignInMode, signInAs } from '../../../tests/support/accounts';
import { describeEachDatabase } from '../../../tests/support/databases';
import { P, seedReportFixture } from '../../../tests/support/report-fixture';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { startSmtpReceiver, type SmtpReceiver } from '../../../tests/support/smtp-receiver';
import { auditEvents, notificationHistory, uploadLinks } from '../platform/db/schema';
import { hashUploadToken } from '../upload-links';

const UPLOAD_LINK_URL = /https:\/\/league\.example\/family#token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/;

/** 'Send link' on a player, and a season's automatic reminders, through the API against a real SMTP server. */
describeEachDatabase('upload link send and reminder schedule', ({ getDatabase }) => {
  let smtp: SmtpReceiver;
  let server: SignedInClearbase;
  let scopedCookie = '';

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object, cookie = server.cookie) =>
    server.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    await seedReportFixture(getDatabase().db);
    server = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-upload-send',
      startWorkers: false,
      settings: {
        CLEARBASE_MASTER_KEY: randomBytes(32).toString('hex'),
        CLEARBASE_PUBLIC_URL: 'https://league.example',
        SMTP_URL: smtp.url,
        SMTP_FROM: 'League <registrations@league.example>',
      },
    });
    await setSignInMode(server.app, server.cookie, 'both');
    const moderator = await addPerson(server.app, server.cookie, { email: 'aa.mod@example.org', password: 'a long test password 1', role: 'moderator', divisions: ['AAA'] });
    scopedCookie = await signInAs(server.app, moderator);
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  it("e-mails the guardian a working link, keeps a stand-in in History, and audits both", async () => {
    const before = smtp.received.length;
    const response = await call('POST', `/api/players/${P.ben}/upload-link/send`, { season: '2025' });
    expect(response.statusCode, response.body).toBe(200);
    const result = ZUploadLinkSendResult.parse(response.json());
    expect(result).toMatchObject({ to: 'adams@example.org', status: 'sent', error: null });
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail?.subject).toBe("Ben Adams's upload page (Fall Ball 2025)");
    const token = UPLOAD_LINK_URL.exec(mail?.text ?? '')?.[1] ?? '';
    const db = getDatabase().db;
    const [link] = await db.select().from(uploadLinks).where(eq(uploadLinks.tokenHash, hashUploadToken(token)));
    expect(link).toMatchObject({ playerId: P.ben, seasonId: 'fall-2025' });
    expect(link?.expiresAt.toISOString()).toBe(result.expiresAt);
    const [row] = await db.select().from(notificationHistory).where(eq(notificationHistory.playerId, P.ben));
    expect(row).toMatchObject({ recipient: 'adams@example.org', status: 'sent', seasonId: 'fall-2025' });
    expect(row?.body).toContain(UPLOAD_LINK_STAND_IN);
    expect(row?.body).not.toContain(token);
    const audits = await db.select({ action: auditEvents.action }).from(auditEvents).where(and(eq(auditEvents.subjectType, 'player'), eq(auditEvents.subjectId, P.ben)));
    expect(audits.map((a) => a.action).sort()).toEqual(['notifications.sent', 'upload_link.issued']);
  });

  it('answers 409 without a guardian e-mail, 404 for a player of another division or season', async () => {
    const none = await call('POST', `/api/players/${P.dan}/upload-link/send`, { season: '2025' });
    expect(none.statusCode).toBe(409);
    expect(none.json<TApiError>().message).toBe("No guardian e-mail is on file for Dan Brown: add one on the player's page, or copy the link instead.");
    // Ben plays in AA; this moderator sees AAA only.
    expect((await call('POST', `/api/players/${P.ben}/upload-link/send`, { season: '2025' }, scopedCookie)).statusCode).toBe(404);
    expect((await call('POST', `/api/players/${P.cara}/upload-link/send`, { season: '2025' }, scopedCookie)).statusCode).toBe(200);
    expect((await call('POST', `/api/players/${P.ben}/upload-link/send`, { season: '2024' })).statusCode).toBe(404);
  });

  it('answers 409 with where to fix it when e-mail notifications are off, and sends nothing', async () => {
    const before = smtp.received.length;
    expect((await call('PATCH', '/api/settings', { emailNotifications: false })).statusCode).toBe(200);
    try {
      const off = await call('POST', `/api/players/${P.ava}/upload-link/send`, { season: '2025' });
      expect(off.statusCode).toBe(409);
      expect(off.json<TApiError>().message).toMatch(/turned off/);
    } finally {
      await call('PATCH', '/api/settings', { emailNotifications: true });
    }
    expect(smtp.received.length).toBe(before);
  });

  it('keeps a season\'s automatic reminders, off by default, and says when the next go out', async () => {
    const initial = ZReminderSchedule.parse((await call('GET', '/api/notifications/reminders?season=2025')).json());
    expect(initial).toMatchObject({ enabled: false, daysBeforeDeadline: [14, 7, 2], daysAfterRejection: [3], upcoming: [] });
    const saved = await call('PUT', '/api/notifications/reminders', { season: '2025', enabled: true, daysBeforeDeadline: [2, 30], daysAfterRejection: [] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(ZReminderSchedule.parse(saved.json())).toMatchObject({ season: { id: 'fall-2025', registrationDeadline: '2025-11-30' }, enabled: true, daysBeforeDeadline: [30, 2] });
    const read = ZReminderSchedule.parse((await call('GET', '/api/notifications/reminders?season=fall-2025', undefined, scopedCookie)).json());
    expect(read.daysBeforeDeadline).toEqual([30, 2]);
    const [audit] = await getDatabase().db.select().from(auditEvents).where(eq(auditEvents.action, 'reminders.updated'));
    expect(audit).toMatchObject({ subjectType: 'season', subjectId: 'fall-2025' });

    const bad = await call('PUT', '/api/notifications/reminders', { season: '2025', enabled: true, daysBeforeDeadline: [7, 7], daysAfterRejection: [0] });
    expect(bad.statusCode).toBe(400);
    // A moderator may read, not change them.
    expect((await call('PUT', '/api/notifications/reminders', { season: '2025', enabled: false, daysBeforeDeadline: [], daysAfterRejection: [] }, scopedCookie)).statusCode).toBe(403);
  });
});
