import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Makes the data folder, its owner's alone (0700), and the folders above it as folders usually are: an
 * embedded PostgreSQL run by another account (the server as root) must be able to pass through them.
 */
export async function makeDataFolder(dataDir: string): Promise<void> {
  await mkdir(path.dirname(dataDir), { recursive: true });
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
}
