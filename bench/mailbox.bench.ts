import { randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq, max, sql } from 'drizzle-orm';
import { startDovecot, type DovecotUser, type StartedDovecot } from '../scripts/services/start-dovecot';
import type { Database } from '../src/server/platform/db/client';
import { auditEvents, documents, submissions } from '../src/server/platform/db/schema';
import { withImap } from '../tests/support/imap';
import { buildMail } from '../tests/support/mail';
import { measureCryptoBaseline } from './crypto-baseline';
import { countStoredDocuments, DEFAULT_POSTGRES_URL, makeSizedPdf, startBenchInstance, type BenchDatabase, type BenchInstance } from './support';

/**
 * End-to-end throughput of the mailbox intake (IMAP), measured in process: N mails, each a short text
 * naming the player and four PDF attachments, are appended to a private Dovecot before the clock starts;
 * the clock runs over `mailbox.check()` of an in-process Clearbase until every mail is acknowledged —
 * list unseen, then for each mail in turn download, parse, stage (SHA-256 + AES-256-GCM) and record it, the
 * pipeline storing its documents meanwhile; then wait for the last ones to be stored and mark each mail read.
 *
 * Two references, measured in the same run just before and after each case:
 * - the crypto one-pass rate (SHA-256 + AES-256-GCM, one thread) over a PDF of the attachments' size: the
 *   least work each attachment must get, so processing MB/s ÷ one pass says how near the crypto limit it is;
 * - the raw IMAP download of the same N mails with imapflow (one after another, as the adapter does it,
 *   read-only, bytes discarded, nothing parsed): how fast the mail server alone hands the mail over.
 *
 * MB is 10^6 bytes of attachment content; the raw messages are about 4/3 larger (base64).
 */

export interface MailboxSizeCase {
  /** Mails in the timed check. */
  mails: number;
  /** Mails checked untimed first, so JIT, the database's caches and the file system are warm. */
  warmup: number;
}

export interface MailboxBenchOptions {
  size?: MailboxSizeCase;
  databases?: BenchDatabase[];
  /** Admin connection for the PostgreSQL case (BENCH_POSTGRES_URL in bench/run.ts). */
  postgresUrl?: string;
  /** Bytes each crypto baseline measurement covers per pass (rounds = this / attachment size). */
  cryptoBytesPerMeasurement?: number;
  /** Parent folder of the temporary data dir; defaults to the OS temp dir. */
  workDir?: string;
  write?: (text: string) => void;
}

export interface MailboxCaseResult {
  database: BenchDatabase;
  mails: number;
  attachments: number;
  /** Bytes of all the raw messages (what IMAP transfers). */
  rawBytes: number;
  /** The timed check, from its start until every mail is acknowledged. */
  seconds: number;
  /** Checks it took (more than one when a mail's documents took longer than the check waits for them). */
  checks: number;
  /** Wall time per mail, and within it the mean time from the mail's submission recorded to its last document stored (database clock). */
  msPerMail: number;
  storeMs: number;
  mailsPerMinute: number;
  attachmentsPerSecond: number;
  /** Attachment content per second. */
  mailboxMBps: number;
  onePassMBps: number;
  /** mailboxMBps / onePassMBps. */
  cryptoRatio: number;
  /** The same mails downloaded raw (median of three rounds): seconds, and mails per minute. */
  downloadSeconds: number;
  downloadMailsPerMinute: number;
  /** Raw message bytes per second of the download. */
  downloadRawMBps: number;
  /** downloadSeconds / seconds: the share of the raw download rate the mailbox intake reaches. */
  downloadRatio: number;
  cpuPerSecond: number;
  loadAverage: number;
}

export interface MailboxBenchResult {
  cases: MailboxCaseResult[];
  attachmentBytes: number;
  workers: number;
  workDir: string;
  dovecotStartMs: number;
}

export const ATTACHMENT_BYTES = 100 * 1000;
const ATTACHMENTS = ['birth certificate.pdf', 'residency proof.pdf', 'medical form.pdf', 'liability waiver.pdf'] as const;
// Sized for about 10 to 20 seconds per database on a 2-core machine.
export const FULL_MAILBOX_SIZE: MailboxSizeCase = { mails: 60, warmup: 6 };
export const QUICK_MAILBOX_SIZE: MailboxSizeCase = { mails: 6, warmup: 2 };

/** Every mail acknowledged by then, or the bench fails: something is stuck, not slow. */
const SETTLE_TIMEOUT_MS = 180_000;

export async function runMailboxBench(options: MailboxBenchOptions = {}): Promise<MailboxBenchResult> {
  const size = options.size ?? FULL_MAILBOX_SIZE;
  const databases = options.databases ?? ['postgres', 'pglite'];
  const postgresUrl = options.postgresUrl ?? DEFAULT_POSTGRES_URL;
  const cryptoBytes = options.cryptoBytesPerMeasurement ?? 200 * 1000 * 1000;
  const workDir = options.workDir ?? tmpdir();
  const write = options.write ?? (() => undefined);

  const dovecot = await startDovecot();
  const cases: MailboxCaseResult[] = [];
  let workers = 0;
  try {
    for (const [run, kind] of databases.entries()) {
      const mailbox = await dovecot.addUser(`bench-${kind}@example.test`);
      const instance = await startInstance(kind, postgresUrl, workDir, dovecot, mailbox);
      workers = instance.workers;
      try {
        write(`  ${kind}: ${size.warmup} warm-up + ${size.mails} timed mails of ${ATTACHMENTS.length} × ${ATTACHMENT_BYTES / 1000} KB…\n`);
        await appendMails(dovecot, mailbox.user, await buildMails(0, size.warmup));
        const warm = await checkUntilAcknowledged(instance, size.warmup);
        if (warm.acknowledged !== size.warmup) throw new Error(`warm-up: ${warm.acknowledged} of ${size.warmup} mails acknowledged`);

        const timed = await buildMails(size.warmup, size.mails);
        const uids = await appendMails(dovecot, mailbox.user, timed);
        const rawBytes = timed.reduce((sum, raw) => sum + raw.length, 0);
        const sample = makeSizedPdf(`crypto ${run}`, ATTACHMENT_BYTES);
        const rounds = Math.max(9, Math.round(cryptoBytes / ATTACHMENT_BYTES));

        // Two rounds before the check (the first fetch of a mail Dovecot just stored may be slower) and one after.
        const downloads = [await downloadRaw(dovecot, mailbox.user, uids), await downloadRaw(dovecot, mailbox.user, uids)];
        const cryptoBefore = measureCryptoBaseline(sample, rounds).onePassMBps;
        const loadAverage = loadavg()[0] ?? Number.NaN;
        const storedBefore = await countStoredDocuments(instance.database);
        const cpuBefore = process.cpuUsage();
        const started = process.hrtime.bigint();
        const checked = await checkUntilAcknowledged(instance, size.mails);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const cpu = process.cpuUsage(cpuBefore);
        const cryptoAfter = measureCryptoBaseline(sample, rounds).onePassMBps;
        downloads.push(await downloadRaw(dovecot, mailbox.user, uids));

        const attachments = size.mails * ATTACHMENTS.length;
        const stored = (await countStoredDocuments(instance.database)) - storedBefore;
        if (checked.recorded !== size.mails || checked.acknowledged !== size.mails || stored !== attachments) {
          throw new Error(`the timed check recorded ${checked.recorded} and acknowledged ${checked.acknowledged} of ${size.mails} mails, and stored ${stored} of ${attachments} attachments`);
        }
        const storeMs = await meanRecordedToStoredMs(instance.database, size.warmup);
        const onePassMBps = (cryptoBefore + cryptoAfter) / 2;
        const downloadSeconds = [...downloads].sort((a, b) => a - b)[1] ?? Number.NaN;
        const mailboxMBps = (attachments * ATTACHMENT_BYTES) / 1e6 / seconds;
        cases.push({
          database: kind,
          mails: size.mails,
          attachments,
          rawBytes,
          seconds,
          checks: checked.checks,
          msPerMail: (seconds * 1000) / size.mails,
          storeMs,
          mailsPerMinute: (size.mails / seconds) * 60,
          attachmentsPerSecond: attachments / seconds,
          mailboxMBps,
          onePassMBps,
          cryptoRatio: mailboxMBps / onePassMBps,
          downloadSeconds,
          downloadMailsPerMinute: (size.mails / downloadSeconds) * 60,
          downloadRawMBps: rawBytes / 1e6 / downloadSeconds,
          downloadRatio: downloadSeconds / seconds,
          cpuPerSecond: (cpu.user + cpu.system) / 1e6 / seconds,
          loadAverage,
        });
      } finally {
        await instance.close();
      }
    }
  } finally {
    await dovecot.stop();
  }
  const result: MailboxBenchResult = { cases, attachmentBytes: ATTACHMENT_BYTES, workers, workDir, dovecotStartMs: dovecot.startMs };
  write(formatMailboxTable(result));
  return result;
}

export function formatMailboxTable(result: MailboxBenchResult): string {
  const header = [
    `Mailbox intake, end to end: mails appended to a private Dovecot (plain IMAP on 127.0.0.1, started in ${result.dovecotStartMs.toFixed(0)} ms) before the clock;`,
    `timed = mailbox.check() of an in-process Clearbase until every mail is acknowledged (read). A check reads one mail at a time:`,
    `download, parse, stage (SHA-256 + AES-256-GCM), record; the pipeline (${result.workers} workers) stores the ${ATTACHMENTS.length} documents of each meanwhile; then every mail is marked read.`,
    `Each mail: a short text naming the player and ${ATTACHMENTS.length} PDFs of ${result.attachmentBytes / 1000} KB. MB = 10^6 bytes of attachment content; the raw mail is ~4/3 larger (base64).`,
    `Local storage under ${result.workDir}; PostgreSQL = a scratch database on the local server; PGlite = in memory, in this process.`,
    `one pass = SHA-256 + AES-256-GCM, one thread, over a ${result.attachmentBytes / 1000} KB PDF, the mean of one measurement just before and one just after the check;`,
    `raw download = the same mails fetched one after another with imapflow (read-only, not parsed, bytes discarded), the median of three rounds,`,
    `two just before the check and one just after.`,
    `ms/mail = check time ÷ mails; (stored) = of that, the mean time from a mail's submission being recorded to its last document stored, by the`,
    `database's clock: the pipeline's part, which overlaps the reading of the next mails.`,
    `mailbox / raw download = raw download time ÷ check time. cpu = process CPU seconds per wall second; load = 1-minute load average at the start.`,
    '',
    'database  mails  attach.  seconds  checks  ms/mail  (stored)  mails/min  attach./s   MB/s  one pass MB/s  mailbox / one pass  raw mails/min  raw MB/s  mailbox / raw download   cpu  load',
  ];
  const rows = result.cases.map((c) =>
    [
      c.database.padEnd(8),
      String(c.mails).padStart(5),
      String(c.attachments).padStart(7),
      c.seconds.toFixed(2).padStart(7),
      String(c.checks).padStart(6),
      c.msPerMail.toFixed(0).padStart(7),
      `(${c.storeMs.toFixed(0)})`.padStart(8),
      c.mailsPerMinute.toFixed(0).padStart(9),
      c.attachmentsPerSecond.toFixed(1).padStart(9),
      c.mailboxMBps.toFixed(2).padStart(5),
      c.onePassMBps.toFixed(0).padStart(13),
      c.cryptoRatio.toFixed(4).padStart(18),
      c.downloadMailsPerMinute.toFixed(0).padStart(13),
      c.downloadRawMBps.toFixed(1).padStart(8),
      c.downloadRatio.toFixed(3).padStart(21),
      c.cpuPerSecond.toFixed(2).padStart(5),
      c.loadAverage.toFixed(1).padStart(4),
    ].join('  '),
  );
  return [...header, ...rows, ''].join('\n');
}

function startInstance(kind: BenchDatabase, postgresUrl: string, workDir: string, dovecot: StartedDovecot, mailbox: DovecotUser): Promise<BenchInstance> {
  return startBenchInstance({
    kind,
    postgresUrl,
    workDir,
    dataDirPrefix: 'clearbase-mailbox-bench-',
    databasePrefix: 'clearbase_mailbench_',
    password: 'mailbox bench password',
    settings: {
      IMAP_HOST: dovecot.host,
      IMAP_PORT: String(dovecot.port),
      IMAP_TLS: 'false',
      IMAP_USER: mailbox.user,
      IMAP_PASSWORD: mailbox.password,
    },
  });
}

/** Checks until `expected` mails are acknowledged: one check normally, another for a mail left to settle. */
async function checkUntilAcknowledged(instance: BenchInstance, expected: number): Promise<{ recorded: number; acknowledged: number; checks: number }> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  const total = { recorded: 0, acknowledged: 0, checks: 0 };
  while (total.acknowledged < expected) {
    if (Date.now() > deadline) throw new Error(`only ${total.acknowledged} of ${expected} mails acknowledged within ${SETTLE_TIMEOUT_MS / 1000} s`);
    const report = await instance.clearbase.mailbox.check();
    if ('skipped' in report) throw new Error(`the check was skipped: ${report.skipped}`);
    total.checks++;
    total.recorded += report.recorded;
    total.acknowledged += report.acknowledged;
    if (report.recorded === 0 && report.acknowledged === 0 && report.leftUnread === 0) throw new Error(`no mail left to check, ${total.acknowledged} of ${expected} acknowledged`);
  }
  return total;
}

/** Seconds to download the mails `uids` one after another, as the adapter does, without parsing them. */
async function downloadRaw(dovecot: StartedDovecot, user: string, uids: number[]): Promise<number> {
  return withImap(
    dovecot,
    async (client) => {
      await client.mailboxOpen('INBOX', { readOnly: true });
      const started = process.hrtime.bigint();
      for (const uid of uids) {
        const { content } = await client.download(String(uid), undefined, { uid: true });
        if (!content) throw new Error(`UID ${uid} is not in the mailbox`);
        await pipeline(content, discard());
      }
      return Number(process.hrtime.bigint() - started) / 1e9;
    },
    user,
  );
}

/** Appends raw mails over one connection; answers their UIDs. */
async function appendMails(dovecot: StartedDovecot, user: string, raws: Buffer[]): Promise<number[]> {
  return withImap(
    dovecot,
    async (client) => {
      const uids: number[] = [];
      for (const raw of raws) {
        const appended = await client.append('INBOX', raw, []);
        if (!appended || appended.uid === undefined) throw new Error('APPEND returned no UID');
        uids.push(appended.uid);
      }
      return uids;
    },
    user,
  );
}

/** Mails `first` to `first + n - 1`: distinct players (names of letters only) and distinct attachment content. */
function buildMails(first: number, n: number): Promise<Buffer[]> {
  return Promise.all(
    Array.from({ length: n }, (_, offset) => {
      const index = first + offset;
      const lastName = `Runner${letters(index)}`;
      const text = ['Hello,', '', `Player: Bench ${lastName}`, 'DOB: 2014-05-03', 'Division: AA', 'Parent: Pat Parent', '', 'Thanks!'].join('\n');
      return buildMail({
        from: 'Pat Parent <bench@example.org>',
        to: 'intake@example.test',
        subject: 'Registration documents',
        text,
        messageId: `<bench-${index}-${randomBytes(6).toString('hex')}@example.org>`,
        attachments: ATTACHMENTS.map((filename) => ({
          filename,
          content: makeSizedPdf(`${filename} of ${lastName} ${randomBytes(8).toString('hex')}`, ATTACHMENT_BYTES),
          contentType: 'application/pdf',
        })),
      });
    }),
  );
}

/** 0 → a, 25 → z, 26 → ba: a name part without digits. */
function letters(value: number): string {
  let text = '';
  let rest = value;
  do {
    text = String.fromCharCode(97 + (rest % 26)) + text;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return text;
}

function discard(): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
}

/** Mean, over the mailbox submissions after the first `skip` (the warm-up), of recorded → last document stored. */
async function meanRecordedToStoredMs(database: Database, skip: number): Promise<number> {
  const rows = await database.db
    .select({ recordedAt: submissions.createdAt, storedAt: max(auditEvents.at) })
    .from(submissions)
    .innerJoin(documents, eq(documents.submissionId, submissions.id))
    .innerJoin(auditEvents, and(eq(auditEvents.subjectId, sql`${documents.id}::text`), eq(auditEvents.action, 'document.stored')))
    .where(eq(submissions.source, 'mailbox'))
    .groupBy(submissions.id, submissions.createdAt)
    .orderBy(submissions.createdAt);
  const timed = rows.slice(skip).flatMap((row) => (row.storedAt ? [new Date(row.storedAt).getTime() - row.recordedAt.getTime()] : []));
  return timed.length === 0 ? Number.NaN : timed.reduce((sum, ms) => sum + ms, 0) / timed.length;
}
