import { ZBackupResult, ZBackupSchedule, type TBackupResult, type TBackupSchedule, type TBackupState } from '../../contract';
import type { Storage } from '../adapters/storage/port';
import { recordAuditEvent, type Actor, type AuditActor } from '../audit';
import { AppError } from '../platform/errors';
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/logger';
import { getSetting, putSetting } from '../settings';
import { claimNight, deleteSetting } from './backup.repository';
import { describeFailure } from './describe-failure';
import { DestinationError, openDestination, type OpenBucket } from './destination';
import { pruneArchives, writeBackup } from './retention';

/**
 * The backup the server makes itself, once a night at the hour Settings → System says, into the folder it
 * names, the newest N kept: the archive `npm run backup` writes (archive-file.ts), read from the server's own
 * database connection (so PGlite, which allows one process, is backed up too), encrypted with the passphrase
 * the server was given (CLEARBASE_BACKUP_PASSPHRASE; never stored). The schedule and the last result are
 * kept in the settings table; one instance makes each night's backup (the night is claimed in the database).
 */

export const SCHEDULE_KEY = 'backup.schedule';
export const LAST_KEY = 'backup.last';
const CLAIM_KEY = 'backup.claimed';
/** How often the server looks whether the night's backup is due. */
export const BACKUP_CHECK_MS = 5 * 60_000;

export type NightlyBackupDeps = {
  db: Db;
  storage: Storage;
  storageFor: (driver: 'local' | 's3') => Storage;
  passphrase: string | undefined;
  /** How a schedule's `s3://bucket/folder` is reached; absent, only folders on this machine are. */
  openBucket?: OpenBucket;
  log: Logger;
  now?: () => Date;
  /** age's scrypt work factor (tests use a small one); default 18. */
  workFactor?: number;
};

export type NightlyBackups = {
  state(): Promise<TBackupState>;
  setSchedule(schedule: TBackupSchedule | null, actor: Actor): Promise<TBackupState>;
  /** Starts a backup now; resolves once it has started (the state says running). */
  runNow(actor: Actor): Promise<TBackupState>;
  /** Makes the night's backup when it is due (the timer calls it). */
  runIfDue(): Promise<void>;
  /** Resolves once a backup under way has ended. */
  settled(): Promise<void>;
  startTimer(intervalMs?: number): { stop(): Promise<void> };
};

/** The moment today's backup is due: `hour`:00 server time. */
function dueToday(now: Date, hour: number): Date {
  const due = new Date(now);
  due.setHours(hour, 0, 0, 0);
  return due;
}

const localDay = (at: Date) => `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
/** A size as the backup's messages say it: "14.4 MB". */
export const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function createNightlyBackups(deps: NightlyBackupDeps): NightlyBackups {
  const now = () => deps.now?.() ?? new Date();
  let running: Promise<void> | undefined;

  const schedule = async () => (await getSetting(deps.db, SCHEDULE_KEY, ZBackupSchedule)) ?? null;
  const last = async () => (await getSetting(deps.db, LAST_KEY, ZBackupResult)) ?? null;

  const state = async (): Promise<TBackupState> => {
    const [current, result] = await Promise.all([schedule(), last()]);
    let nextAt: string | null = null;
    if (current && deps.passphrase) {
      const at = now();
      const today = dueToday(at, current.hour);
      const doneToday = result !== null && new Date(result.at) >= today;
      // Done today: tomorrow at the hour; else today at the hour, or now when the hour has passed (the next check makes it).
      const next = doneToday ? new Date(today.getTime() + 86_400_000) : at < today ? today : at;
      nextAt = next.toISOString();
    }
    return { schedule: current, passphraseSet: deps.passphrase !== undefined, running: running !== undefined, last: result, nextAt };
  };

  /** Makes one backup and records how it went; never throws (the result says it). */
  const makeBackup = async (actor: AuditActor, requestId: string | undefined): Promise<void> => {
    const current = await schedule();
    const passphrase = deps.passphrase;
    let result: TBackupResult;
    if (!current || !passphrase) {
      result = { at: now().toISOString(), ok: false, file: null, bytes: null, files: null, message: 'No backup was made: no folder is set, or the server has no backup passphrase.' };
    } else {
      try {
        const destination = await openDestination(current.folder, deps.openBucket);
        const written = await writeBackup({ db: deps.db, storage: deps.storage, storageFor: deps.storageFor }, destination, passphrase, { workFactor: deps.workFactor, now: now() });
        const removed = await pruneArchives(destination, current.keep);
        const { summary } = written;
        const missing = summary.missingFiles > 0 ? ` ${summary.missingFiles} file${summary.missingFiles === 1 ? ' was' : 's were'} missing from storage.` : '';
        result = {
          at: now().toISOString(),
          ok: true,
          file: written.name,
          bytes: written.bytes,
          files: summary.files,
          message: `Backed up ${summary.rows.toLocaleString('en-US')} rows and ${summary.files.toLocaleString('en-US')} files into ${megabytes(written.bytes)}.${missing}${removed.length > 0 ? ` ${removed.length} older backup${removed.length === 1 ? ' was' : 's were'} removed.` : ''}`,
        };
      } catch (error) {
        deps.log.error({ err: error }, 'the backup failed');
        result = { at: now().toISOString(), ok: false, file: null, bytes: null, files: null, message: `The backup failed: ${describeFailure(error)}` };
      }
    }
    await deps.db.transaction(async (tx) => {
      await putSetting(tx, LAST_KEY, result);
      await recordAuditEvent(tx, {
        actor,
        action: result.ok ? 'backup.created' : 'backup.failed',
        subjectType: 'database',
        subjectId: null,
        detail: result.ok ? { file: result.file, bytes: result.bytes, files: result.files } : {},
        requestId: requestId ?? null,
      });
    });
  };

  const start = (actor: AuditActor, requestId: string | undefined) => {
    running ??= makeBackup(actor, requestId)
      .catch((error: unknown) => deps.log.error({ err: error }, 'the backup\u2019s result could not be recorded'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const service: NightlyBackups = {
    state,

    async setSchedule(next, actor) {
      if (next) await assertWritable(next.folder, deps.openBucket);
      await deps.db.transaction(async (tx) => {
        if (next) await putSetting(tx, SCHEDULE_KEY, next);
        else await deleteSetting(tx, SCHEDULE_KEY);
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'settings.updated',
          subjectType: 'settings',
          subjectId: SCHEDULE_KEY,
          detail: { backups: next ? { folder: next.folder, hour: next.hour, keep: next.keep } : null },
          requestId: actor.requestId,
        });
      });
      return state();
    },

    async runNow(actor) {
      if (running) throw new AppError('CONFLICT', 'A backup is being made now; wait for it to end.');
      if (!deps.passphrase) throw new AppError('CONFLICT', 'The server has no backup passphrase: whoever runs it sets CLEARBASE_BACKUP_PASSPHRASE, then backups can be made.');
      if (!(await schedule())) throw new AppError('CONFLICT', 'Choose the folder the backups go into first.');
      void start(actor.principal, actor.requestId);
      return state();
    },

    async runIfDue() {
      if (running || !deps.passphrase) return;
      const current = await schedule();
      if (!current) return;
      const at = now();
      const due = dueToday(at, current.hour);
      if (at < due) return;
      const result = await last();
      if (result && new Date(result.at) >= due) return;
      // One instance per night: the first to write this night's date takes it.
      if (!(await claimNight(deps.db, CLAIM_KEY, localDay(at)))) return;
      await start('system', undefined);
    },

    settled: () => running ?? Promise.resolve(),

    startTimer(intervalMs = BACKUP_CHECK_MS) {
      const check = () => {
        service.runIfDue().catch((error: unknown) => deps.log.error({ err: error }, 'could not tell whether a backup is due'));
      };
      const timer = setInterval(check, intervalMs);
      timer.unref();
      return {
        async stop() {
          clearInterval(timer);
          await service.settled();
        },
      };
    },
  };
  return service;
}

/** The folder exists (or is made), or the bucket's folder can be listed, and this server may write there; refused in words otherwise. */
async function assertWritable(folder: string, openBucket: OpenBucket | undefined): Promise<void> {
  try {
    await (await openDestination(folder, openBucket)).prepare();
  } catch (error) {
    if (error instanceof DestinationError) throw new AppError('VALIDATION_FAILED', error.message);
    throw error;
  }
}
