import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZNotificationHistory, ZNotificationTemplates, type TNotificationHistoryItem } from '../../src/contract';
import { listAuditEventsByAction } from '../../src/server/audit/audit-events.repository';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { createNotificationsService } from '../../src/server/notifications';
import { loadConfig } from '../../src/server/platform/config';
import type { Db } from '../../src/server/platform/db/client';
import { documents, notificationHistory, submissions } from '../../src/server/platform/db/schema';
import { countJobsByStatus, enqueueJob } from '../../src/server/platform/jobs/jobs.repository';
import { createLogger } from '../../src/server/platform/logger';
import { insertSubmissions, REFUSED_FILES_NOTICE_QUEUE } from '../../src/server/pipeline';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { describeEachDatabase } from '../support/databases';
import { useDovecot } from '../support/dovecot';
import { appendMail } from '../support/imap';
import { buildMail } from '../support/mail';
import { injectSignedForm, makePdf, type Part } from '../support/multipart';
import { FALL_2025, SPRING_2025 } from '../support/pipeline';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';

const SECRET = 'refused-files-notice-webhook-secret';
const PASSWORD = 'refused files notice test password';
const GUARDIAN = 'maeve@example.org';
const BODY = ['Player: Zoë O’Brien', 'DOB: 05/03/2014', 'Division: AA', 'Parent: Maeve O’Brien'].join('\n');

const { current: dovecotNow, running } = useDovecot('refused-files notice tests');

let sequence = 0;
const unique = (tag: string) => `${tag}-${process.pid}-${++sequence}`;

const formFields = (submissionId: string, guardianEmail = GUARDIAN): Part[] => [
  { name: 'submissionId', value: submissionId },
  { name: 'season', value: '2025' },
  { name: 'division', value: 'AA' },
  { name: 'playerFirstName', value: 'Zoë' },
  { name: 'playerLastName', value: "O'Brien" },
  { name: 'playerBirthDate', value: '2014-05-03' },
  { name: 'guardianName', value: 'Maeve O’Brien' },
  { name: 'guardianEmail', value: guardianEmail },
];

/** Waits until no refused-files notice is queued or running: every one queued so far has done what it would. */
async function noticesSettled(db: Db): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const counts = await countJobsByStatus(db, REFUSED_FILES_NOTICE_QUEUE);
    if (counts.queued === 0 && counts.running === 0) return;
    if (Date.now() > deadline) throw new Error(`refused-files notices still waiting: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeEachDatabase('families are told when a file is refused', ({ getDatabase, kind }) => {
  let clearbase: Clearbase | undefined;
  let smtp: SmtpReceiver;
  let dataDir = '';
  let cookie = '';
  const user = `notice-${kind}@example.test`;
  const db = () => getDatabase().db;
  const app = () => {
    if (!clearbase) throw new Error('not started');
    return clearbase;
  };
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app().app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const history = async (): Promise<TNotificationHistoryItem[]> => ZNotificationHistory.parse((await call('GET', '/api/notifications/history?pageSize=100')).json()).items;
  const template = async () => {
    const found = ZNotificationTemplates.parse((await call('GET', '/api/notifications/templates')).json()).templates.find((t) => t.name === 'File Not Accepted');
    if (!found) throw new Error('no File Not Accepted template');
    return found;
  };
  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
  /** The History item of the message to `address`, once it is no longer pending. */
  const settledHistoryOf = async (address: string) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [item] = (await history()).filter((h) => h.recipient === address);
      if (item && item.status !== 'pending') return item;
      if (Date.now() > deadline) throw new Error(`no settled message to ${address} in History`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** The first mail to `address`, once it has arrived. */
  const mailTo = async (address: string) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [mail] = mailsTo(address);
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const append = async (raw: Buffer) => {
    const dovecot = dovecotNow();
    if (!dovecot) throw new Error('no dovecot');
    return appendMail(dovecot, raw, { user });
  };
  const submissionsOf = (messageId: string) => db().select().from(submissions).where(sql`starts_with(${submissions.externalId}, ${`${messageId}#`})`);

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    const dovecot = dovecotNow();
    const mailbox = dovecot ? await dovecot.addUser(user) : undefined;
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-notice-'));
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'false',
      CLEARBASE_LOGIN_RATE_LIMIT: '1000',
      FORM_WEBHOOK_SECRET: SECRET,
      SMTP_URL: smtp.url,
      SMTP_FROM: 'League Registrations <registrations@league.example>',
      ...(dovecot && mailbox
        ? { IMAP_HOST: dovecot.host, IMAP_PORT: String(dovecot.port), IMAP_TLS: 'false', IMAP_USER: mailbox.user, IMAP_PASSWORD: mailbox.password, IMAP_PROCESSED_MAILBOX: 'Processed' }
        : {}),
    });
    await insertSeasons(db(), [SPRING_2025, FALL_2025]);
    clearbase = await createClearbase(config, createLogger('silent'), { readDocuments: false, database: getDatabase(), webDir: path.join(dataDir, 'none'), mailboxSettleWaitMs: 5_000 });
    const login = await clearbase.app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: PASSWORD } });
    cookie = [login.headers['set-cookie']].flat().join(';').split(';')[0] ?? '';
  });
  afterAll(async () => {
    await clearbase?.close();
    await smtp.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('sends one e-mail from the form intake naming each refused file and why, in History, audited; a replay or a second run sends none', async () => {
    const id = unique('form');
    const response = await injectSignedForm(
      app().app,
      [
        ...formFields(id),
        { name: 'birth_certificate', filename: 'birth.pdf', content: makePdf('birth certificate'), contentType: 'application/pdf' },
        { name: 'medical', filename: 'medical.pdf', content: Buffer.alloc(0), contentType: 'application/pdf' },
        { name: 'waiver', filename: 'waiver.docx', content: Buffer.from('PK\u0003\u0004 a Word file'), contentType: 'application/octet-stream' },
      ],
      SECRET,
    );
    expect(response.statusCode, response.body).toBe(202);
    const { submissionId } = response.json<{ submissionId: string }>();

    const mail = await mailTo(GUARDIAN);
    expect(mail).toMatchObject({ to: [GUARDIAN], subject: 'We could not accept a file sent for Zoë O\'Brien' });
    expect(mail.text).toContain('Hello Maeve O’Brien,');
    expect(mail.text).toContain('- medical.pdf: The file is empty\n- waiver.docx: Attachment is not a PDF or image');
    expect(mail.text).toContain('(Fall Ball 2025)');
    expect(mail.text).not.toContain('birth.pdf');

    // The mail server has the message a moment before History is told it went.
    const item = await settledHistoryOf(GUARDIAN);
    expect(item).toMatchObject({ type: 'email', subject: 'We could not accept a file sent for Zoë O\'Brien', status: 'sent', errorMessage: null });
    const [row] = await db().select().from(notificationHistory).where(eq(notificationHistory.id, item?.id ?? ''));
    expect(row?.templateId).toBe((await template()).id);
    expect(row?.playerId).toMatch(/^CB-2025-/);
    const events = (await listAuditEventsByAction(db(), 'submission.refusal_notified')).filter((e) => e.subjectId === submissionId);
    expect(events).toHaveLength(1);
    expect(events[0]?.detail).toMatchObject({ source: 'form', externalId: id, files: 2, historyId: item?.id });

    // The form provider sends it again: nothing new is recorded, nothing is sent.
    const replay = await injectSignedForm(app().app, [...formFields(id), { name: 'medical', filename: 'medical.pdf', content: Buffer.alloc(0) }], SECRET);
    expect(replay.json<{ duplicate: boolean }>().duplicate).toBe(true);
    // The notice runs again (a job retried, a second instance): it finds the family told.
    await enqueueJob(db(), { queue: REFUSED_FILES_NOTICE_QUEUE, payload: { submissionId, files: [{ filename: 'medical.pdf', reason: 'The file is empty' }] } });
    app().jobRunner.poke();
    await noticesSettled(db());
    expect(mailsTo(GUARDIAN)).toHaveLength(1);
    expect((await history()).filter((h) => h.recipient === GUARDIAN)).toHaveLength(1);
  });

  it('sends nothing for a submission whose every file was accepted, or that left no e-mail', async () => {
    const before = smtp.received.length;
    const accepted = await injectSignedForm(app().app, [...formFields(unique('fine')), { name: 'waiver', filename: 'waiver.pdf', content: makePdf('waiver') }], SECRET);
    expect(accepted.statusCode).toBe(202);
    const noEmail = await injectSignedForm(app().app, [...formFields(unique('no-email'), ''), { name: 'medical', filename: 'medical.pdf', content: Buffer.alloc(0) }], SECRET);
    expect(noEmail.statusCode, noEmail.body).toBe(202);
    await noticesSettled(db());
    expect(smtp.received.length).toBe(before);
  });

  it('uses the template as edited on the Notifications screen, and sends nothing while it is turned off', async () => {
    const address = 'second.family@example.org';
    const edited = await call('PATCH', `/api/notifications/templates/${(await template()).id}`, {
      subject: 'File not accepted for {{playerName}}',
      content: 'Dear {{guardianName}},\n{{refusedFiles}}\nThanks',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await injectSignedForm(app().app, [...formFields(unique('edited'), address), { name: 'residency', filename: 'bill.pdf', content: Buffer.alloc(0) }], SECRET);
    const mail = await mailTo(address);
    expect(mail).toMatchObject({ subject: "File not accepted for Zoë O'Brien", text: expect.stringContaining('Dear Maeve O’Brien,\n- bill.pdf: The file is empty\nThanks') as unknown });

    expect((await call('PATCH', `/api/notifications/templates/${(await template()).id}`, { enabled: false })).statusCode).toBe(200);
    const historyBefore = (await history()).length;
    const before = smtp.received.length;
    await injectSignedForm(app().app, [...formFields(unique('off'), 'third.family@example.org'), { name: 'residency', filename: 'bill.pdf', content: Buffer.alloc(0) }], SECRET);
    await noticesSettled(db());
    expect(smtp.received.length).toBe(before);
    expect((await history()).length).toBe(historyBefore);
    expect((await call('PATCH', `/api/notifications/templates/${(await template()).id}`, { enabled: true })).statusCode).toBe(200);
  });

  it('sends nothing, and leaves History alone, when no mail server is set up', async () => {
    const address = 'fourth.family@example.org';
    // A submission with a refused file whose notice has not run yet (recorded here, without its job).
    const [player] = await db().select({ playerId: submissions.playerId }).from(submissions).where(sql`${submissions.playerId} is not null`).limit(1);
    const submissionId = randomUUID();
    await insertSubmissions(db(), [
      { id: submissionId, source: 'form', externalId: unique('no-mail'), playerId: player?.playerId ?? null, seasonId: FALL_2025.id, status: 'failed', fields: { guardianName: 'Ann Lee', guardianEmail: address } },
    ]);
    const notice = { submissionId, files: [{ filename: 'medical.pdf', reason: 'The file is empty' }] };
    // The same notice, run by a server without SMTP_URL and no server on the Settings tab.
    const without = createNotificationsService({
      db: db(),
      masterKey: randomBytes(32),
      environmentSmtp: { url: undefined, from: undefined },
      checkChatWebhook: () => undefined,
      openMail: () => {
        throw new Error('no mail server may be opened');
      },
      postChat: () => Promise.reject(new Error('no chat')),
      log: createLogger('silent'),
      pokeJobs: () => undefined,
    uploadLinkOrigin: () => 'http://clearbase.test',
    });
    const historyBefore = (await history()).length;
    expect(await without.notifyFilesRefused(notice)).toBe('not sent');
    expect((await history()).length).toBe(historyBefore);
    expect((await listAuditEventsByAction(db(), 'submission.refusal_notified')).filter((e) => e.subjectId === notice.submissionId)).toEqual([]);

    // With the mail server set up, the same notice goes out.
    await enqueueJob(db(), { queue: REFUSED_FILES_NOTICE_QUEUE, payload: notice });
    app().jobRunner.poke();
    // (The template as the test before left it.)
    expect((await mailTo(address)).text).toContain('Dear Ann Lee,\n- medical.pdf: The file is empty');
  });

  it('tells the sender of a mail with a refused attachment once, though the same mail is delivered again', async (context) => {
    running(context);
    const id = `<${unique('winmail')}@example.org>`;
    const sender = 'mail.family@example.org';
    const original = {
      from: `Maeve O’Brien <${sender}>`,
      to: user,
      subject: 'Registration documents',
      text: BODY,
      messageId: id,
      attachments: [
        { filename: 'waiver.pdf', content: makePdf('waiver by mail') },
        { filename: 'winmail.dat', content: randomBytes(2_000), contentType: 'application/ms-tnef' },
      ],
    };
    await append(await buildMail(original));
    expect(await app().mailbox.check()).toMatchObject({ recorded: 1 });
    const mail = await mailTo(sender);
    expect(mail.text).toContain('- winmail.dat: Outlook packed the attachments into winmail.dat; please send them again as ordinary attachments');
    expect(mail.text).not.toContain('waiver.pdf');

    // A copy of the same mail, through a forwarder.
    await append(Buffer.concat([Buffer.from('Received: from forwarder.example.net by mx.example.test; Tue, 2 Sep 2025 08:00:00 +0000\r\n'), await buildMail(original)]));
    expect(await app().mailbox.check()).toMatchObject({ recorded: 0 });
    await noticesSettled(db());
    expect(mailsTo(sender)).toHaveLength(1);
    expect(await submissionsOf(id)).toHaveLength(1);
  });

  it('records a mail whose only attachment is refused with its player, tells the family, and a staff retry does not tell them again', async (context) => {
    running(context);
    const id = `<${unique('encrypted')}@example.org>`;
    const sender = 'encrypted.family@example.org';
    await append(
      await buildMail({
        from: `Maeve O’Brien <${sender}>`,
        to: user,
        subject: 'Documents',
        text: BODY,
        messageId: id,
        attachments: [{ filename: 'smime.p7m', content: randomBytes(3_000), contentType: 'application/pkcs7-mime' }],
      }),
    );
    await app().mailbox.check();
    const [failed] = await submissionsOf(id);
    expect(failed).toMatchObject({ status: 'failed', errorMessage: 'The e-mail is encrypted (smime.p7m) and cannot be read; ask the sender to send it unencrypted' });
    expect(failed?.playerId).toMatch(/^CB-2025-/);
    expect((await db().select().from(documents).where(eq(documents.submissionId, failed?.id ?? ''))).map((d) => [d.originalFilename, d.status])).toEqual([['smime.p7m', 'rejected']]);
    expect((await mailTo(sender)).text).toContain('- smime.p7m: The e-mail is encrypted (smime.p7m) and cannot be read; please send it unencrypted');

    const retried = await call('POST', `/api/gmail/submissions/${failed?.id ?? ''}/retry`);
    expect(retried.json()).toEqual({ ok: true, message: 'Retried, and it failed again: The e-mail is encrypted (smime.p7m) and cannot be read; ask the sender to send it unencrypted' });
    const after = await submissionsOf(id);
    expect(after).toHaveLength(1);
    expect(after[0]?.id).not.toBe(failed?.id);
    await noticesSettled(db());
    expect(mailsTo(sender)).toHaveLength(1);
  });
});
