import { z } from 'zod';

/**
 * Settings → System → Backups: a backup made by the server itself every night, into a folder on the server or
 * in an S3 bucket, the newest N kept; the same archive `npm run backup` writes, encrypted with the passphrase
 * the server was given (CLEARBASE_BACKUP_PASSPHRASE, never stored in the database nor shown). The last result is shown
 * there and on the health card.
 */

export const BACKUPS_PATH = '/api/backups';
export const BACKUP_SCHEDULE_PATH = '/api/backups/schedule';
export const BACKUP_RUN_PATH = '/api/backups/run';

export const ZBackupSchedule = z.object({
  /**
   * A folder on the server, as an absolute path (best another disk than the data folder's), or a folder in an
   * S3 bucket, `s3://bucket/folder`, reached with the server's S3 settings.
   */
  folder: z
    .string({ error: 'Name the folder the backups go into.' })
    .trim()
    .min(1, 'Name the folder the backups go into.')
    .max(1000, 'That folder name is too long.')
    .refine(
      (folder) => folder.startsWith('/') || /^[A-Za-z]:[\\/]/.test(folder) || /^s3:\/\/[^/]+\/[^/]/.test(folder),
      'Give the folder as a full path, such as /mnt/backup/clearbase, or a folder in an S3 bucket, such as s3://league-backups/clearbase.',
    ),
  /** The hour of the day (server time, 0–23) at which the nightly backup starts. */
  hour: z.number({ error: 'Choose the hour the backup runs.' }).int().min(0, 'Choose an hour from 0 to 23.').max(23, 'Choose an hour from 0 to 23.'),
  /** How many of the newest backups are kept in the folder; older ones are removed. */
  keep: z.number({ error: 'Say how many backups to keep.' }).int().min(1, 'Keep at least 1 backup.').max(365, 'Keep at most 365 backups.'),
});
export type TBackupSchedule = z.infer<typeof ZBackupSchedule>;

/** PUT body: the schedule, or null to stop the nightly backup. */
export const ZBackupScheduleInput = z.object({ schedule: ZBackupSchedule.nullable() });
export type TBackupScheduleInput = z.infer<typeof ZBackupScheduleInput>;

export const ZBackupResult = z.object({
  /** When it ended. */
  at: z.string(),
  ok: z.boolean(),
  /** The archive's name (in the schedule's folder), when it was written. */
  file: z.string().nullable(),
  /** The archive's size in bytes, when it was written. */
  bytes: z.number().nullable(),
  /** Stored files it holds, when it was written. */
  files: z.number().nullable(),
  /** What happened, in words: "Backed up 2,878 files (14.4 MB)." or why it failed. */
  message: z.string(),
});
export type TBackupResult = z.infer<typeof ZBackupResult>;

export const ZBackupState = z.object({
  schedule: ZBackupSchedule.nullable(),
  /** Whether the server was given CLEARBASE_BACKUP_PASSPHRASE: without it no backup can be made here. */
  passphraseSet: z.boolean(),
  /** A backup is being made now. */
  running: z.boolean(),
  last: ZBackupResult.nullable(),
  /** When the next nightly backup starts (ISO), or null when none is scheduled or it cannot run. */
  nextAt: z.string().nullable(),
});
export type TBackupState = z.infer<typeof ZBackupState>;
