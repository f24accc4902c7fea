import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { startDovecot, type StartedDovecot } from '../../scripts/services/start-dovecot';
import { createLocalStorage } from '../../src/server/adapters/storage/local-storage';
import type { Storage } from '../../src/server/adapters/storage/port';
import { openDatabase, type Database } from '../../src/server/platform/db/client';
import { countJobsByStatus } from '../../src/server/platform/jobs/jobs.repository';
import { documents, mailboxState, players, submissions } from '../../src/server/platform/db/schema';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { findStagedKeys } from '../../src/server/pipeline/staging.repository';
import { createLogger } from '../../src/server/platform/logger';
import { PROCESS_DOCUMENT_QUEUE } from '../../src/server/pipeline/record-submission';
import { STAGING_FOLDER, sweepOrphanedStaging } from '../../src/server/pipeline/staging-sweeper';
import { childServerEnv, countFiles, freePort, listKeys, readDecrypted, readMasterKey, signIn, startChildServer, type ChildServer } from '../support/child-server';
import { createScratchPostgresDatabase } from '../support/databases';
import { listMessages, withImap } from '../support/imap';
import { buildMail } from '../support/mail';
import { makePdf } from '../support/multipart';
import { FALL_2025 } from '../support/pipeline';
import { IN_CI } from '../support/test-env';
import { messageIdOfExternalId } from '../../src/server/intake/mailbox/mail-identity';

/**
 * The server is SIGKILLed while a mailbox check is half-way through the mailbox — with a mail streaming
 * into staging when it can be caught so — and restarted on the same database and data folder. Every mail
 * must then be recorded once, every attachment stored once and decryptable, and every mail marked read.
 */

const PASSWORD = 'mailbox crash password';
const MAILS = 20;
const ATTACHMENTS = ['birth-certificate.pdf', 'residency proof.pdf', 'medical form.pdf', 'liability waiver.pdf'] as const;
const DOC_TYPES = ['birth_certificate', 'medical', 'residency', 'waiver'];
/** The first kill waits for this many recorded mails, then for the next one streaming into staging. */
const KILL_A_AFTER_RECORDED = 4;
/** The second kill waits for this many more, then for a recorded mail whose documents are not stored yet. */
const KILL_B_AFTER_MORE = 4;
/** Jobs the dead server left `running` are re-queued this long after their claim (default: 10 minutes). */
const STALE_AFTER_MS = 2_000;
const KILL_TIMEOUT_MS = 30_000;
const SETTLE_TIMEOUT_MS = 30_000;
const FIRST_NAMES = ['Ada', 'Bea', 'Cato', 'Dara', 'Eli', 'Fern', 'Gus', 'Hana', 'Ivo', 'June', 'Kai', 'Lena', 'Milo', 'Nia', 'Otto', 'Pia', 'Quinn', 'Rosa', 'Saul', 'Tess'];
const LAST_NAMES = ['Abbott', 'Brennan', 'Castillo', 'Duarte', 'Eriksen'];

type SentMail = { messageId: string; player: string; sha256ByFile: Map<string, string> };
type KillReport = {
  /** Killed at the moment planned (false: the check got past it, and the kill came late). */
  caught: boolean;
  /** The check lease of the server killed before had to be expired for this check to run. */
  leaseExpired: boolean;
  checkOutcome: string;
  recorded: number;
  seen: number;
  pendingSubmissions: number;
  storedDocuments: number;
  processingDocuments: number;
  stagingFiles: number;
  /** Of those, the ones new since the last kill that belong to a mail not recorded: complete objects and temporary files. */
  stagingOfUnrecordedMail: { objects: number; temporary: number };
};

const postgresAdminUrl = inject('postgresAdminUrl');
let dovecot: StartedDovecot | undefined;
let notStarted = '';

// As mailbox-intake.int.test.ts: outside CI a missing Dovecot skips (loudly), in CI it fails.
beforeAll(async () => {
  if (!postgresAdminUrl) return;
  try {
    dovecot = await startDovecot();
  } catch (error) {
    notStarted = error instanceof Error ? error.message : String(error);
    if (IN_CI) throw new Error(`Dovecot is required in CI and did not start: ${notStarted}`);
    process.stderr.write(`\n!!! Dovecot did not start (${notStarted}): the mailbox crash test is SKIPPED.\n\n`);
  }
});
afterAll(async () => {
  await dovecot?.stop();
});

// The server runs in a child process, which an in-memory PGlite cannot be shared with; global-setup
// already fails the run in CI when PostgreSQL is missing.
if (!postgresAdminUrl) {
  describe.skip('mailbox crash [postgres] — SKIPPED: PostgreSQL not reachable, and PGlite cannot be shared with a child process', () => undefined);
}

describe.skipIf(!postgresAdminUrl)('mailbox crash: SIGKILL in the middle of a mailbox check [postgres]', () => {
  let dataDir = '';
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>> | undefined;
  let database: Database | undefined;
  const servers: ChildServer[] = [];
  /** Staging files of unrecorded mail already there after a kill, so the next kill's moment is not taken from them. */
  const leftByEarlierKills = new Set<string>();
  const user = 'crash@example.test';

  const db = () => {
    if (!database) throw new Error('database not open');
    return database.db;
  };

  beforeAll(async () => {
    if (!dovecot) return;
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-mailcrash-'));
    scratch = await createScratchPostgresDatabase();
    // Opened (and migrated) here first, so the season exists before the server reads its first mail.
    database = await openDatabase({ kind: 'postgres', url: scratch.url });
    await insertSeasons(database.db, [FALL_2025]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await database?.close();
    await scratch?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('records every mail once, stores every attachment once, and marks every mail read after a restart', async (context) => {
    if (!dovecot) return context.skip(`Dovecot did not start: ${notStarted}`);
    const imap = dovecot;
    const login = await imap.addUser(user);
    const env = childServerEnv({
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      DATABASE_URL: scratch?.url ?? '',
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'false',
      LOG_LEVEL: 'warn',
      PIPELINE_STALE_AFTER_MS: String(STALE_AFTER_MS),
      IMAP_HOST: imap.host,
      IMAP_PORT: String(imap.port),
      IMAP_TLS: 'false',
      IMAP_USER: login.user,
      IMAP_PASSWORD: login.password,
    });

    // 1. Twenty mails, four distinct PDFs each, one player per mail, in the mailbox before the server starts.
    const sent: SentMail[] = [];
    await withImap(
      imap,
      async (client) => {
        for (let i = 0; i < MAILS; i++) {
          const player = `${FIRST_NAMES[i] ?? 'Ada'} ${LAST_NAMES[i % LAST_NAMES.length] ?? 'Abbott'}`;
          const messageId = `<crash-${i}-${process.pid}-${randomBytes(4).toString('hex')}@example.org>`;
          const attachments = ATTACHMENTS.map((filename, n) => ({
            filename,
            // Distinct content and a spread of sizes, 30–120 KB.
            content: makePdf(`${filename} of ${player} ${randomBytes(8).toString('hex')}`, 30_000 + (((i * 4 + n) * 7_919) % 90_000)),
            contentType: 'application/pdf',
          }));
          const text = ['Hello,', '', `Player: ${player}`, `DOB: 2014-0${1 + (i % 9)}-1${i % 10}`, 'Division: AA', 'Parent: Maeve Parent', 'Phone: 555-0142', '', 'Thanks!'].join('\n');
          const raw = await buildMail({ from: 'Maeve Parent <maeve@example.org>', to: user, subject: 'Registration documents', text, messageId, attachments });
          await client.append('INBOX', raw, []);
          sent.push({ messageId, player, sha256ByFile: new Map(attachments.map((a) => [a.filename, sha256(a.content)])) });
        }
      },
      user,
    );
    const inbox = () => listMessages(imap, 'INBOX', user);

    // 2. Two crashes, each in the middle of a check, in the two ways a mail can be half processed:
    //    a. while a mail streams into staging, before its submission is recorded;
    //    b. once a mail is recorded but its documents are not stored yet, so it is not marked read.
    const started = await startChildServer(env, servers);
    const masterKey = await readMasterKey(dataDir);
    const midStream = await killDuringCheck(started, async (recorded) => {
      if (recorded >= MAILS - 2) return 'late';
      // At least one attachment of the mail fully staged (not only a temporary file being written).
      return recorded >= KILL_A_AFTER_RECORDED && (await stagingOfUnrecordedMail()).objects > 0 ? 'now' : 'wait';
    });
    const restarted = await startChildServer(env, servers);
    const recordedAfterA = midStream.recorded;
    const unsettled = await killDuringCheck(restarted, async (recorded) => {
      if (recorded >= MAILS - 1) return 'late';
      return recorded >= recordedAfterA + KILL_B_AFTER_MORE && (await countPendingMailboxSubmissions()) > 0 ? 'now' : 'wait';
    });
    for (const kill of [midStream, unsettled]) {
      expect(kill.recorded).toBeLessThan(MAILS);
      expect(kill.seen).toBeLessThan(MAILS);
    }
    expect(unsettled.recorded).toBeGreaterThan(midStream.recorded);

    // 3. Restart on the same database and data folder, and check until every mail is read.
    const restartedAt = performance.now();
    const last = await startChildServer(env, servers);
    const healthyMs = performance.now() - restartedAt;
    const cookie = await signIn(last.url, PASSWORD);
    const answers: string[] = [];
    const settleDeadline = restartedAt + SETTLE_TIMEOUT_MS;
    for (;;) {
      answers.push(await checkPastDeadLease(last, cookie));
      if ((await inbox()).every((message) => message.flags.includes('\\Seen'))) break;
      if (performance.now() > settleDeadline) {
        throw new Error(`mail still unread ${SETTLE_TIMEOUT_MS} ms after the restart; answers: ${answers.join(' | ')}\n${last.output()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const settleMs = performance.now() - restartedAt;

    // 4. Every mail read, and recorded exactly once under its Message-ID, processed.
    const messages = await inbox();
    expect(messages).toHaveLength(MAILS);
    expect(messages.map((m) => m.messageId).sort()).toEqual(sent.map((m) => m.messageId).sort());
    expect(messages.filter((m) => !m.flags.includes('\\Seen'))).toEqual([]);
    const rows = await db().select().from(submissions);
    expect(rows).toHaveLength(MAILS);
    expect(rows.every((row) => row.source === 'mailbox')).toBe(true);
    expect(rows.map((row) => messageIdOfExternalId(row.externalId)).sort()).toEqual(sent.map((m) => m.messageId).sort());
    expect(rows.filter((row) => row.status !== 'processed').map((row) => [row.externalId, row.status, row.errorMessage])).toEqual([]);
    expect(await db().select({ id: players.id }).from(players)).toHaveLength(MAILS);

    // 5. Every attachment once: four stored documents per mail, the files that were sent, none twice.
    const docs = await db().select().from(documents);
    expect(docs).toHaveLength(MAILS * ATTACHMENTS.length);
    const storage = createLocalStorage(path.join(dataDir, 'storage'));
    for (const mail of sent) {
      const submission = rows.find((row) => messageIdOfExternalId(row.externalId) === mail.messageId);
      const ofMail = docs.filter((d) => d.submissionId === submission?.id);
      expect(ofMail.map((d) => [d.originalFilename, d.fileSha256]).sort()).toEqual([...mail.sha256ByFile.entries()].sort());
      expect(ofMail.map((d) => d.docType).sort()).toEqual(DOC_TYPES);
      for (const document of ofMail) {
        expect(document).toMatchObject({ status: 'pending', stagedKey: null, storageDriver: 'local' });
        expect(document.storedPath).toBe(document.storageKey);
        await expectDecryptsTo(storage, document, masterKey);
      }
    }
    expect(new Set(docs.map((d) => `${d.playerId} ${d.seasonId} ${d.fileSha256}`)).size).toBe(docs.length);
    expect(await countJobsByStatus(db(), PROCESS_DOCUMENT_QUEUE)).toEqual({ queued: 0, running: 0, done: docs.length, failed: 0 });
    // No second copy of any file under seasons/ (a mail read twice would leave one).
    expect((await listKeys(storage, 'seasons')).sort()).toEqual(docs.map((d) => d.storageKey ?? '').sort());

    // 6. Staging: what is left is only what the killed check staged for a mail it never recorded. No row
    // refers to it (the restarted server read that mail again under a new submission), and the sweep,
    // which the server runs with an hour's grace, removes it.
    const leftInStaging = await listKeys(storage, STAGING_FOLDER);
    expect([...(await findStagedKeys(db(), leftInStaging))]).toEqual([]);
    const swept = await sweepOrphanedStaging({ db: db(), storage, olderThan: new Date(), log: createLogger('silent') });
    expect(swept.deleted).toBe(leftInStaging.length);
    expect(await listKeys(storage, STAGING_FOLDER)).toEqual([]);
    const halfWritten = await countFiles(path.join(dataDir, 'storage', STAGING_FOLDER));

    const describeKill = (name: string, kill: KillReport) =>
      `${name}: SIGKILL ${kill.caught ? 'as planned' : 'late (the planned moment was not seen)'} after ${kill.recorded}/${MAILS} mails recorded ` +
      `(${kill.seen} marked read, ${kill.pendingSubmissions} recorded and not settled, ${kill.storedDocuments} documents stored, ${kill.processingDocuments} processing, ` +
      `${kill.stagingFiles} files in staging, of which new and of an unrecorded mail ${kill.stagingOfUnrecordedMail.objects} staged and ${kill.stagingOfUnrecordedMail.temporary} half-written); its check: ${kill.checkOutcome}` +
      `${kill.leaseExpired ? '; the killed server’s check lease, still held, was expired before this check' : ''}`;
    console.info(
      [
        'mailbox crash:',
        describeKill('  a. mid-stream', midStream),
        describeKill('  b. recorded, not settled', unsettled),
        `  after the last restart (healthy in ${Math.round(healthyMs)} ms) every mail was read ${Math.round(settleMs)} ms after the spawn, over ${answers.length} check(s): ${answers.join(' | ')}`,
        `  swept ${swept.deleted} orphaned staging objects; ${halfWritten} half-written temporary files left in staging`,
      ].join('\n'),
    );
  }, 60_000);

  /**
   * Signs in, runs a check (once more if the dead server's lease refused it), and SIGKILLs the server as
   * soon as `when` (given the mails recorded so far) answers 'now', or 'late' when the moment was missed.
   */
  async function killDuringCheck(server: ChildServer, when: (recorded: number) => Promise<'now' | 'late' | 'wait'>): Promise<KillReport> {
    const cookie = await signIn(server.url, PASSWORD);
    // A lease still held here is the killed server's (this one has not checked yet): the check below would
    // be refused (the last restart shows how), so it is expired first.
    const leaseExpired = (await readLease()) !== null;
    if (leaseExpired) await expireDeadLease();
    let checkOutcome = 'running';
    const checking = checkNow(server, cookie).then(
      (message) => void (checkOutcome = `answered: ${message}`),
      () => void (checkOutcome = 'no answer (killed)'),
    );
    const deadline = performance.now() + KILL_TIMEOUT_MS;
    let caught = false;
    for (;;) {
      const recorded = await countMailboxSubmissions();
      const verdict = await when(recorded);
      if (verdict !== 'wait') {
        caught = verdict === 'now';
        break;
      }
      if (checkOutcome !== 'running') throw new Error(`the check ended before the kill (${recorded} recorded), ${checkOutcome}\n${server.output()}`);
      if (performance.now() > deadline) throw new Error(`only ${recorded} mails recorded after ${KILL_TIMEOUT_MS} ms\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await server.kill();
    await checking;
    const report: KillReport = {
      caught,
      leaseExpired,
      checkOutcome,
      recorded: await countMailboxSubmissions(),
      seen: (await listMessages(requireDovecot(), 'INBOX', user)).filter((m) => m.flags.includes('\\Seen')).length,
      pendingSubmissions: await countPendingMailboxSubmissions(),
      storedDocuments: (await db().select({ id: documents.id }).from(documents).where(eq(documents.status, 'pending'))).length,
      processingDocuments: (await db().select({ id: documents.id }).from(documents).where(eq(documents.status, 'processing'))).length,
      stagingFiles: await countFiles(path.join(dataDir, 'storage', STAGING_FOLDER)),
      stagingOfUnrecordedMail: await stagingOfUnrecordedMail(),
    };
    for (const name of await unrecordedStagingFiles()) leftByEarlierKills.add(name);
    return report;
  }

  /** POST /api/gmail/check; a check refused because a dead server still holds the lease is run again past it. */
  async function checkPastDeadLease(server: ChildServer, cookie: string): Promise<string> {
    const answer = await checkNow(server, cookie);
    if (!/another Clearbase instance is checking/.test(answer)) return answer;
    await expireDeadLease();
    return `${answer} → lease expired → ${await checkNow(server, cookie)}`;
  }

  async function checkNow(server: ChildServer, cookie: string): Promise<string> {
    const response = await fetch(`${server.url}/api/gmail/check`, { method: 'POST', headers: { cookie }, signal: AbortSignal.timeout(30_000) });
    const body = (await response.json()) as { ok?: boolean; message?: string };
    if (response.status !== 200) throw new Error(`check answered ${response.status}: ${JSON.stringify(body)}\n${server.output()}`);
    return body.message ?? '';
  }

  async function readLease(): Promise<string | null> {
    const [state] = await db().select({ owner: mailboxState.checkOwner, until: mailboxState.checkLeaseUntil }).from(mailboxState);
    return state?.until && state.until.getTime() > Date.now() ? state.owner : null;
  }

  /**
   * The check lease of a killed server lasts LEASE_MS (10 minutes, not configurable) after its check began:
   * until then a restarted instance is refused. The test lets that time pass by moving the lease's end.
   */
  async function expireDeadLease(): Promise<void> {
    await db().update(mailboxState).set({ checkLeaseUntil: new Date(Date.now() - 1_000) });
  }

  function requireDovecot(): StartedDovecot {
    if (!dovecot) throw new Error('Dovecot not started');
    return dovecot;
  }

  async function countPendingMailboxSubmissions(): Promise<number> {
    const rows = await db().select({ id: submissions.id }).from(submissions).where(and(eq(submissions.source, 'mailbox'), eq(submissions.status, 'pending')));
    return rows.length;
  }

  async function countMailboxSubmissions(): Promise<number> {
    return (await db().select({ id: submissions.id }).from(submissions).where(eq(submissions.source, 'mailbox'))).length;
  }

  /**
   * Files in staging (temporary ones included) of a submission that is not recorded: a mail being read.
   * What an earlier kill left behind is not counted again.
   */
  async function stagingOfUnrecordedMail(): Promise<{ objects: number; temporary: number }> {
    const names = (await unrecordedStagingFiles()).filter((name) => !leftByEarlierKills.has(name));
    const temporary = names.filter((name) => name.endsWith('.tmp')).length;
    return { objects: names.length - temporary, temporary };
  }

  async function unrecordedStagingFiles(): Promise<string[]> {
    const names = await readdir(path.join(dataDir, 'storage', STAGING_FOLDER)).catch(() => [] as string[]);
    const idOf = (name: string) => /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-\d+/.exec(name)?.[1];
    const ids = [...new Set(names.flatMap((name) => idOf(name) ?? []))];
    if (ids.length === 0) return [];
    const recorded = new Set((await db().select({ id: submissions.id }).from(submissions).where(inArray(submissions.id, ids))).map((r) => r.id));
    return names.filter((name) => {
      const id = idOf(name);
      return id !== undefined && !recorded.has(id);
    });
  }
});

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function expectDecryptsTo(storage: Storage, document: typeof documents.$inferSelect, masterKey: Buffer): Promise<void> {
  expect(sha256(await readDecrypted(storage, document, masterKey))).toBe(document.fileSha256);
}
