import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { createBackup, type BackupDeps, type BackupProgress, type BackupSummary } from './backup';
import { archiveName } from './retention';

export type WrittenArchive = { file: string; bytes: number; summary: BackupSummary };

/**
 * A backup written into `folder` (made, its owner's alone, if missing) under its dated name: first as
 * `<name>.partial`, fsynced, then renamed, so the folder never holds a short archive under a backup's name;
 * a failed backup removes its partial file.
 */
export async function writeArchiveFile(
  deps: BackupDeps,
  folder: string,
  passphrase: string,
  options: { now?: Date; workFactor?: number; onProgress?: (progress: BackupProgress) => void; onStart?: (file: string) => void } = {},
): Promise<WrittenArchive> {
  await makeFolder(folder);
  const file = path.join(folder, archiveName(options.now ?? new Date()));
  const partial = `${file}.partial`;
  options.onStart?.(file);
  const out = createWriteStream(partial, { mode: 0o600, flags: 'wx' });
  try {
    const summary = await createBackup(deps, out, passphrase, { workFactor: options.workFactor, onProgress: options.onProgress });
    await finished(out);
    const handle = await open(partial, 'r');
    await handle.sync().finally(() => handle.close());
    await rename(partial, file);
    return { file, bytes: (await stat(file)).size, summary };
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Makes `folder` and any folder above it that is missing (each its owner's alone), one level at a time:
 * Node's own recursive mkdir never returns for a path under /proc, which a person may well type.
 */
export async function makeFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { mode: 0o700 });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (!(await stat(folder)).isDirectory()) throw Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' });
      return;
    }
    const parent = path.dirname(folder);
    if (code !== 'ENOENT' || parent === folder) throw error;
    await makeFolder(parent);
  }
  try {
    await mkdir(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
