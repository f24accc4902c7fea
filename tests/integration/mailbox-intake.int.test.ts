import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZMailboxRecent, ZMailboxStats, ZMailboxStatus } from '../../src/contract';
import { loadConfig } from '../../src/server/platform/config';
import { decryptToBuffer } from '../../src/server/platform/crypto/envelope';
import type { Db } from '../../src/server/platform/db/client';
import { documents, submissions } from '../../src/server/platform/db/schema';
import { releaseCheckLease, takeCheckLease } from '../../src/server/intake/mailbox/mailbox-state.repository';
import { insertSubmissions } from '../../src/server/pipeline';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { eq, sql } from 'drizzle-orm';
import { describeEachDatabase } from '../support/databases';
import { useDovecot } from '../support/dovecot';
import { appendMail, listMessages, withImap } from '../support/imap';
import sharp from 'sharp';
import { pngImage } from '../support/images';
import { buildMail, buildUuencodedMail, uuencode } from '../support/mail';
import { makePdf, PNG_HEADER } from '../support/multipart';
import { FALL_2025, SPRING_2025 } from '../support/pipeline';

const PASSWORD = 'mailbox test password';
const MAX_FILE_BYTES = 256 * 1024;
const PARENT = 'Maeve O’Brien <maeve@example.org>';
const BODY = ['Hello,', '', 'Player: Zoë O’Brien', 'DOB: 05/03/2014', 'Division: AA', 'Parent: Maeve O’Brien', 'Phone: 555-0142', '', 'Thanks!'].join('\n');

const { current: dovecotNow, running } = useDovecot('mailbox intake tests');

let sequence = 0;
/** A distinct Message-ID per mail and per database run, so the two runs never see each other's mail. */
const messageId = (tag: string) => `<${tag}-${process.pid}-${++sequence}@example.org>`;

/** The submissions of the mails with this Message-ID (recorded as `<message-id>#<content hash>`). */
async function submissionOf(db: Db, messageId: string) {
  const rows = await db.select().from(submissions).where(sql`starts_with(${submissions.externalId}, ${`${messageId}#`})`);
  return rows;
}

describeEachDatabase('mailbox intake over IMAP (Dovecot)', ({ getDatabase, kind }) => {
  let clearbase: Clearbase | undefined;
  let dataDir = '';
  let masterKey = Buffer.alloc(0);
  let cookie = '';
  const app = () => {
    if (!clearbase) throw new Error('not started');
    return clearbase;
  };
  const call = (method: 'GET' | 'POST', url: string) => app().app.inject({ method, url, headers: { cookie } });

  beforeAll(async () => {
    const dovecot = dovecotNow();
    if (!dovecot) return;
    // Each database run reads its own user's mailbox: the two runs never share a mailbox.
    const user = await dovecot.addUser(`intake-${kind}@example.test`);
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-mailbox-'));
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'false',
      MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      IMAP_HOST: dovecot.host,
      IMAP_PORT: String(dovecot.port),
      IMAP_TLS: 'false',
      IMAP_USER: user.user,
      IMAP_PASSWORD: user.password,
      IMAP_PROCESSED_MAILBOX: 'Processed',
    });
    await insertSeasons(getDatabase().db, [SPRING_2025, FALL_2025]);
    // Workers off: each test decides when the pipeline runs, to see what happens before storage.
    clearbase = await createClearbase(config, createLogger('silent'), {
      readDocuments: false,
      database: getDatabase(),
      webDir: path.join(dataDir, 'none'),
      startWorkers: false,
      mailboxSettleWaitMs: 3_000,
    });
    masterKey = Buffer.from((await readFile(path.join(dataDir, 'master.key'), 'utf8')).trim(), 'base64');
    const login = await clearbase.app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: PASSWORD } });
    cookie = [login.headers['set-cookie']].flat().join(';').split(';')[0] ?? '';
  });
  afterAll(async () => {
    await clearbase?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const userOf = () => `intake-${kind}@example.test`;
  const append = async (raw: Buffer) => {
    const dovecot = dovecotNow();
    if (!dovecot) throw new Error('no dovecot');
    return appendMail(dovecot, raw, { user: userOf() });
  };
  const messagesIn = async (mailbox: string) => {
    const dovecot = dovecotNow();
    if (!dovecot) throw new Error('no dovecot');
    return listMessages(dovecot, mailbox, userOf());
  };
  const flags = async (id: string) => {
    for (const mailbox of ['INBOX', 'Processed']) {
      const found = (await messagesIn(mailbox).catch(() => [])).find((message) => message.messageId === id);
      if (found) return { mailbox, flags: found.flags };
    }
    return undefined;
  };

  it('stores the attachments of a mail encrypted, and marks it read only after they are stored, once', async (context) => {
    running(context);
    const id = messageId('docs');
    const birth = makePdf('birth certificate of Zoë', 2_000);
    const medical = makePdf('medical form of Zoë', 3_000);
    await append(
      await buildMail({
        from: PARENT,
        to: userOf(),
        subject: 'Registration documents',
        text: BODY,
        messageId: id,
        attachments: [
          { filename: 'birth-certificate.pdf', content: birth, contentType: 'application/pdf' },
          { filename: 'medical form.pdf', content: medical, contentType: 'application/pdf' },
          { filename: 'image001.png', content: Buffer.concat([PNG_HEADER, Buffer.alloc(300)]), contentType: 'image/png', cid: 'logo@sig', contentDisposition: 'inline' },
        ],
      }),
    );

    // The pipeline is stopped: the mail is recorded, its files wait in staging, and it stays unread.
    const first = await app().mailbox.check();
    expect(first).toEqual({ recorded: 1, acknowledged: 0, leftUnread: 1 });
    expect(await flags(id)).toEqual({ mailbox: 'INBOX', flags: [] });
    const [recorded] = await submissionOf(getDatabase().db, id);
    expect(recorded).toMatchObject({ source: 'mailbox', status: 'pending', fromEmail: 'maeve@example.org', subject: 'Registration documents', attachmentCount: 2 });

    // A second check while they wait records nothing new.
    expect(await app().mailbox.check()).toEqual({ recorded: 0, acknowledged: 0, leftUnread: 1 });

    // Once the pipeline has stored them, the next check marks the mail read and moves it.
    app().jobRunner.start();
    const deadline = Date.now() + 20_000;
    while ((await submissionOf(getDatabase().db, id))[0]?.status === 'pending' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await app().mailbox.check()).toEqual({ recorded: 0, acknowledged: 1, leftUnread: 0 });
    expect(await flags(id)).toEqual({ mailbox: 'Processed', flags: ['\\Seen'] });

    const rows = await submissionOf(getDatabase().db, id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'processed', errorMessage: null });
    const docs = await getDatabase().db.select().from(documents).where(eq(documents.submissionId, rows[0]?.id ?? ''));
    expect(docs.map((d) => [d.originalFilename, d.docType, d.status]).sort()).toEqual([
      ['birth-certificate.pdf', 'birth_certificate', 'pending'],
      ['medical form.pdf', 'medical', 'pending'],
    ]);
    // Encrypted at rest, under its stored path (STORED_PATH_FORMAT), and it decrypts back to the attachment.
    const stored = docs.find((d) => d.docType === 'birth_certificate');
    if (!stored?.storageKey || !stored.wrappedKey || !stored.iv || !stored.authTag) throw new Error('birth certificate not stored');
    expect(stored.storedPath).toMatch(/^seasons\/2025\/AA\/zoe_obrien_2014-05-03_CB-2025-[0-9a-f]{8}\//);
    const ciphertext = await readFile(path.join(dataDir, 'storage', ...stored.storageKey.split('/')));
    expect(ciphertext.includes(Buffer.from('%PDF'))).toBe(false);
    expect(await decryptToBuffer(masterKey, { wrappedKey: stored.wrappedKey, iv: stored.iv, authTag: stored.authTag }, ciphertext)).toEqual(birth);
    // Nothing left in staging: the logo was dropped, the documents moved.
    expect(await readdir(path.join(dataDir, 'storage', 'staging')).catch(() => [])).toEqual([]);
  });

  it('never records the same mail twice, even when it turns up unread again', async (context) => {
    const server = running(context);
    const id = messageId('again');
    const raw = await buildMail({ from: PARENT, to: userOf(), subject: 'Waiver', text: BODY, messageId: id, attachments: [{ filename: 'waiver.pdf', content: makePdf('waiver') }] });
    await append(raw);
    expect(await app().mailbox.check()).toMatchObject({ recorded: 1, acknowledged: 1 });
    // Someone marks it unread again in the mail client, and a copy arrives too.
    await withImap(server, async (client) => {
      await client.mailboxOpen('Processed');
      await client.messageFlagsRemove('1:*', ['\\Seen']);
    }, userOf());
    await append(raw);
    expect(await app().mailbox.check()).toEqual({ recorded: 0, acknowledged: 1, leftUnread: 0 });
    expect(await submissionOf(getDatabase().db, id)).toHaveLength(1);
  });

  const failing: Array<[string, { text: string; attachments?: Array<{ filename: string; content: Buffer }> }, string]> = [
    ['no attachments', { text: BODY }, 'No attachments found in the e-mail'],
    ['no player name', { text: 'Hi, here are the forms.', attachments: [{ filename: 'waiver.pdf', content: makePdf('w-noname') }] }, 'No player name'],
    ['a Word file only', { text: BODY, attachments: [{ filename: 'waiver.docx', content: Buffer.from('PK\u0003\u0004 not a pdf') }] }, 'Attachment is not a PDF or image'],
  ];
  for (const [name, content, reason] of failing) {
  it(`records a mail with ${name} as failed, with a reason staff can act on, and keeps it in the mailbox`, async (context) => {
    running(context);
    const id = messageId('fail');
    await append(await buildMail({ from: PARENT, to: userOf(), subject: 'Documents', messageId: id, ...content }));
    expect(await app().mailbox.check()).toMatchObject({ recorded: 1, acknowledged: 1 });
    const [row] = await submissionOf(getDatabase().db, id);
    expect(row?.status).toBe('failed');
    expect(row?.errorMessage).toContain(reason);
    // Still in the mailbox, for a retry.
    expect(await flags(id)).toMatchObject({ flags: ['\\Seen'] });
  });
  }

  it('takes the first 12 of 30 attachments and refuses the rest by name', async (context) => {
    running(context);
    const id = messageId('thirty');
    const attachments = Array.from({ length: 30 }, (_, i) => ({ filename: `page-${i + 1}.pdf`, content: makePdf(`page ${i + 1} of thirty`) }));
    await append(await buildMail({ from: PARENT, to: userOf(), subject: 'All pages', text: BODY, messageId: id, attachments }));
    await app().mailbox.check();
    const [row] = await submissionOf(getDatabase().db, id);
    const docs = await getDatabase().db.select().from(documents).where(eq(documents.submissionId, row?.id ?? ''));
    expect(docs.filter((d) => d.status !== 'rejected')).toHaveLength(12);
    const refused = docs.filter((d) => d.status === 'rejected');
    expect(refused).toHaveLength(18);
    expect(refused[0]?.reviewNotes).toContain('Only the first 12 attachments');
  });

  it('keeps a subject written in another script, decoded', async (context) => {
    running(context);
    const id = messageId('cyrillic');
    await append(await buildMail({ from: PARENT, to: userOf(), subject: 'Документы — регистрация', text: BODY, messageId: id, attachments: [{ filename: 'waiver.pdf', content: makePdf('cyr') }] }));
    await app().mailbox.check();
    expect((await submissionOf(getDatabase().db, id))[0]?.subject).toBe('Документы — регистрация');
  });

  it('retries a failed mail once staff have fixed the cause', async (context) => {
    running(context);
    const id = messageId('retry');
    // The mail names a season Clearbase does not know yet.
    await append(await buildMail({ from: PARENT, to: userOf(), subject: 'Docs', text: `${BODY}\nSeason: Fall Ball 2026`, messageId: id, attachments: [{ filename: 'waiver.pdf', content: makePdf('retry') }] }));
    await app().mailbox.check();
    const [failed] = await submissionOf(getDatabase().db, id);
    expect(failed?.status).toBe('failed');
    expect(failed?.errorMessage).toContain('fall-2026');

    await insertSeasons(getDatabase().db, [{ id: 'fall-2026', name: 'Fall Ball 2026', kind: 'Fall Ball', year: 2026, startsOn: '2026-08-15', endsOn: '2026-11-30' }]);
    const retried = await call('POST', `/api/gmail/submissions/${failed?.id ?? ''}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ ok: true, message: 'Retried: the e-mail was processed.' });
    const rows = await submissionOf(getDatabase().db, id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'processed', seasonId: 'fall-2026' });

    // Only failed mail can be retried.
    expect((await call('POST', `/api/gmail/submissions/${rows[0]?.id ?? ''}/retry`)).statusCode).toBe(409);
  });

  /** Waits until no submission of the mail with this Message-ID is still pending (the pipeline runs). */
  const settled = async (id: string) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const rows = await submissionOf(getDatabase().db, id);
      if (rows.length > 0 && rows.every((row) => row.status !== 'pending')) return rows;
      if (Date.now() > deadline) throw new Error(`${id} still pending: ${JSON.stringify(rows.map((row) => row.status))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const documentsOf = (submissionId: string) => getDatabase().db.select().from(documents).where(eq(documents.submissionId, submissionId));
  const decrypted = async (document: typeof documents.$inferSelect | undefined) => {
    if (!document) throw new Error('no document');
    if (!document.storageKey || !document.wrappedKey || !document.iv || !document.authTag) throw new Error(`${document.originalFilename} not stored`);
    const ciphertext = await readFile(path.join(dataDir, 'storage', ...document.storageKey.split('/')));
    return decryptToBuffer(masterKey, { wrappedKey: document.wrappedKey, iv: document.iv, authTag: document.authTag }, ciphertext);
  };

  it('reads uuencoded attachments, a x-uuencode part and a begin … end block in the text, and stores the files they hold', async (context) => {
    running(context);
    app().jobRunner.start();
    const inPart = messageId('uu-part');
    const inText = messageId('uu-text');
    const scan = makePdf('uuencoded scan of the birth certificate', 3_000);
    const waiver = makePdf('uuencoded waiver in the text', 2_000);
    // A scanner's mail: the part has no name of its own, only the begin line names the file.
    await append(
      buildUuencodedMail({ from: PARENT, to: userOf(), subject: 'Scanned documents', text: BODY, messageId: inPart, file: { name: null, beginName: 'birth certificate.pdf', content: scan } }),
    );
    // An old mail program's: the file is uuencoded into the text of the message.
    await append(await buildMail({ from: PARENT, to: userOf(), subject: 'Waiver', text: `${BODY}\n\n${uuencode(waiver, 'waiver.pdf')}\nThanks again`, messageId: inText }));
    expect(await app().mailbox.check()).toMatchObject({ recorded: 2 });

    for (const [id, filename, content, docType] of [
      [inPart, 'birth certificate.pdf', scan, 'birth_certificate'],
      [inText, 'waiver.pdf', waiver, 'waiver'],
    ] as const) {
      const [row] = await settled(id);
      expect(row).toMatchObject({ status: 'processed', attachmentCount: 1, errorMessage: null });
      expect(row?.fields).toMatchObject({ firstName: 'Zoë', lastName: 'O’Brien' });
      const docs = await documentsOf(row?.id ?? '');
      expect(docs.map((d) => [d.originalFilename, d.docType, d.status])).toEqual([[filename, docType, 'pending']]);
      expect(await decrypted(docs[0])).toEqual(content);
    }
  });

  it('skips the images of the message body and signature logos, uncounted, and keeps a photo attached inline', async (context) => {
    running(context);
    app().jobRunner.start();
    const id = messageId('inline');
    // A real photo (intake decodes every image before keeping it), under this test's 256 KB cap and far above a logo's size.
    const photo = await sharp({ create: { width: 480, height: 640, channels: 3, background: '#f4f1e8', noise: { type: 'gaussian', mean: 128, sigma: 20 } } })
      .jpeg({ quality: 60 })
      .toBuffer();
    await append(
      await buildMail({
        from: PARENT,
        to: userOf(),
        subject: 'Birth certificate',
        text: BODY,
        html: `<p>${BODY.replace(/\n/g, '<br>')}</p><img src="cid:banner@league.example"><p>-- <br><img src="cid:logo@sig.example" width="180"></p>`,
        messageId: id,
        attachments: [
          // Newsletter art and a signature logo the HTML shows.
          { filename: 'banner.png', content: pngImage(600, 300, 40_000), contentType: 'image/png', cid: 'banner@league.example', contentDisposition: 'inline' },
          { filename: 'acme.png', content: pngImage(180, 60, 3_000), contentType: 'image/png', cid: 'logo@sig.example', contentDisposition: 'inline' },
          // Apple Mail's way with a photo: inline, and no cid: link in the body.
          { filename: 'IMG_2041.jpeg', content: photo, contentType: 'image/jpeg', contentDisposition: 'inline' },
          // A signature logo attached as a file.
          { filename: 'brand.png', content: pngImage(150, 50, 5_000), contentType: 'image/png', contentDisposition: 'attachment' },
        ],
      }),
    );
    await app().mailbox.check();
    const [row] = await settled(id);
    expect(row).toMatchObject({ status: 'processed', attachmentCount: 1 });
    const docs = await documentsOf(row?.id ?? '');
    expect(docs.map((d) => [d.originalFilename, d.status])).toEqual([['IMG_2041.jpeg', 'pending']]);
    expect(await decrypted(docs[0])).toEqual(photo);
    expect(await readdir(path.join(dataDir, 'storage', 'staging')).catch(() => [])).toEqual([]);
  });

  it('records a copy delivered again with other headers once, and processes another mail that reuses the Message-ID', async (context) => {
    const server = running(context);
    app().jobRunner.start();
    const db = getDatabase().db;
    const id = messageId('reused');
    const medical = makePdf('medical form of Zoë');
    const original = { from: PARENT, to: userOf(), subject: 'Medical form', text: BODY, messageId: id, attachments: [{ filename: 'medical.pdf', content: medical }] };
    await append(await buildMail(original));
    expect(await app().mailbox.check()).toMatchObject({ recorded: 1, acknowledged: 1 });

    // The same mail through a forwarder: more headers, another date, another MIME boundary; the same mail.
    const copy = Buffer.concat([
      Buffer.from('Received: from forwarder.example.net by mx.example.test; Tue, 2 Sep 2025 08:00:00 +0000\r\nX-Forwarded-To: registrations@example.test\r\n'),
      await buildMail({ ...original, date: new Date(Date.now() + 60_000) }),
    ]);
    await append(copy);
    expect(await app().mailbox.check()).toEqual({ recorded: 0, acknowledged: 1, leftUnread: 0 });
    expect(await submissionOf(db, id)).toHaveLength(1);

    // Another mail under the same Message-ID (a scanner that sends every mail with one): processed in its own right.
    const residency = makePdf('proof of residency of Zoë');
    await append(await buildMail({ ...original, subject: 'Proof of residency', attachments: [{ filename: 'residency.pdf', content: residency }] }));
    expect(await app().mailbox.check()).toMatchObject({ recorded: 1, acknowledged: 1 });
    const rows = await settled(id);
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.externalId)).toEqual(expect.arrayContaining([expect.stringMatching(/#[0-9a-f]{16}$/), expect.stringMatching(/#[0-9a-f]{16}$/)]));
    expect(new Set(rows.map((row) => row.externalId)).size).toBe(2);
    const filesOf = async (subject: string) => (await documentsOf(rows.find((row) => row.subject === subject)?.id ?? '')).map((d) => [d.originalFilename, d.status]);
    expect(await filesOf('Medical form')).toEqual([['medical.pdf', 'pending']]);
    expect(await filesOf('Proof of residency')).toEqual([['residency.pdf', 'pending']]);

    // All three turn up unread again: nothing new is recorded.
    await withImap(server, async (client) => {
      await client.mailboxOpen('Processed');
      await client.messageFlagsRemove('1:*', ['\\Seen']);
    }, userOf());
    expect(await app().mailbox.check()).toMatchObject({ recorded: 0 });
    expect(await submissionOf(db, id)).toHaveLength(2);
  });

  it('retries the right one of two mails sharing a Message-ID', async (context) => {
    running(context);
    app().jobRunner.start();
    const id = messageId('shared-retry');
    // The first names a season Clearbase does not know yet; the second is fine.
    const first = { from: PARENT, to: userOf(), subject: 'Docs', messageId: id };
    await append(await buildMail({ ...first, text: `${BODY}\nSeason: Fall Ball 2027`, attachments: [{ filename: 'waiver-2027.pdf', content: makePdf('waiver for 2027') }] }));
    await append(await buildMail({ ...first, text: BODY, attachments: [{ filename: 'waiver-2025.pdf', content: makePdf('waiver for 2025') }] }));
    await app().mailbox.check();
    const before = await settled(id);
    const failed = before.find((row) => row.status === 'failed');
    expect(before.map((row) => row.status).sort()).toEqual(['failed', 'processed']);

    await insertSeasons(getDatabase().db, [{ id: 'fall-2027', name: 'Fall Ball 2027', kind: 'Fall Ball', year: 2027, startsOn: '2027-08-15', endsOn: '2027-11-30' }]);
    const retried = await call('POST', `/api/gmail/submissions/${failed?.id ?? ''}/retry`);
    expect(retried.json()).toEqual({ ok: true, message: 'Retried: the e-mail was processed.' });
    const after = await settled(id);
    expect(after.map((row) => [row.status, row.seasonId]).sort()).toEqual([
      ['processed', 'fall-2025'],
      ['processed', 'fall-2027'],
    ]);
    const retriedRow = after.find((row) => row.seasonId === 'fall-2027');
    expect(retriedRow?.externalId).toBe(failed?.externalId);
    expect((await documentsOf(retriedRow?.id ?? '')).map((d) => d.originalFilename)).toEqual(['waiver-2027.pdf']);
  });

  it('answers the status, stats and recent calls, and keeps the scheduler state', async (context) => {
    running(context);
    const status = ZMailboxStatus.parse((await call('GET', '/api/gmail/status')).json());
    expect(status).toMatchObject({ configured: true, connection: true, error: null, scheduler: { isRunning: false, intervalMs: 300_000 } });

    expect((await call('POST', '/api/gmail/start')).json()).toEqual({ ok: true, message: 'Mailbox checks started' });
    expect(ZMailboxStatus.parse((await call('GET', '/api/gmail/status')).json()).scheduler.isRunning).toBe(true);
    expect((await call('POST', '/api/gmail/stop')).json()).toEqual({ ok: true, message: 'Mailbox checks stopped' });
    expect(ZMailboxStatus.parse((await call('GET', '/api/gmail/status')).json()).scheduler.isRunning).toBe(false);

    const stats = ZMailboxStats.parse((await call('GET', '/api/gmail/stats?range=30d')).json());
    const all = await getDatabase().db.select().from(submissions).where(eq(submissions.source, 'mailbox'));
    expect(stats).toEqual({
      received: all.length,
      processed: all.filter((s) => s.status === 'processed').length,
      failed: all.filter((s) => s.status === 'failed').length,
      totalAttachments: all.reduce((n, s) => n + s.attachmentCount, 0),
    });
    expect(stats.failed).toBeGreaterThan(0);

    const recent = ZMailboxRecent.parse((await call('GET', '/api/gmail/recent?status=failed&limit=20')).json());
    expect(recent.submissions.length).toBe(stats.failed);
    expect(recent.submissions.every((s) => s.status === 'failed' && s.errorMessage)).toBe(true);
    const processed = ZMailboxRecent.parse((await call('GET', '/api/gmail/recent?status=processed')).json()).submissions;
    expect(processed[0]).toMatchObject({ playerName: 'Zoë O’Brien', playerDivision: 'AA', fromEmail: 'maeve@example.org' });

    const bad = await call('GET', '/api/gmail/stats?range=year');
    expect(bad.statusCode).toBe(400);
  });

  it('takes a mail recorded under its bare Message-ID, before content hashes were kept, to be that mail', async (context) => {
    running(context);
    const db = getDatabase().db;
    const id = messageId('bare');
    await insertSubmissions(db, [{ source: 'mailbox', externalId: id, receivedAt: new Date('2024-01-01T00:00:00Z'), status: 'processed', subject: 'Recorded before', fields: {} }]);
    await append(await buildMail({ from: PARENT, to: userOf(), subject: 'Recorded before', text: BODY, messageId: id, attachments: [{ filename: 'waiver.pdf', content: makePdf('bare') }] }));
    expect(await app().mailbox.check()).toEqual({ recorded: 0, acknowledged: 1, leftUnread: 0 });
    expect(await submissionOf(db, id)).toEqual([]);
    expect(await db.select().from(submissions).where(eq(submissions.externalId, id))).toHaveLength(1);
  });

  it('lets only one instance check at a time: the lease holder checks, the other skips, nothing is recorded twice', async (context) => {
    const server = running(context);
    const db = getDatabase().db;
    // Another instance holds the lease: this one does not touch the mailbox.
    expect(await takeCheckLease(db, 'instance-elsewhere', new Date(), new Date(Date.now() + 60_000))).toBe(true);
    expect(await app().mailbox.check()).toEqual({ skipped: expect.stringContaining('another Clearbase instance is checking the mailbox') as unknown });
    await releaseCheckLease(db, 'instance-elsewhere');

    // Two instances on one database and one mailbox, checking at the same moment.
    const ids = [messageId('pair'), messageId('pair'), messageId('pair')];
    for (const [n, id] of ids.entries()) {
      await append(await buildMail({ from: PARENT, to: userOf(), subject: `Pair ${n}`, text: BODY, messageId: id, attachments: [{ filename: 'waiver.pdf', content: makePdf(`pair ${id}`) }] }));
    }
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'false',
      MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      IMAP_HOST: server.host,
      IMAP_PORT: String(server.port),
      IMAP_TLS: 'false',
      IMAP_USER: userOf(),
      IMAP_PASSWORD: server.users.find((u) => u.user === userOf())?.password ?? '',
      IMAP_PROCESSED_MAILBOX: 'Processed',
    });
    const other = await createClearbase(config, createLogger('silent'), { readDocuments: false, database: getDatabase(), webDir: path.join(dataDir, 'none'), startWorkers: false, mailboxSettleWaitMs: 3_000 });
    try {
      const reports = await Promise.all([app().mailbox.check(), other.mailbox.check()]);
      const recorded = reports.reduce((n, report) => n + ('recorded' in report ? report.recorded : 0), 0);
      expect(recorded).toBe(3);
      for (const id of ids) expect(await submissionOf(db, id)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('says Disconnected with the reason when the password is wrong, and nothing crashes', async (context) => {
    const server = running(context);
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'false',
      IMAP_HOST: server.host,
      IMAP_PORT: String(server.port),
      IMAP_TLS: 'false',
      IMAP_USER: userOf(),
      IMAP_PASSWORD: 'wrong password',
    });
    const other = await createClearbase(config, createLogger('silent'), { readDocuments: false, database: getDatabase(), webDir: path.join(dataDir, 'none'), startWorkers: false });
    try {
      await expect(other.mailbox.check()).rejects.toThrow(/refused the sign-in/);
      const status = await other.mailbox.status();
      expect(status).toMatchObject({ configured: true, connection: false });
      expect(status.error).toMatch(/refused the sign-in.*check the user name and the password/);
      expect((await other.mailbox.health()).status).toBe('error');
    } finally {
      await other.close();
    }
    // The shared state recovers with the next good check.
    await app().mailbox.check();
    expect((await app().mailbox.status()).connection).toBe(true);
  });
});
