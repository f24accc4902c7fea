import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZNotificationSend, type TNotificationSend, type TPlayerListFilter, type TPrincipal } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { P, seedReportFixture } from '../../../tests/support/report-fixture';
import { startSmtpReceiver, type SmtpReceiver } from '../../../tests/support/smtp-receiver';
import { createSmtpTransportFactory } from '../adapters/mail/smtp-transport';
import { createLocalStorage } from '../adapters/storage/local-storage';
import { SHARED_PRINCIPAL } from '../auth';
import { createLogger } from '../platform/logger';
import { AppError } from '../platform/errors';
import { createReportsService } from '../reports';
import { listNotificationTemplates } from './notification-templates.repository';
import { listNotificationHistory } from './notification-history.repository';
import { createNotificationsService, seedDefaultNotificationTemplates } from './notifications.service';

/**
 * A send to a Players list ('players_list'): its guardians are exactly the players the list shows for the same
 * filters (every page), within the sender's divisions, read by the list's own query.
 */
describeEachDatabase('a send to a Players list', ({ getDb }) => {
  let smtp: SmtpReceiver;
  const service = () =>
    createNotificationsService({
      db: getDb(),
      masterKey: randomBytes(32),
      environmentSmtp: { url: smtp.url, from: 'League <registrations@league.example>' },
      checkChatWebhook: () => undefined,
      openMail: createSmtpTransportFactory({ timeoutMs: 5_000 }),
      postChat: () => Promise.reject(new Error('no chat in this test')),
      log: createLogger('silent'),
      pokeJobs: () => undefined,
    uploadLinkOrigin: () => 'http://clearbase.test',
    });
  // The list reads no file: its storage is never opened.
  const storage = createLocalStorage(path.join(tmpdir(), 'cb-players-list-unused'));
  const reports = () => createReportsService({ db: getDb(), storageFor: () => storage });
  let reminderId = '';
  const sendTo = (playersList: TPlayerListFilter): TNotificationSend => ({ templateId: reminderId, recipients: 'players_list', playersList });
  const scoped = (divisions: TPrincipal['divisions']): TPrincipal => ({ ...SHARED_PRINCIPAL, kind: 'user', userId: null, role: 'moderator', divisions });

  /** The guardians' e-mails of the list as GET /api/report/missing answers it for the principal. */
  async function listEmails(filter: TPlayerListFilter, principal: TPrincipal): Promise<{ emails: string[]; players: number }> {
    const report = await reports().getMissingReport({ division: 'all', status: 'all', ...filter, page: 1 }, principal);
    const emails = report.players.flatMap((row) => (row.guardian?.email ? [row.guardian.email] : []));
    return { emails: emails.sort(), players: report.total };
  }

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    await seedReportFixture(getDb());
    await seedDefaultNotificationTemplates(getDb());
    const reminder = (await listNotificationTemplates(getDb())).find((t) => t.name === 'Missing Documents Reminder');
    if (!reminder) throw new Error('no reminder template');
    reminderId = reminder.id;
  });
  afterAll(async () => {
    await smtp.stop();
  });

  it('needs the filters with that kind of recipients', () => {
    expect(ZNotificationSend.safeParse({ templateId: reminderId, recipients: 'players_list' }).success).toBe(false);
    expect(ZNotificationSend.safeParse(sendTo({ missing: 'birth_certificate' })).success).toBe(true);
  });

  it('counts exactly the players the list shows, with and without a guardian e-mail', async () => {
    for (const filter of [
      { missing: 'birth_certificate' },
      { missing: 'residency', status: 'incomplete' },
      { division: 'AA' },
      { search: 'o', missing: 'medical' },
      { season: 'fall-2024' },
    ] satisfies TPlayerListFilter[]) {
      const list = await listEmails(filter, SHARED_PRINCIPAL);
      const preview = await service().preview(ZNotificationSend.parse(sendTo(filter)), SHARED_PRINCIPAL);
      expect({ count: preview.count, withoutEmail: preview.withoutEmail }, JSON.stringify(filter)).toEqual({
        count: list.emails.length,
        withoutEmail: list.players - list.emails.length,
      });
      expect([...preview.sample].sort()).toEqual(list.emails.slice(0, preview.sample.length).sort());
    }
    // Birth certificates missing in Fall 2025: Dan (no guardian e-mail) and Eve.
    const missingBirth = await service().preview(ZNotificationSend.parse(sendTo({ missing: 'birth_certificate' })), SHARED_PRINCIPAL);
    expect({ count: missingBirth.count, sample: missingBirth.sample, withoutEmail: missingBirth.withoutEmail }).toEqual({
      count: 1,
      sample: ['fifty@example.org'],
      withoutEmail: 1,
    });
  });

  it('applies the sender’s divisions: their part of the list, and a division outside them is no such division', async () => {
    const aaOnly = scoped(['AA', 'TEST']);
    const filter = { missing: 'waiver' } satisfies TPlayerListFilter;
    const everyone = await service().preview(ZNotificationSend.parse(sendTo(filter)), SHARED_PRINCIPAL);
    const theirs = await service().preview(ZNotificationSend.parse(sendTo(filter)), aaOnly);
    const list = await listEmails(filter, aaOnly);
    // Waivers missing: Ben (AA), Dan (A, no e-mail); Eve's (TEST) is complete.
    expect(everyone.count + everyone.withoutEmail).toBe(2);
    expect(theirs).toMatchObject({ count: 1, sample: ['adams@example.org'], withoutEmail: 0 });
    expect(theirs.sample).toEqual(list.emails);
    const outside = await service()
      .preview(ZNotificationSend.parse(sendTo({ division: 'A' })), aaOnly)
      .catch((error: unknown) => error);
    expect(outside).toBeInstanceOf(AppError);
    expect(outside).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('sends one message per player of the list, to exactly its guardians, recorded in History with the player', async () => {
    const filter = { status: 'incomplete' } satisfies TPlayerListFilter;
    const list = await listEmails(filter, SHARED_PRINCIPAL);
    expect(list.emails.length).toBeGreaterThan(1);
    const before = smtp.received.length;
    const result = await service().send(ZNotificationSend.parse(sendTo(filter)), { principal: SHARED_PRINCIPAL, requestId: 'test' });
    expect(result).toEqual({ sent: list.emails.length, failed: 0, pending: 0 });
    const mails = await smtp.waitFor(before + list.emails.length);
    expect(mails.slice(before).flatMap((mail) => mail.to).sort()).toEqual(list.emails);
    const history = await listNotificationHistory(getDb(), 100, 0, null);
    const sent = history.slice(0, list.emails.length);
    expect(sent.map((row) => row.recipient).sort()).toEqual(list.emails);
    // Ben's reminder names Ben and his own missing waiver.
    expect(sent.find((row) => row.playerId === P.ben)?.recipient).toBe('adams@example.org');
    const bens = mails.slice(before).find((mail) => mail.to.includes('adams@example.org'));
    expect(bens?.text).toContain('Liability Waiver');
  });
});
