import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export const MASTER_KEY_BYTES = 32;

export type MasterKeySource = 'environment' | 'file' | 'created';

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

async function readMasterKeyFile(file: string): Promise<Buffer> {
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
