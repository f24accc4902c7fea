import { createBackup, type BackupDeps, type BackupProgress, type BackupSummary } from './backup';
import type { BackupDestination } from './destination';

/** The name of a backup archive: its moment in UTC, so names sort in the order the backups were made. */
export const archiveName = (at: Date): string => `clearbase-backup-${at.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-')}.tar.age`;
export const ARCHIVE_NAME = /^clearbase-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar\.age$/;

export type WrittenArchive = { name: string; location: string; bytes: number; summary: BackupSummary };

/** One backup, made now and written whole into `destination` under its dated name. */
export async function writeBackup(
  deps: BackupDeps,
  destination: BackupDestination,
  passphrase: string,
  options: { now?: Date; workFactor?: number; onProgress?: (progress: BackupProgress) => void; onStart?: (location: string) => void } = {},
): Promise<WrittenArchive> {
  const name = archiveName(options.now ?? new Date());
  let summary: BackupSummary | undefined;
  const { location, bytes } = await destination.write(
    name,
    async (out) => {
      summary = await createBackup(deps, out, passphrase, { workFactor: options.workFactor, onProgress: options.onProgress });
    },
    options.onStart,
  );
  if (!summary) throw new Error('the backup ended without its summary');
  return { name, location, bytes, summary };
}

/**
 * Removes all but the `keep` newest backup archives in `destination` (by the moment in their names), and
 * says which it removed. Nothing else there is touched.
 */
export async function pruneArchives(destination: BackupDestination, keep: number): Promise<string[]> {
  if (!Number.isInteger(keep) || keep < 1) throw new Error('at least one backup is kept');
  const archives = await destination.archives();
  const old = archives.slice(0, Math.max(0, archives.length - keep));
  for (const name of old) await destination.remove(name);
  return old;
}
