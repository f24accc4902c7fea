import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createLocalStorage } from './adapters/storage/local-storage';
import { openStorage } from './adapters/storage/open-storage';
import type { Storage } from './adapters/storage/port';
import { ConfigError, loadConfig, type Config } from './platform/config';
import { makeDataFolder } from './platform/data-folder';
import { loadMasterKey } from './platform/crypto/master-key';
import { openDatabase, pingDatabase, type Database } from './platform/db/client';
import { createNotifyChannel } from './platform/db/notify';
import { DEMO_DEFAULTS, seedDemoDataIfEmpty } from './demo';
import { createClamdAntivirus } from './adapters/antivirus/clamd';
import { scanningHealthCheck, withFailedScanCount,
  checkHealth,
  databaseCheck,
  formWebhookCheck,
  notConfiguredCheck,
  storageCheck,
  VIRUS_SCANNER_NOT_SET_UP,
  withLastBackup,
  withMasterKeyBackup } from './health';
import { createMasterKeyBackupService } from './master-key';
import { createNightlyBackups } from './backup';
import { REQUIREMENT_DAY_QUEUE, createRequirementDayHandler, startRequirementDay } from './requirements';
import { createDocumentReader, createReadDocumentHandler, READ_DOCUMENT_QUEUE, wordKey } from './reading';
import { countDocumentsAwaitingFailedScan, createMinimiseHandler, createRetentionHandler, MINIMISE_QUEUE, RETENTION_QUEUE, scheduleMinimise, scheduleRetention, createDocumentsService } from './documents';
import { buildApp } from './app';
import { createSiteGuard } from './platform/http/site';
import { createImapMailbox, testImapConnection } from './adapters/mailbox/imap-mailbox';
import { createFormSecret, createIntakeThreads, createIntegrationsService, createMailboxService, createMailboxSettings, PROVIDERS, type MailboxService } from './intake';
import { createJobRunner, type JobRunner } from './platform/jobs/job-runner';
import { createProcessDocumentHandler, DEFAULT_SCAN_RETRY, type ScanRetryPolicy, createStagingSweeperTimer, PROCESS_DOCUMENT_QUEUE, REFUSED_FILES_NOTICE_QUEUE } from './pipeline';
import { createEraseFilesHandler, createFamilyDataService, createPlayersService, ERASE_FILES_QUEUE } from './players';
import { createEligibilityService, createReportsService, createSeasonReportService } from './reports';
import { createSeasonsService } from './seasons';
import { createSettingsService, createSystemSettingsCache, SETTINGS_RECHECK_MS } from './settings';
import { JOB_PAYLOADS, SCANNING_OFF_MESSAGE, SYSTEM_SETTINGS_DEFAULTS } from '../contract';
import { createUsersService } from './users';
import { createUploadLinksService, uploadLinkOrigin as originForLinks } from './upload-links';
import {
  createNotificationSendHandler,
  createNotificationsService,
  createReminderHandler,
  NOTIFICATION_SEND_QUEUE,
  REMINDERS_QUEUE,
  scheduleReminders,
  seedDefaultNotificationTemplates,
  sendAccountMail,
} from './notifications';
import { createSmtpTransportFactory } from './adapters/mail/smtp-transport';
import { createWebhookCheck, createWebhookPoster } from './adapters/chat/webhook';
import path from 'node:path';
import { createHealthWatch, createLiveHub, createLiveBus } from './live';
import { createLogger, logFormatFor, type Logger } from './platform/logger';
import {
  bootstrapPassword,
  createAccountService,
  createAccountThrottle,
  createAuthService,
  createLoginThrottle,
  createSessionSignals,
  deleteExpiredTokens,
  deriveAccountKey,
  deriveAddressKey,
  hasActiveAdminWithPassword,
  type PasswordBootstrap,
} from './auth';

const WEB_DIR = fileURLToPath(new URL('../../dist/web', import.meta.url));
const SESSION_PURGE_INTERVAL_MS = 10 * 60_000;
/** The LISTEN/NOTIFY channel every instance on one database shares for live events. */
const LIVE_CHANNEL = 'clearbase_live';
/** The channel that tells every instance a person's sessions ended or changed (ids only), so none trusts what it remembers. */
const SESSIONS_CHANNEL = 'clearbase_sessions';
const HEALTH_WATCH_INTERVAL_MS = 30_000;
const STAGING_SWEEP_INTERVAL_MS = 15 * 60_000;
/** Far longer than any intake request takes between staging a file and committing its submission. */
const STAGING_GRACE_MS = 60 * 60_000;

export type Clearbase = {
  app: FastifyInstance;
  jobRunner: JobRunner;
  /** The reading lane's runner: one worker reading stored documents' text. */
  readingRunner: JobRunner;
  mailbox: MailboxService;
  database: Database;
  passwordBootstrap: PasswordBootstrap;
  close(): Promise<void>;
};

export type CreateOptions = {
  /** An already-open database (tests bring their own); otherwise the one `config` names is opened. */
  database?: Database;
  /** Where the built web app is; defaults to dist/web. */
  webDir?: string;
  /** Pipeline workers start with the server unless a test wants to drive them itself. */
  startWorkers?: boolean;
  /**
   * Stored documents are read (OCR) unless a test that is not about reading leaves it out: the readings it
   * queues then wait, and the machine's cores go to what the test measures.
   */
  readDocuments?: boolean;
  /** How long a mailbox check waits for a mail's documents to be stored before leaving it for the next. */
  mailboxSettleWaitMs?: number;
  /** How many matches the long lists (Documents, notification History) count exactly before they estimate; tests lower it to reach the estimate. */
  listCountCap?: number;
  /** Tests drive the job runner's clock and polling, and the timings of failed virus scans' retries. */
  jobs?: { now?: () => Date; pollMs?: number; scanRetry?: ScanRetryPolicy };
  /** How long a storage probe that passed answers for health (STORAGE_PROBE_FRESH_MS); 0 probes on every call. */
  storageProbeFreshMs?: number;
  /** age's scrypt work factor for the nightly backup (tests use a small one; default 18, as npm run backup). */
  backupWorkFactor?: number;
};

/** The composition root: the only place that creates adapters and hands them to services. */
export async function createClearbase(config: Config, log: Logger, options: CreateOptions = {}): Promise<Clearbase> {
  await makeDataFolder(config.dataDir);
  if (config.database.kind === 'pglite' && config.database.because) {
    log.info({ reason: config.database.because }, 'the embedded database is PGlite');
  }
  const masterKey = await loadMasterKey(config.masterKey, config.masterKeyFile);
  if (masterKey.source === 'created') {
    log.warn({ file: config.masterKeyFile }, 'created a new master key: back this file up, files cannot be decrypted without it');
  }

  // A database handed in belongs to the caller, who closes it; one opened here is closed by close().
  const ownsDatabase = options.database === undefined;
  const database = options.database ?? (await openDatabase(config.database));
  const { db } = database;

  const storage = await openStorage(config.storage);
  if (config.demo) {
    // Every demo document gets a real file in the configured storage, so it can be opened and reviewed.
    // Written to local storage without fsync: a thousand fsyncs cost seconds of the first start, and a crash
    // of the machine (never of the process) right after it could lose only demo files. The embedded
    // database does not fsync either.
    const demoStorage = config.storage.driver === 'local' ? createLocalStorage(config.storage.dir, { durable: false }) : storage;
    const files = { storage: demoStorage, masterKey: masterKey.key };
    const seeded = await seedDemoDataIfEmpty(db, { ...DEMO_DEFAULTS, idPrefix: config.idPrefix, now: new Date(), files });
    if (seeded.seeded) log.info({ counts: seeded.counts }, 'seeded demo data into the empty database');
  }
  if (await seedDefaultNotificationTemplates(db)) log.info('added the default notification templates');

  const password = await bootstrapPassword(db, config.password);
  // System Settings, read through a per-instance cache of SETTINGS_RECHECK_MS. A session timeout saved there
  // wins; until one is saved, CLEARBASE_SESSION_TIMEOUT_MINUTES applies.
  const settingsDefaults = { ...SYSTEM_SETTINGS_DEFAULTS, sessionTimeoutMinutes: config.sessionTimeoutMinutes };
  const systemSettings = createSystemSettingsCache({ db, defaults: settingsDefaults });
  // Counted in the database: every instance on it shares the one limit per address.
  const loginThrottle = createLoginThrottle({ db, attemptsPerWindow: config.loginRateLimitPerMinute, addressKey: deriveAddressKey(masterKey.key) });
  const signInMode = async () => (await systemSettings.current()).signInMode;
  const requireTwoFactorForAdmins = async () => (await systemSettings.current()).requireTwoFactorForAdmins;
  const auth = createAuthService({
    db,
    passwordHash: password.hash,
    sessionTimeoutMinutes: async () => (await systemSettings.current()).sessionTimeoutMinutes,
    requireTwoFactorForAdmins,
    signInMode,
    loginThrottle,
    // In the same table, purged with the per-address counts.
    accountThrottle: createAccountThrottle({ db, accountKey: deriveAccountKey(masterKey.key) }),
    masterKey: masterKey.key,
  });
  const hub = createLiveHub(log);
  // A person deactivated, signed out everywhere or changed on any instance: every instance forgets their
  // sessions at once (and closes their live connections when the sessions ended).
  const signals = createSessionSignals({
    channel: await createNotifyChannel(database, SESSIONS_CHANNEL, { log: (level, message, err) => log[level]({ err }, message) }),
    auth,
    hub,
    log,
  });
  const account = createAccountService({ db, masterKey: masterKey.key, auth, signals, requireTwoFactorForAdmins });
  // Services publish to the bus: it reaches this instance's sockets and every other instance's, once each.
  const liveChannel = await createNotifyChannel(database, LIVE_CHANNEL, {
    log: (level, message, err) => log[level]({ err }, message),
  });
  const live = createLiveBus({ hub, channel: liveChannel, log });
  const antivirus = config.clamdUrl ? createClamdAntivirus({ url: config.clamdUrl }) : undefined;
  const jobClock = options.jobs?.now ?? (() => new Date());
  const scanRetry = options.jobs?.scanRetry ?? DEFAULT_SCAN_RETRY;
  // Settings → Security: the master key's recovery sheet, once per key, and whether it has been confirmed.
  const masterKeyBackup = createMasterKeyBackupService({ db, masterKey: masterKey.key, site: config.publicUrl?.origin });
  const healthChecks = {
    // A database handed in is described by its engine; one opened here by what the settings chose.
    database: databaseCheck(() => pingDatabase(db), ownsDatabase ? config.database.kind : database.kind),
    // Storage holds the files only the master key opens: a warning until the key has been backed up.
    s3: withLastBackup(
      withMasterKeyBackup(
        storageCheck(storage, { freshForMs: options.storageProbeFreshMs }),
        () => masterKeyBackup.backedUp(),
        (error) => log.warn({ err: error, service: 's3' }, 'could not read whether the master key was backed up'),
      ),
      () => backups.state(),
      () => new Date(),
      (error) => log.warn({ err: error, service: 's3' }, 'could not read the last backup'),
    ),
    form: formWebhookCheck(() => formSecret.current()),
    gmail: () => mailbox.health(),
    antivirus: withFailedScanCount(
      scanningHealthCheck({
        scanningOn: async () => (await systemSettings.current()).antivirusScanning,
        antivirus,
        whenOff: () => Promise.resolve({ status: 'warning', message: SCANNING_OFF_MESSAGE }),
        whenNotConfigured: notConfiguredCheck(VIRUS_SCANNER_NOT_SET_UP),
      }),
      () => countDocumentsAwaitingFailedScan(db, new Date(jobClock().getTime() - scanRetry.budgetMs)),
      (error) => log.warn({ err: error, service: 'antivirus' }, 'health check failed'),
    ),
  };

  // Files kept locally before S3 was configured stay readable, and movable to S3.
  const localStorage = storage.driver === 'local' ? storage : createLocalStorage(path.join(config.dataDir, 'storage'));
  // An object is looked up under the driver it was stored with: a document on S3 while S3 is not configured
  // is an error (retention retries, a download says so), never "missing" from a local folder it was never in.
  const storageForDriver = (driver: 'local' | 's3'): Storage => {
    if (driver === storage.driver) return storage;
    if (driver === 'local') return localStorage;
    throw new Error('the document is on S3 storage, which is not configured');
  };
  // Settings → System → Backups: the nightly backup the server makes itself, when it was given a passphrase.
  const backups = createNightlyBackups({
    db,
    storage,
    storageFor: storageForDriver,
    passphrase: config.backupPassphrase,
    // A schedule may name a folder in a bucket (s3://bucket/folder), reached with the S3 settings given.
    openBucket: (bucket) => openStorage({ driver: 's3', bucket, ...config.s3 }),
    log,
    ...(options.backupWorkFactor === undefined ? {} : { workFactor: options.backupWorkFactor }),
  });

  // Outgoing notifications: SMTP and chat webhooks behind their ports, settings and switches read per batch.
  const notificationDelivery = {
    db,
    masterKey: masterKey.key,
    environmentSmtp: config.smtp,
    checkChatWebhook: createWebhookCheck({ allowHttpLoopback: config.webhookAllowHttpLoopback }),
    openMail: createSmtpTransportFactory({ timeoutMs: config.notificationTimeoutMs }),
    postChat: createWebhookPoster({ allowHttpLoopback: config.webhookAllowHttpLoopback, timeoutMs: config.notificationTimeoutMs }),
  };

  // Where families' upload links point: CLEARBASE_PUBLIC_URL, else the staff request's origin, else the listen address.
  const listenOrigin = originForLinks(undefined, { host: config.host, port: config.port });
  const uploadLinkOrigin = (requestOrigin?: string): string => config.publicUrl?.origin ?? requestOrigin ?? listenOrigin;

  // Reading documents has a lane of its own, one document at a time in one reader process: a long OCR never
  // holds up the pipeline's workers, and the machine keeps a core for everything else.
  const { [READ_DOCUMENT_QUEUE]: readDocumentPayload, ...pipelineQueues } = JOB_PAYLOADS;
  // Its start and end are logged: the process and its tesseract hold a few hundred MB while they live.
  const reader = createDocumentReader({
    onProcess: (event) => log.info(event.type === 'started' ? {} : { why: event.why }, event.type === 'started' ? 'reader process started' : 'reader process ended'),
  });
  const readingRunner = createJobRunner({
    db,
    log,
    workers: 1,
    staleAfterMs: config.pipelineStaleAfterMs,
    now: jobClock,
    ...(options.jobs?.pollMs === undefined ? {} : { pollMs: options.jobs.pollMs }),
    catalogue: { [READ_DOCUMENT_QUEUE]: readDocumentPayload },
    handlers: {
      [READ_DOCUMENT_QUEUE]: createReadDocumentHandler({
        db,
        storageFor: storageForDriver,
        masterKey: masterKey.key,
        wordKey: wordKey(masterKey.key),
        reader,
        live,
        log,
        now: jobClock,
      }),
    },
  });

  const jobRunner = createJobRunner({
    db,
    log,
    workers: config.pipelineWorkers,
    staleAfterMs: config.pipelineStaleAfterMs,
    now: jobClock,
    ...(options.jobs?.pollMs === undefined ? {} : { pollMs: options.jobs.pollMs }),
    catalogue: pipelineQueues,
    handlers: {
      [PROCESS_DOCUMENT_QUEUE]: createProcessDocumentHandler({
        db,
        storage,
        // Asked per job: scanning turned off in Settings stores files unscanned (the health check says so).
        scanner: async () => ((await systemSettings.current()).antivirusScanning ? antivirus : undefined),
        masterKey: masterKey.key,
        live,
        log,
        retentionYears: config.retentionYears,
        scanRetry,
        now: jobClock,
        reading: { on: async () => (await systemSettings.current()).documentReading, queued: () => readingRunner.poke() },
      }),
      [RETENTION_QUEUE]: createRetentionHandler({ db, storageFor: storageForDriver, log }),
      [MINIMISE_QUEUE]: createMinimiseHandler({ db, storageFor: storageForDriver, log, now: jobClock }),
      [ERASE_FILES_QUEUE]: createEraseFilesHandler({ db, storageFor: storageForDriver, log }),
      [NOTIFICATION_SEND_QUEUE]: createNotificationSendHandler(notificationDelivery),
      [REQUIREMENT_DAY_QUEUE]: createRequirementDayHandler({ db, log, now: jobClock }),
      [REMINDERS_QUEUE]: createReminderHandler({ ...notificationDelivery, log, uploadLinkOrigin: () => uploadLinkOrigin(), now: jobClock }),
      // Queued by the pipeline with a submission that has refused files; the notifications module tells the family.
      [REFUSED_FILES_NOTICE_QUEUE]: async (notice) => {
        await notifications.notifyFilesRefused(notice);
        return { kind: 'done' };
      },
    },
  });
  const notifications = createNotificationsService({ ...notificationDelivery, log, pokeJobs: () => jobRunner.poke(), uploadLinkOrigin, historyCountCap: options.listCountCap });

  let backupTimer: { stop(): Promise<void> } | undefined;
  const stagingSweeper = createStagingSweeperTimer({ db, storage, log, intervalMs: STAGING_SWEEP_INTERVAL_MS, graceMs: STAGING_GRACE_MS });

  const documents = createDocumentsService({
    db,
    storage,
    storageFor: storageForDriver,
    masterKey: masterKey.key,
    wordKey: wordKey(masterKey.key),
    live,
    onRecorded: () => jobRunner.poke(),
    notifyRejected: (documentId, reason) => notifications.notifyDocumentRejected(documentId, reason),
    listCountCap: options.listCountCap,
  });

  const reports = createReportsService({ db, storageFor: storageForDriver });
  const seasonReport = createSeasonReportService({ db });
  const eligibility = createEligibilityService({ db });
  const seasons = createSeasonsService({ db });
  const players = createPlayersService({ db, idPrefix: config.idPrefix });
  const familyData = createFamilyDataService({ db, storage, storageFor: storageForDriver, masterKey: masterKey.key, pokeJobs: () => jobRunner.poke(), now: jobClock });
  const users = createUsersService({
    db,
    accounts: account,
    signals,
    signInMode,
    publicUrl: config.publicUrl,
    sendMail: (mail) => sendAccountMail({ ...notificationDelivery, log }, mail),
    log,
  });

  // The mailbox of the IMAP_* variables where IMAP_HOST is set, else the one saved in Settings → Integrations (decision 026).
  const mailboxSettings = createMailboxSettings({
    db,
    masterKey: masterKey.key,
    environment: config.imap,
    createClient: createImapMailbox,
    testConnection: testImapConnection,
  });
  const mailbox = createMailboxService({
    db,
    client: () => mailboxSettings.client(),
    intake: { db, storage, masterKey: masterKey.key, idPrefix: config.idPrefix, maxFileBytes: config.maxFileBytes, onRecorded: () => jobRunner.poke() },
    log,
    intervalMs: config.imap?.intervalMs,
    settleWaitMs: options.mailboxSettleWaitMs,
  });

  // FORM_WEBHOOK_SECRET where set, else a secret generated on first use and kept sealed in the settings (decision 026).
  const formSecret = createFormSecret({ db, masterKey: masterKey.key, environment: config.formWebhookSecret });
  // Whether the default secret is set, never the secret itself: the screen says which secret is in force.
  const integrations = createIntegrationsService({ db, masterKey: masterKey.key, defaultSecretSet: config.formWebhookSecret !== undefined });

  // Started by the first upload and ended when idle: a server nobody uploads to holds none.
  const intakeThreads = createIntakeThreads({
    masterKey: masterKey.key,
    threads: config.intakeThreads,
    log,
    onThread: (event) => log.info({ thread: event.thread }, event.type === 'started' ? 'intake thread started' : 'intake thread ended'),
  });

  const settings = createSettingsService({
    db,
    accounts: { hasUsableAdmin: () => hasActiveAdminWithPassword(db), endSharedSessions: (actor) => account.endSharedSessions(actor) },
    cache: systemSettings,
    defaults: settingsDefaults,
    hub,
    facts: {
      storage: { driver: storage.driver, location: storage.location },
      clamdLocation: antivirus?.location,
      retentionYears: config.retentionYears,
      maxFileBytes: config.maxFileBytes,
      idPrefix: config.idPrefix,
      // Always: without FORM_WEBHOOK_SECRET, a secret is generated on first use.
      formWebhookConfigured: true,
      mailbox: async () => {
        const status = await mailbox.status();
        return { configured: status.configured, intervalMs: status.configured ? status.scheduler.intervalMs : null };
      },
    },
  });

  // What the signed form webhook and the form builders' webhooks share: where files go, how they are fetched, the limits.
  const webhookIntake = {
    db,
    storage,
    masterKey: masterKey.key,
    idPrefix: config.idPrefix,
    maxFileBytes: config.maxFileBytes,
    onRecorded: () => jobRunner.poke(),
    filePolicy: {
      allowedHosts: config.formFileHosts,
      allowHttpLoopback: config.formFileAllowHttpLoopback,
      timeoutMs: 30_000,
      // Well inside the staging sweep's grace (STAGING_GRACE_MS): a request never outlives its staged files.
      deadlineMs: 5 * 60_000,
      maxRedirects: 3,
    },
    bodyTimeoutMs: config.formWebhookBodyTimeoutMs,
    rateLimitPerMinute: config.formWebhookRateLimitPerMinute,
  };
  // Families' upload links: expiry from System Settings, read per issue; addresses at CLEARBASE_PUBLIC_URL when set.
  const uploadLinks = createUploadLinksService({
    db,
    publicUrl: config.publicUrl,
    uploadLinkDays: async () => (await systemSettings.current()).uploadLinkDays,
  });
  const app = await buildApp({
    log,
    auth,
    signIn: { signInMode },
    account,
    site: createSiteGuard({ publicUrl: config.publicUrl, listenHost: config.host }),
    settings,
    masterKeyBackup,
    backups,
    hub,
    health: () => checkHealth(healthChecks, { log }),
    trustProxy: config.trustProxy,
    webDir: options.webDir ?? WEB_DIR,
    maxFileBytes: config.maxFileBytes,
    documents,
    mailbox,
    integrations,
    formSecret,
    mailboxSettings,
    reports,
    seasonReport,
    eligibility,
    seasons,
    players,
    familyData,
    users,
    notifications,
    intake: { ...webhookIntake, secret: () => formSecret.current(), threads: intakeThreads },
    uploadLinks,
    family: {
      db,
      storage,
      masterKey: masterKey.key,
      idPrefix: config.idPrefix,
      maxFileBytes: config.maxFileBytes,
      onRecorded: () => jobRunner.poke(),
      uploadLinks,
      bodyTimeoutMs: config.formWebhookBodyTimeoutMs,
      rateLimitPerMinute: config.formWebhookRateLimitPerMinute,
    },
    providers: { ...webhookIntake, defaultSecret: config.formWebhookSecret, providers: PROVIDERS, log },
  });
  // Every instance polls the same services, so each tells only its own sockets (hub, not bus): through the
  // bus, N instances would announce each change N times.
  const healthWatch = createHealthWatch({ check: () => checkHealth(healthChecks, { log }), live: hub, intervalMs: HEALTH_WATCH_INTERVAL_MS, log });
  // The queued job lives in the database: any instance's workers may run it.
  await scheduleRetention(db, new Date());
  await scheduleMinimise(db, new Date());
  await scheduleReminders(db, new Date());
  await startRequirementDay(db, jobClock());
  if (options.startWorkers !== false) {
    jobRunner.start();
    if (options.readDocuments !== false) readingRunner.start();
    stagingSweeper.start();
    backupTimer = backups.startTimer();
    mailbox.startBackground();
    healthWatch.start();
  }

  const purgeTimer = setInterval(() => {
    auth.purgeExpiredSessions().catch((error: unknown) => log.warn({ err: error }, 'could not purge expired sessions'));
    loginThrottle.purge().catch((error: unknown) => log.warn({ err: error }, 'could not purge ended login attempt counts'));
    deleteExpiredTokens(db, new Date()).catch((error: unknown) => log.warn({ err: error }, 'could not purge expired invitation links'));
  }, SESSION_PURGE_INTERVAL_MS);
  purgeTimer.unref();
  // Real-time updates turned off on another instance: end this one's live connections within the cache's time.
  const realtimeTimer = setInterval(() => {
    settings.enforceRealtime().catch((error: unknown) => log.warn({ err: error }, 'could not read the real-time updates setting'));
  }, SETTINGS_RECHECK_MS);
  realtimeTimer.unref();

  return {
    app,
    jobRunner,
    readingRunner,
    mailbox,
    database,
    passwordBootstrap: password.bootstrap,
    async close() {
      clearInterval(purgeTimer);
      clearInterval(realtimeTimer);
      await healthWatch.stop();
      hub.closeAll();
      await app.close();
      await mailbox.close();
      await intakeThreads.close();
      await jobRunner.stop();
      await readingRunner.stop();
      await reader.close();
      await stagingSweeper.stop();
      await backupTimer?.stop();
      // After the workers (a job finishing now still publishes), before the database its session lives on.
      await live.close();
      await signals.close();
      if (ownsDatabase) await database.close();
    },
  };
}

/** Shown once, on the start that generated the password; only its hash is kept. */
function printGeneratedPassword(password: string): void {
  const lines = [
    '',
    '  ┌──────────────────────────────────────────────────────────────┐',
    '  │ Clearbase generated the shared system password:              │',
    `  │   ${password.padEnd(59)}│`,
    '  │ It is shown only this once; only its hash is stored.         │',
    '  │ Set CLEARBASE_PASSWORD to choose your own.                   │',
    '  └──────────────────────────────────────────────────────────────┘',
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

/** Starts the server as `npm start` does; a test's entry script may pass the options a test needs. */
export async function runMain(options: CreateOptions = {}): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee the configuration table in README.md.\n`);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config.logLevel, undefined, logFormatFor(config.logFormat, process.stdout.isTTY));
  const clearbase = await createClearbase(config, log, options);
  if (clearbase.passwordBootstrap.kind === 'generated') printGeneratedPassword(clearbase.passwordBootstrap.password);

  await clearbase.app.listen({ host: config.host, port: config.port });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  log.info(
    { startupMs: Math.round(performance.now()), database: clearbase.database.kind },
    `Clearbase is listening on http://${shownHost}:${config.port}`,
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    log.info({ signal }, 'shutting down');
    clearbase
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  runMain().catch((error: unknown) => {
    process.stderr.write(`Clearbase could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
