import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** The name of a backup archive: its moment in UTC, so names sort in the order the backups were made. */
export const archiveName = (at: Date): string => `clearbase-backup-${at.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-')}.tar.age`;
export const ARCHIVE_NAME = /^clearbase-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar\.age$/;

/**
 * Removes all but the `keep` newest backup archives in `folder` (by the moment in their names), and says
 * which it removed. Nothing else in the folder is touched.
 */
export async function pruneArchives(folder: string, keep: number): Promise<string[]> {
  if (!Number.isInteger(keep) || keep < 1) throw new Error('at least one backup is kept');
  const archives = (await readdir(folder)).filter((file) => ARCHIVE_NAME.test(file)).sort();
  const old = archives.slice(0, Math.max(0, archives.length - keep));
  for (const file of old) await rm(path.join(folder, file));
  return old;
}
