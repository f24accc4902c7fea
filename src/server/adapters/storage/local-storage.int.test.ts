import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalStorage } from './local-storage';
import { describeStorageContract } from './storage-contract';

describeStorageContract('local', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'cb-store-contract-'));
  return { storage: createLocalStorage(root), cleanup: () => rm(root, { recursive: true, force: true }) };
});
