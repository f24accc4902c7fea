import { randomUUID } from 'node:crypto';
import { type TMailboxActionResult, type TMailboxRecent, type TMailboxStats, type TMailboxStatus, type TPrincipal, type TServiceHealth, MAILBOX_DEFAULT_INTERVAL_MS } from '../../../contract';
import { sharedReads } from '../../platform/shared-reads';
import { MailboxUnavailableError, type MailboxClient, type MailboxSession, type MailRef } from '../../adapters/mailbox/port';
import type { Db } from '../../platform/db/client';
import { isDatabaseUnreachable } from '../../platform/db/errors';
import { getMailboxState, releaseCheckLease, takeCheckLease, updateMailboxState } from './mailbox-state.repository';
import { findMailSubmissionsByMessageId, isSubmissionInScope, listMailboxSubmissions, mailboxStats } from './mailbox-submissions.repository';
import { findPendingSubmissionIds, findSubmission } from '../../pipeline';
import { AppError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { contentHashOfExternalId, mailExternalId, messageIdOfExternalId } from './mail-identity';
import { maxMessageBytes, receiveMail, type MailIntakeDeps } from './mailbox-intake';
import { identifyMessage, MailTooLargeError } from './read-message';

/** How often each instance looks whether a scheduled check is due (the interval itself is in the database). */
const TICK_MS = 15_000;

/**
 * What the status screen says when a check fails for a reason other than the mailbox itself (the database,
 * storage): that error's text holds paths and codes, so it stays in the log. A mailbox error is already a
 * sentence for staff (describeImapError).
 */
/** What the screens and health say while no mailbox is set up. */
export const MAILBOX_NOT_SET_UP = 'The mailbox is not set up yet. Set it up in Settings → Integrations.';

const CHECK_FAILED_ON_OUR_SIDE = 'The mailbox check failed on our side. The details are in the server log.';
const describeFailure = (error: unknown) => (error instanceof MailboxUnavailableError ? error.message : CHECK_FAILED_ON_OUR_SIDE);
/** A check's lease, renewed while it runs: a crashed instance's lapses within this. */
const LEASE_MS = 60_000;
/**
 * After recording a mail, how long a check waits for its documents to be stored before moving on; one
 * that takes longer (a scan queue, clamd down) is acknowledged by a later check.
 */
const DEFAULT_SETTLE_WAIT_MS = 15_000;
/** How long a save in Settings waits for the first try of the mailbox it saved before answering. */
const REFRESH_WAIT_MS = 5_000;
/** POST /check answers once the check is done, or after this long with the check still running. */
const CHECK_ANSWER_WAIT_MS = 20_000;
/**
 * While the mailbox is unreachable, a status call tries it again at most this often, so the screens turn
 * Connected once it is back (Start and Check Now wait for a connection, so nothing else would try).
 */
const RECONNECT_PROBE_MS = 30_000;

export type CheckReport = {
  /** Mails read and recorded in this check. */
  recorded: number;
  /** Mails marked read (their documents stored or refused for good). */
  acknowledged: number;
  /** Mails left unread for the next check (still processing, or a failure worth retrying). */
  leftUnread: number;
};

export type MailboxService = {
  status(): Promise<TMailboxStatus>;
  health(): Promise<TServiceHealth>;
  start(): Promise<TMailboxActionResult>;
  stop(): Promise<TMailboxActionResult>;
  /** Runs a check now (or joins the one running) and answers when it is done or has run a while. */
  checkNow(): Promise<TMailboxActionResult>;
  /** One full check; resolves when it is done. A check already running in this process is joined, not doubled. */
  check(): Promise<CheckReport | { skipped: string }>;
  /**
   * The figures and the list of e-mail submissions cover the principal's divisions: a submission counts by
   * its player's registration; one not matched to a player only for a principal of every division.
   */
  stats(range: 'today' | '7d' | '30d', principal: TPrincipal, now?: Date): Promise<TMailboxStats>;
  recent(query: { status: 'all' | 'processed' | 'failed'; limit: number }, principal: TPrincipal): Promise<TMailboxRecent>;
  /** A submission outside the principal's divisions is answered as one that does not exist. */
  retry(submissionId: string, principal: TPrincipal): Promise<TMailboxActionResult>;
  /**
   * Takes up the mailbox in force now (just saved in Settings): what was known of the old one's connection is
   * forgotten and the new one is tried, waiting for that try up to a few seconds, so the next status says how it went.
   */
  refresh(): Promise<void>;
  /** Starts the timer that runs scheduled checks, and a first connection probe. */
  startBackground(): void;
  close(): Promise<void>;
};

export type MailboxServiceDeps = {
  db: Db;
  /**
   * The mailbox in force, asked before each use (Settings → Integrations may change it while the server runs);
   * undefined when none is set up: every call says so, nothing polls.
   */
  client: () => Promise<MailboxClient | undefined>;
  intake: MailIntakeDeps;
  log: Logger;
  /** The interval configured (IMAP_INTERVAL_MS), written to the scheduler state at start. */
  intervalMs?: number;
  settleWaitMs?: number;
  now?: () => Date;
};

/**
 * The mailbox intake: scheduled and on-demand checks of the IMAP mailbox, each mail recorded once and
 * acknowledged (read, moved) only once every attachment is stored or refused for good. The scheduler's
 * state lives in the database, so it survives a restart and is shared by every instance; a lease row
 * makes sure only one instance checks at a time.
 */
export function createMailboxService(deps: MailboxServiceDeps): MailboxService {
  const { db, log } = deps;
  const now = deps.now ?? (() => new Date());
  const owner = `instance-${randomUUID().slice(0, 8)}`;
  const settleWaitMs = deps.settleWaitMs ?? DEFAULT_SETTLE_WAIT_MS;
  let running: Promise<CheckReport | { skipped: string }> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let prepared: Promise<void> | undefined;
  let probing: Promise<void> | undefined;
  let lastProbeAt = 0;
  let firstLook: Promise<void> | undefined;

  const notConfigured = () => new AppError('SERVICE_UNAVAILABLE', MAILBOX_NOT_SET_UP);
  // The mailbox last seen: when it changes (saved in Settings), what was known of the old one's connection is
  // forgotten and the new one is tried at once.
  let known: { client: MailboxClient | undefined } | undefined;
  const currentClient = async (): Promise<MailboxClient | undefined> => {
    const found = await deps.client();
    if (known !== undefined && known.client !== found && found !== undefined && !closed) {
      await updateMailboxState(db, { lastError: null, lastSuccessAt: null });
      void probe(found);
    }
    known = { client: found };
    return found;
  };
  const requireClient = async (): Promise<MailboxClient> => {
    const client = await currentClient();
    if (!client) throw notConfigured();
    return client;
  };
  // The configured interval is the scheduler's until Settings can change it. A write that fails (the
  // database away for a moment) is tried again by the next caller instead of failing every one after it.
  const prepare = () =>
    (prepared ??= deps.intervalMs
      ? updateMailboxState(db, { intervalMs: deps.intervalMs }).then(
          () => undefined,
          (error: unknown) => {
            prepared = undefined;
            throw error;
          },
        )
      : Promise.resolve());

  const noteConnection = async (error: string | null) => {
    const at = now();
    await updateMailboxState(db, error === null ? { lastCheckAt: at, lastSuccessAt: at, lastError: null } : { lastCheckAt: at, lastError: error });
  };
  /**
   * Records a failed check or probe as the mailbox's error, unless the database connection was lost: the
   * mailbox was not the problem, and the status screen would otherwise report the mailbox down until the
   * next successful check.
   */
  const noteFailure = async (error: unknown) => {
    if (isDatabaseUnreachable(error)) return;
    await noteConnection(describeFailure(error));
  };

  async function runCheck(): Promise<CheckReport | { skipped: string }> {
    const mailbox = await requireClient();
    await prepare();
    const renewLease = () => takeCheckLease(db, owner, now(), new Date(now().getTime() + LEASE_MS));
    if (!(await renewLease())) {
      return { skipped: 'another Clearbase instance is checking the mailbox (or one stopped less than a minute ago)' };
    }
    // Renewed while the check runs, so a long check keeps it and a crashed one loses it within LEASE_MS.
    const heartbeat = setInterval(() => void renewLease().catch(() => undefined), LEASE_MS / 3);
    heartbeat.unref();
    const report: CheckReport = { recorded: 0, acknowledged: 0, leftUnread: 0 };
    let session: MailboxSession | undefined;
    try {
      session = await mailbox.open();
      const open = session;
      // First every mail is recorded (or found recorded), then all are waited for at once and each is
      // acknowledged once its documents are stored: the pipeline works on one mail while the next is read.
      const waiting: Array<{ ref: MailRef; submissionId: string }> = [];
      for (const ref of await open.listUnseen()) {
        if (closed) break;
        const outcome = await recordMessage(open, ref);
        if (outcome.kind === 'left') report.leftUnread++;
        else {
          if (outcome.kind === 'recorded') report.recorded++;
          waiting.push({ ref, submissionId: outcome.submissionId });
        }
      }
      const settled = await waitSettled(
        waiting.map((mail) => mail.submissionId),
        settleWaitMs,
      );
      for (const mail of waiting) {
        if (!settled.has(mail.submissionId)) {
          report.leftUnread++;
          continue;
        }
        await open.acknowledge(mail.ref);
        report.acknowledged++;
      }
      await noteConnection(null);
      log.info({ ...report, mailbox: mailbox.description }, 'mailbox checked');
      return report;
    } catch (error) {
      await noteFailure(error).catch(() => undefined);
      log.warn({ err: error, mailbox: mailbox.description }, 'mailbox check failed');
      throw error instanceof MailboxUnavailableError ? new AppError('SERVICE_UNAVAILABLE', error.message) : error;
    } finally {
      clearInterval(heartbeat);
      await session?.close().catch(() => undefined);
      await releaseCheckLease(db, owner).catch(() => undefined);
    }
  }

  /**
   * One unread mail into a submission. Recorded already (an earlier check, another instance, before a
   * crash, or a copy delivered again)? Then only its id is wanted, to acknowledge it once its documents are
   * settled. A failure that a retry may cure leaves it unread; a lost connection ends the check.
   *
   * A mail is the one recorded only when its Message-ID and its content agree (mail-identity.ts). A
   * Message-ID never seen needs no more; one seen before needs the mail's bytes to tell whether this is that
   * mail again or another reusing its Message-ID, so it is read once to hash it, staging nothing.
   */
  async function recordMessage(
    session: MailboxSession,
    ref: MailRef,
  ): Promise<{ kind: 'recorded' | 'known'; submissionId: string } | { kind: 'left' }> {
    const seen = ref.messageId ? await findMailSubmissionsByMessageId(db, ref.messageId) : [];
    // Recorded before content hashes were kept: taken to be this mail, as it was then.
    const recordedBare = seen.find((submission) => submission.externalId === ref.messageId);
    if (recordedBare) return { kind: 'known', submissionId: recordedBare.id };
    try {
      if (seen.length > 0) {
        const externalId = await externalIdOf(session, ref);
        const same = seen.find((submission) => submission.externalId === externalId);
        if (same) return { kind: 'known', submissionId: same.id };
      }
      const raw = await session.download(ref);
      const result = await receiveMail(deps.intake, raw, { receivedAt: now() });
      return { kind: result.created ? 'recorded' : 'known', submissionId: result.submissionId };
    } catch (error) {
      if (error instanceof MailboxUnavailableError) throw error;
      log.warn({ err: error, uid: ref.uid, messageId: ref.messageId }, 'could not record an e-mail; it stays unread and is tried again');
      return { kind: 'left' };
    }
  }

  /** The external id a mail in the mailbox is recorded under, from its bytes (read through, nothing staged). */
  async function externalIdOf(session: MailboxSession, ref: MailRef): Promise<string> {
    try {
      return mailExternalId(await identifyMessage(await session.download(ref), maxMessageBytes(deps.intake.maxFileBytes)));
    } catch (error) {
      if (error instanceof MailTooLargeError) return mailExternalId(error.headers);
      throw error;
    }
  }

  /** Which of these submissions have all their documents stored or refused for good, waiting up to `waitMs`. */
  async function waitSettled(submissionIds: readonly string[], waitMs: number): Promise<Set<string>> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      // A submission gone since (replaced by a retry) counts as settled, as one no longer pending.
      const pending = await findPendingSubmissionIds(db, submissionIds);
      if (pending.size === 0 || Date.now() >= deadline || closed) return new Set(submissionIds.filter((id) => !pending.has(id)));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * The mail in the mailbox a submission was recorded from: of the mails with its Message-ID, the one whose
   * content gives its external id (any of them for a submission recorded before content hashes were kept).
   */
  async function findMailOf(session: MailboxSession, messageId: string, externalId: string): Promise<MailRef | undefined> {
    const refs = await session.findByMessageId(messageId);
    if (contentHashOfExternalId(externalId) === null) return refs[0];
    for (const ref of refs) if ((await externalIdOf(session, ref)) === externalId) return ref;
    return undefined;
  }

  const check = () => {
    running ??= runCheck().finally(() => {
      running = undefined;
    });
    return running;
  };

  /** Opens and closes a session, recording whether the mailbox can be reached. */
  const probe = (mailbox: MailboxClient) => {
    lastProbeAt = Date.now();
    probing ??= (async () => {
      await prepare();
      const session = await mailbox.open();
      await session.close();
      await noteConnection(null);
    })()
      .catch(async (error: unknown) => {
        if (!(error instanceof MailboxUnavailableError)) log.warn({ err: error }, 'mailbox probe failed');
        await noteFailure(error).catch(() => undefined);
      })
      .finally(() => {
        probing = undefined;
      });
    return probing;
  };

  async function tick(): Promise<void> {
    if (closed || running) return;
    if (!(await currentClient())) return;
    const state = await getMailboxState(db);
    if (!state.schedulerRunning) return;
    const due = !state.lastCheckAt || now().getTime() - state.lastCheckAt.getTime() >= state.intervalMs;
    if (due) await check();
  }

  async function readStatus(): Promise<TMailboxStatus> {
    await prepare();
    const client = await currentClient();
    const state = await getMailboxState(db);
    const unreachable = state.lastError !== null || state.lastSuccessAt === null;
    if (client && unreachable && !running && !closed && Date.now() - lastProbeAt >= RECONNECT_PROBE_MS) void probe(client);
    return {
      configured: client !== undefined,
      connection: client !== undefined && state.lastSuccessAt !== null && state.lastError === null,
      error: client ? state.lastError : null,
      scheduler: { isRunning: client !== undefined && state.schedulerRunning, intervalMs: state.intervalMs || MAILBOX_DEFAULT_INTERVAL_MS },
      lastCheckAt: state.lastCheckAt?.toISOString() ?? null,
      checking: running !== undefined,
    };
  }
  // Every open dashboard asks for the mailbox's status: identical calls while one runs share its answer.
  const statusReads = sharedReads<'status', TMailboxStatus>();

  return {
    status() {
      return statusReads.read('status', readStatus);
    },

    async health() {
      const client = await currentClient();
      if (!client) return { status: 'warning', message: MAILBOX_NOT_SET_UP };
      const state = await getMailboxState(db);
      if (state.lastError) return { status: 'error', message: state.lastError };
      if (!state.lastSuccessAt) return { status: 'warning', message: `Not checked yet: ${client.description}` };
      return { status: 'ok', message: `Connected to ${client.description}` };
    },

    async start() {
      await requireClient();
      await prepare();
      await updateMailboxState(db, { schedulerRunning: true });
      // The first scheduled check runs on the next tick; Check Now runs one at once.
      void tick().catch((error: unknown) => log.warn({ err: error }, 'scheduled mailbox check failed'));
      return { ok: true, message: 'Mailbox checks started' };
    },

    async stop() {
      await requireClient();
      await updateMailboxState(db, { schedulerRunning: false });
      return { ok: true, message: 'Mailbox checks stopped' };
    },

    async checkNow() {
      await requireClient();
      const checking = check();
      const answer = await Promise.race([
        checking.then((outcome) => ('skipped' in outcome ? `Not checked: ${outcome.skipped}.` : `Checked: ${outcome.recorded} new, ${outcome.acknowledged} handled.`)),
        new Promise<string>((resolve) => setTimeout(() => resolve('The check is still running.'), CHECK_ANSWER_WAIT_MS).unref()),
      ]);
      return { ok: true, message: answer };
    },

    check,

    async stats(range, principal, at = now()) {
      return mailboxStats(db, rangeStart(range, at), principal.divisions);
    },

    async recent(query, principal) {
      return { submissions: await listMailboxSubmissions(db, query, principal.divisions) };
    },

    async retry(submissionId, principal) {
      const mailbox = await requireClient();
      const submission = await findSubmission(db, submissionId);
      if (!submission || submission.source !== 'mailbox' || !(await isSubmissionInScope(db, submissionId, principal.divisions))) {
        throw new AppError('NOT_FOUND', 'No e-mail submission with this id.');
      }
      if (submission.status !== 'failed') throw new AppError('CONFLICT', 'Only a failed e-mail submission can be retried.');
      const messageId = messageIdOfExternalId(submission.externalId);
      if (messageId === null) {
        throw new AppError('CONFLICT', 'This e-mail has no Message-ID, so it cannot be found in the mailbox again; ask the sender to resend it.');
      }
      const session = await mailbox.open().catch((error: unknown) => {
        if (!(error instanceof MailboxUnavailableError)) log.warn({ err: error }, 'could not open the mailbox to retry an e-mail');
        throw new AppError('SERVICE_UNAVAILABLE', describeFailure(error), undefined, { cause: error });
      });
      try {
        const ref = await findMailOf(session, messageId, submission.externalId);
        if (!ref) throw new AppError('CONFLICT', 'The e-mail is no longer in the mailbox; ask the sender to resend it.');
        const result = await receiveMail(deps.intake, await session.download(ref), { receivedAt: now(), replaces: submission.id });
        if ((await waitSettled([result.submissionId], settleWaitMs)).size === 1) await session.acknowledge(ref);
        const after = await findSubmission(db, result.submissionId);
        return {
          ok: true,
          message: after?.status === 'failed' ? `Retried, and it failed again: ${after.errorMessage ?? 'unknown reason'}` : 'Retried: the e-mail was processed.',
        };
      } catch (error) {
        if (error instanceof MailboxUnavailableError) throw new AppError('SERVICE_UNAVAILABLE', error.message);
        throw error;
      } finally {
        await session.close().catch(() => undefined);
      }
    },

    async refresh() {
      await currentClient();
      const tried = probing;
      if (!tried) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([tried, new Promise<void>((resolve) => (timer = setTimeout(resolve, REFRESH_WAIT_MS)))]);
      clearTimeout(timer);
    },

    startBackground() {
      if (timer) return;
      // Ticks while no mailbox is set up too: one saved in Settings is checked without a restart.
      timer = setInterval(() => void tick().catch((error: unknown) => log.warn({ err: error }, 'scheduled mailbox check failed')), TICK_MS);
      timer.unref();
      // A first look, so the screens can say Connected or why not without waiting for a check.
      firstLook = currentClient()
        .then((client) => (client && !closed ? probe(client) : undefined))
        .catch((error: unknown) => log.warn({ err: error }, 'could not read the mailbox settings'));
    },

    async close() {
      closed = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
      await firstLook;
      await probing;
    },
  };
}

/** The start of a stats range: today from midnight UTC, or the last 7 or 30 days. */
export function rangeStart(range: 'today' | '7d' | '30d', now: Date): Date {
  if (range === 'today') return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return new Date(now.getTime() - (range === '7d' ? 7 : 30) * 86_400_000);
}
