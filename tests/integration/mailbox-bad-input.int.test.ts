import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, type TestContext } from 'vitest';
import { startClamd, type StartedClamd } from '../../scripts/services/start-clamd';
import { startDovecot, type StartedDovecot } from '../../scripts/services/start-dovecot';
import { EICAR_TEST_STRING } from '../../src/server/adapters/antivirus/fake-antivirus';
import { loadConfig } from '../../src/server/platform/config';
import { decryptToBuffer } from '../../src/server/platform/crypto/envelope';
import type { Db } from '../../src/server/platform/db/client';
import { auditEvents, documents, players, submissions } from '../../src/server/platform/db/schema';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { startCuttingProxy, type CuttingProxy } from '../support/cutting-proxy';
import { describeEachDatabase } from '../support/databases';
import { appendMail, listMessages } from '../support/imap';
import { buildMail } from '../support/mail';
import { makePdf } from '../support/multipart';
import { FALL_2025, SPRING_2025 } from '../support/pipeline';
import { IN_CI } from '../support/test-env';

/**
 * The mailbox intake against what real mail and real networks do wrong: an attachment over the size
 * cap, MIME that does not parse cleanly, a virus (real clamd), a connection that drops in the middle of
 * a download (a TCP proxy that cuts it), and subjects and names in other scripts. Dovecot and clamd
 * are started once for the file; each database run reads the mailbox of its own Dovecot user.
 */

const PASSWORD = 'mailbox bad input password';
const MiB = 1024 * 1024;
/** Small, so a file "too large" is only a little over 1 MiB and the test stays fast. */
const MAX_FILE_BYTES = MiB;
const PARENT = 'Maeve O’Brien <maeve@example.org>';
const BODY = ['Hello,', '', 'Player: Zoë O’Brien', 'DOB: 05/03/2014', 'Division: AA', 'Parent: Maeve O’Brien', '', 'Thanks!'].join('\n');

let dovecot: StartedDovecot | undefined;
let dovecotError = '';
let clamd: StartedClamd | undefined;
let clamdError = '';

beforeAll(async () => {
  const [mail, scanner] = await Promise.allSettled([startDovecot(), startClamd()]);
  if (mail.status === 'fulfilled') dovecot = mail.value;
  else dovecotError = mail.reason instanceof Error ? mail.reason.message : String(mail.reason);
  if (scanner.status === 'fulfilled') clamd = scanner.value;
  else clamdError = scanner.reason instanceof Error ? scanner.reason.message : String(scanner.reason);
  // In CI both services are installed: one missing fails the file, as in the other mailbox and scanning tests.
  if (IN_CI && (dovecotError || clamdError)) {
    await Promise.all([dovecot?.stop(), clamd?.stop()]);
    throw new Error(`Dovecot and clamd are required in CI: ${[dovecotError, clamdError].filter(Boolean).join('; ')}`);
  }
  if (dovecotError) process.stderr.write(`\n!!! Dovecot did not start (${dovecotError}): mailbox bad-input tests are SKIPPED.\n\n`);
  if (clamdError) process.stderr.write(`\n!!! clamd did not start (${clamdError}): the mailbox virus test is SKIPPED.\n\n`);
});
afterAll(async () => {
  await Promise.all([dovecot?.stop(), clamd?.stop()]);
});

function needDovecot(context: TestContext): StartedDovecot {
  if (!dovecot) context.skip(`Dovecot did not start: ${dovecotError}`);
  return dovecot;
}

/** A full collection before a memory baseline (gc is exposed at run time: vitest does not pass --expose-gc). */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

let sequence = 0;
/** A distinct Message-ID per mail and per database run. */
const messageId = (tag: string) => `<${tag}-${process.pid}-${++sequence}@example.org>`;

/** The submissions of the mail with this Message-ID (recorded as `<message-id>#<content hash>`). */
const submissionsOf = (db: Db, messageId: string) =>
  db.select().from(submissions).where(sql`starts_with(${submissions.externalId}, ${`${messageId}#`})`);
const documentsOf = (db: Db, submissionId: string) => db.select().from(documents).where(eq(documents.submissionId, submissionId));
type DocumentRow = typeof documents.$inferSelect;
/** The document of a submission with this file name; a test fails at once when there is none. */
function named(docs: DocumentRow[], filename: string): DocumentRow {
  const found = docs.find((document) => document.originalFilename === filename);
  if (!found) throw new Error(`no document named ${filename} among ${docs.map((document) => document.originalFilename).join(', ')}`);
  return found;
}

/** Every file under `root`, as storage keys (forward slashes), temporary files included. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** A raw message from header lines and body lines (text as UTF-8, bytes as they are), with CRLF line ends. */
function rawMail(headers: string[], body: Array<string | Buffer>): Buffer {
  return Buffer.concat([...headers, '', ...body].map((line) => Buffer.concat([typeof line === 'string' ? Buffer.from(line, 'utf8') : line, Buffer.from('\r\n')])));
}

/** Base64 in lines of 76 characters, as mail clients write it. */
function base64Lines(content: Buffer): string {
  return content.toString('base64').replace(/.{76}(?=.)/g, '$&\r\n');
}

/**
 * A header value as RFC 2047 encoded words (`=?charset?B?…?=`), split on character boundaries so no word
 * is longer than 75 characters, and folded: the words are joined again without the folding space.
 */
function encodeWords(text: string, charset: string, encode: (text: string) => Buffer): string {
  const words: string[] = [];
  let chunk = '';
  const word = (part: string) => `=?${charset}?B?${encode(part).toString('base64')}?=`;
  for (const character of text) {
    if (chunk && word(chunk + character).length > 75) {
      words.push(word(chunk));
      chunk = '';
    }
    chunk += character;
  }
  if (chunk) words.push(word(chunk));
  return words.join('\r\n ');
}

/** Base64 lines of a stream of bytes, encoded as they come (57 bytes make one 76-character line). */
function* base64Stream(chunks: Iterable<Buffer>): Generator<Buffer> {
  let carry = Buffer.alloc(0);
  for (const chunk of chunks) {
    const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const whole = data.length - (data.length % 57);
    if (whole > 0) yield Buffer.from(`${base64Lines(data.subarray(0, whole))}\r\n`);
    carry = Buffer.from(data.subarray(whole));
  }
  if (carry.length) yield Buffer.from(`${base64Lines(carry)}\r\n`);
}

/** Delivers a message given as pieces (text, or generators of bytes) with `doveadm save`, streamed. */
async function saveMailStreamed(server: StartedDovecot, user: string, pieces: Array<string | Iterable<Buffer>>): Promise<void> {
  const child = spawn('doveadm', ['-c', path.join(server.dir, 'dovecot.conf'), 'save', '-u', user, '-m', 'INBOX'], { stdio: ['pipe', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  function* bytes(): Generator<Buffer> {
    for (const piece of pieces) {
      if (typeof piece === 'string') yield Buffer.from(piece, 'utf8');
      else yield* piece;
    }
  }
  await pipeline(Readable.from(bytes()), child.stdin);
  const code = await exited;
  if (code !== 0) throw new Error(`doveadm save exited with ${code}: ${errors.trim()}`);
}

let jisTable: Map<string, Buffer> | undefined;
/**
 * Text in ISO-2022-JP (ASCII, and JIS X 0208 after ESC $ B), which Node can decode but not encode: the
 * table is read off Node's own decoder, so what this writes decodes back to the same text.
 */
function iso2022jp(text: string): Buffer {
  if (!jisTable) {
    jisTable = new Map();
    const decoder = new TextDecoder('iso-2022-jp');
    for (let high = 0x21; high <= 0x7e; high++) {
      for (let low = 0x21; low <= 0x7e; low++) {
        const character = decoder.decode(Buffer.from([0x1b, 0x24, 0x42, high, low, 0x1b, 0x28, 0x42]));
        if (character.length === 1 && character !== '\ufffd' && !jisTable.has(character)) jisTable.set(character, Buffer.from([high, low]));
      }
    }
  }
  const bytes: Buffer[] = [];
  let kanji = false;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x80) {
      if (kanji) bytes.push(Buffer.from([0x1b, 0x28, 0x42]));
      kanji = false;
      bytes.push(Buffer.from([code]));
      continue;
    }
    const jis = jisTable.get(character);
    if (!jis) throw new Error(`${character} has no ISO-2022-JP code`);
    if (!kanji) bytes.push(Buffer.from([0x1b, 0x24, 0x42]));
    kanji = true;
    bytes.push(jis);
  }
  if (kanji) bytes.push(Buffer.from([0x1b, 0x28, 0x42]));
  const encoded = Buffer.concat(bytes);
  if (new TextDecoder('iso-2022-jp').decode(encoded) !== text) throw new Error(`ISO-2022-JP round trip failed for ${text}`);
  return encoded;
}

describeEachDatabase('mailbox intake: bad input (Dovecot, clamd)', ({ getDatabase, kind }) => {
  let clearbase: Clearbase | undefined;
  let proxy: CuttingProxy | undefined;
  let dataDir = '';
  let masterKey = Buffer.alloc(0);
  const user = `bad-input-${kind}@example.test`;
  const app = () => {
    if (!clearbase) throw new Error('not started');
    return clearbase;
  };
  const db = () => getDatabase().db;
  const storageRoot = () => path.join(dataDir, 'storage');

  beforeAll(async () => {
    if (!dovecot) return;
    const login = await dovecot.addUser(user);
    // Clearbase reaches Dovecot through a proxy that forwards every byte unchanged until a test asks it
    // to cut a connection.
    proxy = await startCuttingProxy(dovecot);
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-mail-bad-'));
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'false',
      MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      IMAP_HOST: proxy.host,
      IMAP_PORT: String(proxy.port),
      IMAP_TLS: 'false',
      IMAP_USER: login.user,
      IMAP_PASSWORD: login.password,
      IMAP_PROCESSED_MAILBOX: 'Processed',
      ...(clamd ? { CLAMD_URL: clamd.url } : {}),
    });
    await insertSeasons(db(), [SPRING_2025, FALL_2025]);
    // No scheduler: each test runs its checks. The pipeline runs, so a check that records a mail waits
    // for its documents to be stored (or rejected) and then marks it read, in the same check.
    clearbase = await createClearbase(config, createLogger('silent'), {
      readDocuments: false,
      database: getDatabase(),
      webDir: path.join(dataDir, 'none'),
      startWorkers: false,
      mailboxSettleWaitMs: 15_000,
    });
    clearbase.jobRunner.start();
    masterKey = Buffer.from((await readFile(path.join(dataDir, 'master.key'), 'utf8')).trim(), 'base64');
  });
  afterAll(async () => {
    await clearbase?.close();
    await proxy?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const append = (raw: Buffer, as = user) => {
    if (!dovecot) throw new Error('no dovecot');
    return appendMail(dovecot, raw, { user: as });
  };
  /** Where the mail is now and its flags (`\\Recent` left out). */
  const whereIs = async (id: string, as = user) => {
    if (!dovecot) throw new Error('no dovecot');
    for (const mailbox of ['INBOX', 'Processed']) {
      const found = (await listMessages(dovecot, mailbox, as).catch(() => [])).find((message) => message.messageId === id);
      if (found) return { mailbox, flags: found.flags };
    }
    return undefined;
  };
  /** A stored document's plaintext, read back from its encrypted object. */
  const decrypted = async (document: DocumentRow) => {
    if (!document.storageKey || !document.wrappedKey || !document.iv || !document.authTag) throw new Error(`${document.originalFilename} is not stored`);
    const ciphertext = await readFile(path.join(storageRoot(), ...document.storageKey.split('/')));
    return decryptToBuffer(masterKey, { wrappedKey: document.wrappedKey, iv: document.iv, authTag: document.authTag }, ciphertext);
  };
  /** Storage holds exactly the stored documents' objects: nothing staged, no temporary file, no refused file. */
  const expectStorageMatchesDatabase = async () => {
    const stored = await db().select({ key: documents.storageKey }).from(documents);
    const keys = stored.flatMap((row) => (row.key ? [row.key] : [])).sort();
    expect(await filesUnder(storageRoot())).toEqual(keys);
  };

  it('refuses an attachment over MAX_FILE_BYTES with its size, stores the others, and processes the mail', async (context) => {
    needDovecot(context);
    const id = messageId('too-large');
    const birth = makePdf('birth certificate, too-large mail', 3_000);
    const big = makePdf('medical form over the cap', MAX_FILE_BYTES + 100 * 1024);
    const waiver = makePdf('waiver, too-large mail', 2_000);
    await append(
      await buildMail({
        from: PARENT,
        to: user,
        subject: 'Documents',
        text: BODY,
        messageId: id,
        attachments: [
          { filename: 'birth certificate.pdf', content: birth },
          { filename: 'medical.pdf', content: big },
          { filename: 'waiver.pdf', content: waiver },
        ],
      }),
    );

    expect(await app().mailbox.check()).toEqual({ recorded: 1, acknowledged: 1, leftUnread: 0 });
    expect(await whereIs(id)).toEqual({ mailbox: 'Processed', flags: ['\\Seen'] });
    const [submission, ...more] = await submissionsOf(db(), id);
    expect(more).toEqual([]);
    expect(submission).toMatchObject({ status: 'processed', errorMessage: null, attachmentCount: 3 });
    const docs = await documentsOf(db(), submission?.id ?? '');
    expect(docs.map((d) => [d.originalFilename, d.status, d.bytes, d.reviewNotes]).sort()).toEqual([
      ['birth certificate.pdf', 'pending', birth.length, null],
      // 1 MiB + 100 KiB + the PDF's frame: 1.1 MB, rounded up; the limit rounded down.
      ['medical.pdf', 'rejected', big.length, 'The file is 1.1 MB; the limit is 1 MB'],
      ['waiver.pdf', 'pending', waiver.length, null],
    ]);
    const refused = docs.find((d) => d.status === 'rejected');
    expect(refused).toMatchObject({ storageKey: null, storedPath: null, stagedKey: null, fileSha256: null, wrappedKey: null });
    expect(await decrypted(named(docs, 'birth certificate.pdf'))).toEqual(birth);
    expect(await decrypted(named(docs, 'waiver.pdf'))).toEqual(waiver);
    await expectStorageMatchesDatabase();
  });

  it('rejects an attachment carrying a virus with its signature, stores nothing of it, fails the mail and marks it read', async (context) => {
    needDovecot(context);
    if (!clamd) context.skip(`clamd did not start: ${clamdError}`);
    const id = messageId('virus');
    // The EICAR test string inside a real-looking PDF, between its objects and its trailer.
    const clean = makePdf('medical form with a virus', 10_000);
    const infected = Buffer.concat([clean.subarray(0, 200), Buffer.from(EICAR_TEST_STRING, 'latin1'), clean.subarray(200)]);
    await append(await buildMail({ from: PARENT, to: user, subject: 'Medical form', text: BODY, messageId: id, attachments: [{ filename: 'medical.pdf', content: infected }] }));

    // Rejected for good is settled: the mail is marked read in the same check, never tried again.
    expect(await app().mailbox.check()).toEqual({ recorded: 1, acknowledged: 1, leftUnread: 0 });
    expect(await whereIs(id)).toEqual({ mailbox: 'Processed', flags: ['\\Seen'] });
    const [submission, ...more] = await submissionsOf(db(), id);
    expect(more).toEqual([]);
    expect(submission).toMatchObject({ status: 'failed', errorMessage: 'Virus found: Eicar-Test-Signature-NDB.UNOFFICIAL', attachmentCount: 1 });
    const docs = await documentsOf(db(), submission?.id ?? '');
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({
      originalFilename: 'medical.pdf',
      status: 'rejected',
      reviewNotes: 'Virus found: Eicar-Test-Signature-NDB.UNOFFICIAL',
      storageKey: null,
      storedPath: null,
      stagedKey: null,
    });
    const audit = await db().select().from(auditEvents).where(eq(auditEvents.subjectId, docs[0]?.id ?? ''));
    expect(audit.map((event) => event.action)).toEqual(['document.rejected_virus']);
    await expectStorageMatchesDatabase();
    // A later check leaves it alone.
    expect(await app().mailbox.check()).toEqual({ recorded: 0, acknowledged: 0, leftUnread: 0 });
  });

  it('stores a subject in Greek and one in Japanese (RFC 2047 encoded words) decoded, and keeps names in those scripts', async (context) => {
    needDovecot(context);
    const greekId = messageId('greek');
    const greekSubject = 'Έγγραφα εγγραφής για τον Γιώργο Παπαδόπουλο';
    const greekFile = makePdf('Greek birth certificate', 2_000);
    await append(
      rawMail(
        [
          `From: =?UTF-8?B?${Buffer.from('Ελένη Παπαδοπούλου').toString('base64')}?= <eleni@example.gr>`,
          `To: ${user}`,
          `Subject: ${encodeWords(greekSubject, 'UTF-8', (text) => Buffer.from(text, 'utf8'))}`,
          `Message-ID: ${greekId}`,
          'MIME-Version: 1.0',
          'Content-Type: multipart/mixed; boundary="greek-boundary"',
        ],
        [
          '--greek-boundary',
          'Content-Type: text/plain; charset=UTF-8',
          'Content-Transfer-Encoding: base64',
          '',
          base64Lines(Buffer.from('Καλησπέρα,\r\n\r\nPlayer: Γιώργος Παπαδόπουλος\r\nDOB: 2014-05-03\r\nDivision: A\r\nParent: Ελένη Παπαδοπούλου\r\n')),
          '--greek-boundary',
          // RFC 2231 names the file in Greek too.
          `Content-Type: application/pdf; name*=UTF-8''${encodeURIComponent('Πιστοποιητικό γέννησης.pdf')}`,
          `Content-Disposition: attachment; filename*=UTF-8''${encodeURIComponent('Πιστοποιητικό γέννησης.pdf')}`,
          'Content-Transfer-Encoding: base64',
          '',
          base64Lines(greekFile),
          '--greek-boundary--',
        ],
      ),
    );

    // Japanese mail clients still send ISO-2022-JP: encoded words in the subject, the body in that charset.
    const japaneseId = messageId('japanese');
    const japaneseSubject = '登録書類の提出（山田花子）';
    await append(
      rawMail(
        [
          `From: ${PARENT}`,
          `To: ${user}`,
          `Subject: ${encodeWords(japaneseSubject, 'ISO-2022-JP', iso2022jp)}`,
          `Message-ID: ${japaneseId}`,
          'MIME-Version: 1.0',
          'Content-Type: multipart/mixed; boundary="jp-boundary"',
        ],
        [
          '--jp-boundary',
          'Content-Type: text/plain; charset=ISO-2022-JP',
          'Content-Transfer-Encoding: 7bit',
          '',
          iso2022jp('よろしくお願いします。\r\nPlayer: 山田 花子\r\nDOB: 2015-01-20\r\nDivision: Peewee\r\n'),
          '--jp-boundary',
          'Content-Type: application/pdf; name="waiver.pdf"',
          'Content-Disposition: attachment; filename="waiver.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          base64Lines(makePdf('Japanese waiver', 2_000)),
          '--jp-boundary--',
        ],
      ),
    );

    expect(await app().mailbox.check()).toEqual({ recorded: 2, acknowledged: 2, leftUnread: 0 });
    const [greek] = await submissionsOf(db(), greekId);
    expect(greek).toMatchObject({ status: 'processed', subject: greekSubject, fromEmail: 'eleni@example.gr' });
    expect(greek?.fields).toMatchObject({ firstName: 'Γιώργος', lastName: 'Παπαδόπουλος', guardianName: 'Ελένη Παπαδοπούλου', birthDate: '2014-05-03', division: 'A' });
    const [greekPlayer] = await db().select().from(players).where(eq(players.id, greek?.playerId ?? ''));
    expect(greekPlayer).toMatchObject({ firstName: 'Γιώργος', lastName: 'Παπαδόπουλος', guardianName: 'Ελένη Παπαδοπούλου' });
    const greekDocs = await documentsOf(db(), greek?.id ?? '');
    expect(greekDocs.map((d) => [d.originalFilename, d.status, d.docType])).toEqual([['Πιστοποιητικό γέννησης.pdf', 'pending', null]]);
    expect(await decrypted(named(greekDocs, 'Πιστοποιητικό γέννησης.pdf'))).toEqual(greekFile);

    const [japanese] = await submissionsOf(db(), japaneseId);
    expect(japanese).toMatchObject({ status: 'processed', subject: japaneseSubject });
    // The words as written: the first is taken as the first name (Clearbase does not reorder names).
    expect(japanese?.fields).toMatchObject({ firstName: '山田', lastName: '花子', birthDate: '2015-01-20', division: 'Peewee' });
    const [japanesePlayer] = await db().select().from(players).where(eq(players.id, japanese?.playerId ?? ''));
    expect(japanesePlayer).toMatchObject({ firstName: '山田', lastName: '花子' });
  });

  it('stores a mail whose subject, file name and text hold NUL bytes and half characters, cleaned, instead of failing on them', async (context) => {
    needDovecot(context);
    const id = messageId('unstorable');
    const file = makePdf('birth certificate with a NUL in its name', 2_000);
    // A lone high surrogate (0xD800) in UTF-16LE: mailparser decodes it to half a character.
    const halfCharacter = Buffer.from([0x00, 0xd8]);
    await append(
      rawMail(
        [
          `From: ${PARENT}`,
          `To: ${user}`,
          `Subject: =?UTF-8?B?${Buffer.from('Registration\u0000 documents').toString('base64')}?= =?UTF-16LE?B?${Buffer.concat([Buffer.from(' for', 'utf16le'), halfCharacter]).toString('base64')}?=`,
          `Message-ID: ${id}`,
          'MIME-Version: 1.0',
          'Content-Type: multipart/mixed; boundary="nul-boundary"',
        ],
        [
          '--nul-boundary',
          'Content-Type: text/plain; charset=UTF-8',
          'Content-Transfer-Encoding: base64',
          '',
          base64Lines(Buffer.from('Hello,\r\n\r\nPlayer: Zoë O\u0000’Brien\r\nDOB: 05/03/2014\r\nDivision: AA\r\nParent: Maeve O’Brien\r\n')),
          '--nul-boundary',
          "Content-Type: application/pdf; name*=UTF-8''birth%00%20certificate.pdf",
          "Content-Disposition: attachment; filename*=UTF-8''birth%00%20certificate.pdf",
          'Content-Transfer-Encoding: base64',
          '',
          base64Lines(file),
          '--nul-boundary--',
        ],
      ),
    );

    expect(await app().mailbox.check()).toEqual({ recorded: 1, acknowledged: 1, leftUnread: 0 });
    expect(await whereIs(id)).toEqual({ mailbox: 'Processed', flags: ['\\Seen'] });
    const [submission, ...more] = await submissionsOf(db(), id);
    expect(more).toEqual([]);
    expect(submission).toMatchObject({ status: 'processed', subject: 'Registration documents for\uFFFD', fromEmail: 'maeve@example.org', errorMessage: null });
    expect(submission?.fields).toMatchObject({ firstName: 'Zoë', lastName: 'O’Brien', birthDate: '2014-05-03', division: 'AA' });
    const docs = await documentsOf(db(), submission?.id ?? '');
    expect(docs.map((d) => [d.originalFilename, d.status])).toEqual([['birth certificate.pdf', 'pending']]);
    expect(await decrypted(named(docs, 'birth certificate.pdf'))).toEqual(file);
  });

  it('processes a multipart mail that ends without its closing boundary with what arrived', async (context) => {
    needDovecot(context);
    const id = messageId('no-closing-boundary');
    const birth = makePdf('birth certificate, unclosed mail', 3_000);
    const medical = makePdf('medical form, unclosed mail', 6_000);
    // The mail stops after 40 whole base64 lines of the second attachment (40 × 57 bytes): no closing
    // boundary, not even the rest of the file.
    const cutLines = base64Lines(medical).split('\r\n').slice(0, 40).join('\r\n');
    await append(
      rawMail(
        [`From: ${PARENT}`, `To: ${user}`, 'Subject: Unclosed', `Message-ID: ${id}`, 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="open-boundary"'],
        [
          '--open-boundary',
          'Content-Type: text/plain; charset=UTF-8',
          '',
          BODY.replaceAll('\n', '\r\n'),
          '--open-boundary',
          'Content-Type: application/pdf; name="birth.pdf"',
          'Content-Disposition: attachment; filename="birth.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          base64Lines(birth),
          '--open-boundary',
          'Content-Type: application/pdf; name="medical.pdf"',
          'Content-Disposition: attachment; filename="medical.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          cutLines,
        ],
      ),
    );

    expect(await app().mailbox.check()).toEqual({ recorded: 1, acknowledged: 1, leftUnread: 0 });
    const [submission] = await submissionsOf(db(), id);
    expect(submission).toMatchObject({ status: 'processed', errorMessage: null, attachmentCount: 2 });
    const docs = await documentsOf(db(), submission?.id ?? '');
    expect(docs.map((d) => [d.originalFilename, d.status, d.bytes, d.reviewNotes]).sort()).toEqual([
      ['birth.pdf', 'pending', birth.length, null],
      // A file is opened before it is kept: the cut-off PDF cannot be, and nothing of it is stored.
      ['medical.pdf', 'rejected', 40 * 57, 'This PDF is damaged and cannot be opened; please export it again.'],
    ]);
    expect(await decrypted(named(docs, 'birth.pdf'))).toEqual(birth);
    await expectStorageMatchesDatabase();
  });

  it('decodes base64 with stray characters, refuses an attachment whose base64 is garbage, and processes the mail', async (context) => {
    needDovecot(context);
    const id = messageId('broken-base64');
    const waiver = makePdf('waiver, broken base64 mail', 4_000);
    // Characters outside the base64 alphabet, inside and between lines, as broken gateways leave them.
    const stray = base64Lines(waiver)
      .split('\r\n')
      .map((line, index) => (index % 5 === 2 ? `${line.slice(0, 30)}!?*${line.slice(30)}` : line))
      .join('\r\n#~~~#\r\n');
    await append(
      rawMail(
        [`From: ${PARENT}`, `To: ${user}`, 'Subject: Broken', `Message-ID: ${id}`, 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="b64-boundary"'],
        [
          '--b64-boundary',
          'Content-Type: text/plain; charset=UTF-8',
          '',
          BODY.replaceAll('\n', '\r\n'),
          '--b64-boundary',
          'Content-Type: application/pdf; name="waiver.pdf"',
          'Content-Disposition: attachment; filename="waiver.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          stray,
          '--b64-boundary',
          'Content-Type: application/pdf; name="residency.pdf"',
          'Content-Disposition: attachment; filename="residency.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          'This is not base64 at all: the scan of the utility bill went missing.',
          '--b64-boundary--',
        ],
      ),
    );

    expect(await app().mailbox.check()).toEqual({ recorded: 1, acknowledged: 1, leftUnread: 0 });
    const [submission] = await submissionsOf(db(), id);
    expect(submission).toMatchObject({ status: 'processed', errorMessage: null, attachmentCount: 2 });
    const docs = await documentsOf(db(), submission?.id ?? '');
    expect(docs.map((d) => [d.originalFilename, d.status, d.reviewNotes]).sort()).toEqual([
      ['residency.pdf', 'rejected', 'Attachment is not a PDF or image'],
      ['waiver.pdf', 'pending', null],
    ]);
    expect(await decrypted(named(docs, 'waiver.pdf'))).toEqual(waiver);
    await expectStorageMatchesDatabase();
  });

  it('records a header-only mail (no body at all) as failed with the reason, and marks it read', async (context) => {
    needDovecot(context);
    const id = messageId('header-only');
    await append(Buffer.from([`From: ${PARENT}`, `To: ${user}`, 'Subject: Registration', `Message-ID: ${id}`, 'Date: Mon, 3 Mar 2025 10:00:00 +0000'].join('\r\n')));

    expect(await app().mailbox.check()).toEqual({ recorded: 1, acknowledged: 1, leftUnread: 0 });
    expect(await whereIs(id)).toEqual({ mailbox: 'Processed', flags: ['\\Seen'] });
    const [submission, ...more] = await submissionsOf(db(), id);
    expect(more).toEqual([]);
    expect(submission).toMatchObject({
      status: 'failed',
      errorMessage: 'No attachments found in the e-mail',
      attachmentCount: 0,
      playerId: null,
      fields: {},
      subject: 'Registration',
      fromEmail: 'maeve@example.org',
      receivedAt: new Date('2025-03-03T10:00:00Z'),
    });
    expect(await documentsOf(db(), submission?.id ?? '')).toEqual([]);
  });

  it('records nothing and keeps no staged file when the connection drops mid-download; the next check takes the mail once', async (context) => {
    needDovecot(context);
    if (!proxy) throw new Error('no proxy');
    const id = messageId('cut');
    const birth = makePdf('birth certificate, cut mail', 30_000);
    const medical = makePdf('medical form, cut mail', 20_000);
    // As Apple Mail writes it: text, an attachment, more text (here long notes), another attachment.
    const notes = Array.from({ length: 12_000 }, (_, line) => `Note ${line}: the coach asked for the forms before the first practice.`).join('\n');
    const uid = await append(
      await buildMail({
        from: PARENT,
        to: user,
        subject: 'Documents',
        text: BODY,
        messageId: id,
        attachments: [
          { filename: 'birth.pdf', content: birth },
          { content: Buffer.from(notes), contentType: 'text/plain; charset=utf-8', contentDisposition: 'inline' },
          { filename: 'medical.pdf', content: medical },
        ],
      }),
    );
    // imapflow downloads in 64 KiB FETCHes of BODY.PEEK[]<offset.length>. 400 kB into them the first
    // attachment is staged and the notes (about 1 MB encoded) are being read: the connection goes then.
    // Not a cut inside an attachment: readMessage then waits for ever, in about a third of the runs, on
    // the attachment stream mailparser leaves open once the parser is destroyed (a bug, reported; it
    // also hangs every mail over the whole-mail size limit). That case is left out until it is fixed.
    const cut = proxy.cutOnce({ when: new RegExp(String.raw`UID FETCH ${uid} \([^)]*BODY\.PEEK\[\]<`), afterBytes: 400_000 });
    // Every name that appears in staging during the check (inotify: even an object that lives a few ms).
    const staging = path.join(storageRoot(), 'staging');
    await mkdir(staging, { recursive: true });
    const stagedDuringCheck = new Set<string>();
    const watcher = watch(staging, (_event, name) => {
      if (name) stagedDuringCheck.add(name);
    });
    const outcome = await app()
      .mailbox.check()
      .then((report) => ({ report }), (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }))
      .finally(() => watcher.close());

    expect(await cut).toEqual({ forwarded: 400_000, command: expect.stringContaining(`UID FETCH ${uid} (`) as string });
    // The mail could not be read to its end: it is left unread for the next check, which ends normally.
    expect(outcome).toEqual({ report: { recorded: 0, acknowledged: 0, leftUnread: 1 } });
    expect(await whereIs(id)).toEqual({ mailbox: 'INBOX', flags: [] });
    expect(await submissionsOf(db(), id)).toEqual([]);
    // The first attachment is usually being staged when the connection goes (on a loaded machine the parser may
    // not have reached its end yet, and nothing is staged); whatever was staged is removed again.
    expect([...stagedDuringCheck].filter((name) => /^[0-9a-f-]{36}-0$/.test(name)).length).toBeLessThanOrEqual(1);
    expect(await filesUnder(staging)).toEqual([]);
    await expectStorageMatchesDatabase();

    // Through a healthy connection the same mail is recorded once, whole.
    expect(await app().mailbox.check()).toEqual({ recorded: 1, acknowledged: 1, leftUnread: 0 });
    expect(await app().mailbox.check()).toEqual({ recorded: 0, acknowledged: 0, leftUnread: 0 });
    expect(await whereIs(id)).toEqual({ mailbox: 'Processed', flags: ['\\Seen'] });
    const rows = await submissionsOf(db(), id);
    expect(rows.map((row) => [row.status, row.attachmentCount])).toEqual([['processed', 2]]);
    const docs = await documentsOf(db(), rows[0]?.id ?? '');
    expect(docs.map((d) => [d.originalFilename, d.status]).sort()).toEqual([
      ['birth.pdf', 'pending'],
      ['medical.pdf', 'pending'],
    ]);
    expect(await decrypted(named(docs, 'birth.pdf'))).toEqual(birth);
    expect(await decrypted(named(docs, 'medical.pdf'))).toEqual(medical);
    await expectStorageMatchesDatabase();
  });

  // A size seen in real mail: a 50 MB scan. Kept because it runs in a few seconds (measured 2-4 s a
  // database on the 2-core reference machine, most of it the download in 64 KiB FETCHes).
  it('records a mail over the whole-mail size limit as failed, without hanging the check, and keeps nothing of it', async (context) => {
    needDovecot(context);
    const id = messageId('over-mail-limit');
    // 1 MiB cap: the whole-mail limit is ceil(16 × 1 MiB × 4/3) + 10 MiB ≈ 31.3 MiB; this mail is ~53 MiB.
    await append(await buildMail({ from: PARENT, to: user, subject: 'Huge', text: BODY, messageId: id, attachments: [{ filename: 'scan.pdf', content: makePdf('huge scan', 40 * MiB) }] }));
    const outcome = await Promise.race([
      app().mailbox.check(),
      new Promise((resolve) => setTimeout(() => resolve('still running after 15 s'), 15_000)),
    ]);
    // Reading it again could only fail again: recorded for staff and marked read.
    expect(outcome).toEqual({ recorded: 1, acknowledged: 1, leftUnread: 0 });
    const [row] = await submissionsOf(db(), id);
    expect(row).toMatchObject({ status: 'failed', subject: 'Huge', fromEmail: 'maeve@example.org' });
    expect(row?.errorMessage).toMatch(/^The e-mail is larger than 31 MB\. Ask the sender to send the documents in several e-mails\.$/);
    expect(await filesUnder(path.join(storageRoot(), 'staging'))).toEqual([]);
  }, 40_000);

  it('records nothing and keeps no staged file when the connection drops inside an attachment', async (context) => {
    needDovecot(context);
    if (!proxy) throw new Error('no proxy');
    for (let attempt = 0; attempt < 6; attempt++) {
      const id = messageId('cut-inside');
      const medical = makePdf(`medical form, cut inside, attempt ${attempt}`, 700_000);
      const uid = await append(await buildMail({ from: PARENT, to: user, subject: 'Documents', text: BODY, messageId: id, attachments: [{ filename: 'birth.pdf', content: makePdf(`birth ${attempt}`, 30_000) }, { filename: 'medical.pdf', content: medical }] }));
      const cut = proxy.cutOnce({ when: new RegExp(String.raw`UID FETCH ${uid} \([^)]*BODY\.PEEK\[\]<`), afterBytes: 400_000 + attempt * 7_919 });
      const outcome = await Promise.race([
        app().mailbox.check(),
        new Promise((resolve) => setTimeout(() => resolve('still running after 5 s'), 5_000)),
      ]);
      await cut;
      expect(outcome).toEqual({ recorded: 0, acknowledged: 0, leftUnread: 1 });
      expect(await filesUnder(path.join(storageRoot(), 'staging'))).toEqual([]);
      expect(await app().mailbox.check()).toEqual({ recorded: 1, acknowledged: 1, leftUnread: 0 });
    }
  }, 60_000);

  it('refuses a real 50 MB attachment as too large without holding it in memory, and stores the other one', async (context) => {
    const server = needDovecot(context);
    // Another instance on the same database, data folder and pipeline, with the default 20 MB cap. Under
    // the 1 MiB cap of the others the whole mail would be over the e-mail size limit (about 31 MB then),
    // which is another case: readMessage then hangs, as after a cut inside an attachment (see the cut test).
    const bigUser = await server.addUser(`big-${kind}@example.test`);
    const bigConfig = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'false',
      IMAP_HOST: server.host,
      IMAP_PORT: String(server.port),
      IMAP_TLS: 'false',
      IMAP_USER: bigUser.user,
      IMAP_PASSWORD: bigUser.password,
      IMAP_PROCESSED_MAILBOX: 'Processed',
    });
    expect(bigConfig.maxFileBytes).toBe(20 * MiB);
    const big = await createClearbase(bigConfig, createLogger('silent'), { readDocuments: false, database: getDatabase(), webDir: path.join(dataDir, 'none'), startWorkers: false, mailboxSettleWaitMs: 15_000 });
    try {
      const id = messageId('fifty');
      const residency = makePdf('residency proof next to the 50 MB scan', 5_000);
      const scanBytes = 50 * MiB;
      // Written into the mailbox as a stream (doveadm save), so the test process never holds the 67 MB
      // message itself and the memory measured below is the check's alone.
      const scanHead = Buffer.from('%PDF-1.7\n% a 50 MB scan of a birth certificate\n');
      const scanTail = Buffer.from('\n%%EOF\n');
      const filler = Buffer.alloc(57 * 1024, 0x20);
      function* scan(): Generator<Buffer> {
        yield scanHead;
        let left = scanBytes - scanHead.length - scanTail.length;
        for (; left > filler.length; left -= filler.length) yield filler;
        yield filler.subarray(0, left);
        yield scanTail;
      }
      await saveMailStreamed(server, bigUser.user, [
        [`From: ${PARENT}`, `To: ${bigUser.user}`, 'Subject: Big scan', `Message-ID: ${id}`, 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="big-boundary"', ''].join('\r\n'),
        ['', '--big-boundary', 'Content-Type: text/plain; charset=UTF-8', 'Content-Transfer-Encoding: base64', '', base64Lines(Buffer.from(BODY)), ''].join('\r\n'),
        ['--big-boundary', 'Content-Type: application/pdf; name="scan.pdf"', 'Content-Disposition: attachment; filename="scan.pdf"', 'Content-Transfer-Encoding: base64', '', ''].join('\r\n'),
        base64Stream(scan()),
        ['--big-boundary', 'Content-Type: application/pdf; name="residency.pdf"', 'Content-Disposition: attachment; filename="residency.pdf"', 'Content-Transfer-Encoding: base64', '', base64Lines(residency), '--big-boundary--', ''].join('\r\n'),
      ]);

      // Resident memory while the check reads the 67 MB of base64, from a clean heap. Each sample first
      // runs a young-generation collection (about a millisecond): the chunks already passed on are
      // garbage, and without it when V8 gets round to them decides the peak (up to 30 MB in some runs).
      collectGarbage();
      const baseline = process.memoryUsage.rss();
      let peak = baseline;
      const sampler = setInterval(() => {
        collectGarbage({ type: 'minor' });
        peak = Math.max(peak, process.memoryUsage.rss());
      }, 10);
      const started = performance.now();
      const report = await big.mailbox.check().finally(() => clearInterval(sampler));
      const seconds = (performance.now() - started) / 1000;

      expect(report).toEqual({ recorded: 1, acknowledged: 1, leftUnread: 0 });
      const [submission] = await submissionsOf(db(), id);
      expect(submission).toMatchObject({ status: 'processed', errorMessage: null, attachmentCount: 2 });
      const docs = await documentsOf(db(), submission?.id ?? '');
      expect(docs.map((d) => [d.originalFilename, d.status, d.bytes, d.reviewNotes]).sort()).toEqual([
        ['residency.pdf', 'pending', residency.length, null],
        ['scan.pdf', 'rejected', scanBytes, 'The file is 50.0 MB; the limit is 20 MB'],
      ]);
      expect(await decrypted(named(docs, 'residency.pdf'))).toEqual(residency);
      // Nothing of the scan reached storage: no object, no staging, no temporary file.
      await expectStorageMatchesDatabase();
      // Streaming holds a few 64 KiB chunks and the cipher state: the growth measured was 0-12 MB (the
      // native allocator's arenas; 0 when an earlier run left freed memory to reuse), with the JavaScript
      // heap and buffers flat. The sealer also keeps a file's bytes for its decoder up to MAX_FILE_BYTES
      // (20 MB here) and lets them go once the file is over it (decision 022): 0-16 MB measured with it.
      // Holding the scan would add its 50 MB: a 50 MB buffer kept alive during the check measured 47-54 MB.
      // The bound, the cap and 15 MB of noise, still fails if the file is ever held.
      const growth = peak - baseline;
      process.stderr.write(`50 MB attachment [${kind}]: check ${seconds.toFixed(1)} s, RSS growth ${(growth / MiB).toFixed(1)} MB\n`);
      expect(growth).toBeLessThan(bigConfig.maxFileBytes + 15 * MiB);
    } finally {
      await big.close();
    }
  });
});
