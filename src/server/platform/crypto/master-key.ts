import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';

export const MASTER_KEY_BYTES = 32;

export type MasterKeySource = 'environment' | 'file' | 'created';

/**
 * Where a change of master key (`npm run rotate-key`) keeps the new key while it wraps every file key again;
 * it replaces the key file only once all are done. While it exists the server does not start: half the
 * files would open under one key and half under the other.
 */
export const nextKeyFileOf = (file: string): string => `${file}.next`;

export class RotationUnfinishedError extends Error {
  override readonly name = 'RotationUnfinishedError';
  constructor() {
    super('a change of the master key was interrupted before it finished: run `npm run rotate-key` again to finish it, then start Clearbase');
  }
}

/**
 * The key that wraps every file's data key. Taken from the environment when given; otherwise read from
 * `file`, which is created (mode 0600, never overwritten) on first start. Losing it loses every stored
 * file, so it is never regenerated over an existing one.
 */
export async function loadMasterKey(
  fromEnvironment: Buffer | undefined,
  file: string,
): Promise<{ key: Buffer; source: MasterKeySource }> {
  if (fromEnvironment) return { key: fromEnvironment, source: 'environment' };
  if (await exists(nextKeyFileOf(file))) throw new RotationUnfinishedError();
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(MASTER_KEY_BYTES);
  try {
    // O_EXCL: when two processes start at once, exactly one writes the key and the other reads it.
    const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      await handle.writeFile(key.toString('base64') + '\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
    return { key, source: 'created' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { key: await readMasterKeyFile(file), source: 'file' };
}

/** A key file's key; refused when others may read the file or it does not hold a base64 32-byte key. */
export async function readMasterKeyFile(file: string): Promise<Buffer> {
  const info = await stat(file);
  if ((info.mode & 0o077) !== 0) {
    throw new Error(`${file} is readable by other users (mode ${(info.mode & 0o777).toString(8)}); run: chmod 600 ${file}`);
  }
  const text = (await readFile(file, 'utf8')).trim();
  const key = Buffer.from(text, 'base64');
  if (key.length !== MASTER_KEY_BYTES || key.toString('base64') !== text) {
    throw new Error(`${file} does not hold a base64 32-byte key; restore it from your backup`);
  }
  return key;
}

/**
 * Writes a key file so that a crash leaves either the whole file or none: through a temporary sibling
 * (mode 0600), fsynced, renamed into place, and the folder fsynced so the name itself survives.
 */
export async function writeKeyFileDurably(file: string, key: Buffer): Promise<void> {
  const temporary = `${file}.writing`;
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(key.toString('base64') + '\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  await syncFolder(path.dirname(file));
}

/** Moves `from` over `to` in one step (a rename), then fsyncs the folder so the change survives a crash. */
export async function replaceKeyFile(from: string, to: string): Promise<void> {
  await rename(from, to);
  await syncFolder(path.dirname(to));
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
