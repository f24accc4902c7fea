import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMasterKey, nextKeyFileOf, readMasterKeyFile, replaceKeyFile, RotationUnfinishedError, writeKeyFileDurably } from './master-key';

const scratch = async () => path.join(await mkdtemp(path.join(tmpdir(), 'cb-key-')), 'data', 'master.key');

describe('loadMasterKey', () => {
  it('creates a 32-byte key readable only by its owner, then reads the same key back', async () => {
    const file = await scratch();
    const created = await loadMasterKey(undefined, file);
    expect(created.source).toBe('created');
    expect(created.key).toHaveLength(32);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const again = await loadMasterKey(undefined, file);
    expect(again.source).toBe('file');
    expect(again.key.equals(created.key)).toBe(true);
  });

  it('uses the key from the environment without touching the file', async () => {
    const file = await scratch();
    const key = Buffer.alloc(32, 1);
    expect(await loadMasterKey(key, file)).toEqual({ key, source: 'environment' });
    await expect(stat(file)).rejects.toThrow();
  });

  it('gives exactly one key when two processes start at once', async () => {
    const file = await scratch();
    const [a, b] = await Promise.all([loadMasterKey(undefined, file), loadMasterKey(undefined, file)]);
    expect(a.key.equals(b.key)).toBe(true);
    expect([a.source, b.source].sort()).toEqual(['created', 'file']);
  });

  it('refuses a key file other users can read', async () => {
    const file = await scratch();
    await loadMasterKey(undefined, file);
    await chmod(file, 0o644);
    await expect(loadMasterKey(undefined, file)).rejects.toThrow(/chmod 600/);
  });

  it('refuses a damaged key file instead of replacing it', async () => {
    const file = await scratch();
    await loadMasterKey(undefined, file);
    await writeFile(file, 'not a key\n', { mode: 0o600 });
    await expect(loadMasterKey(undefined, file)).rejects.toThrow(/does not hold a base64 32-byte key/);
    expect(await readFile(file, 'utf8')).toBe('not a key\n');
  });
});

describe('the key files of a change of master key', () => {
  it('does not start while a new key waits beside the old one (a change was interrupted), but does with the key from the environment', async () => {
    const file = await scratch();
    const { key } = await loadMasterKey(undefined, file);
    await writeKeyFileDurably(nextKeyFileOf(file), randomBytes(32));
    await expect(loadMasterKey(undefined, file)).rejects.toBeInstanceOf(RotationUnfinishedError);
    await expect(loadMasterKey(undefined, file)).rejects.toThrow(/npm run rotate-key/);
    expect((await loadMasterKey(key, file)).source).toBe('environment');
  });

  it('writes a key file only its owner reads, leaves no temporary file, and replaces the old one in one rename', async () => {
    const file = await scratch();
    await loadMasterKey(undefined, file);
    const next = randomBytes(32);
    await writeKeyFileDurably(nextKeyFileOf(file), next);
    expect((await stat(nextKeyFileOf(file))).mode & 0o777).toBe(0o600);
    expect((await readMasterKeyFile(nextKeyFileOf(file))).equals(next)).toBe(true);
    expect((await readdir(path.dirname(file))).sort()).toEqual(['master.key', 'master.key.next']);

    await replaceKeyFile(nextKeyFileOf(file), file);
    expect(await readdir(path.dirname(file))).toEqual(['master.key']);
    expect((await loadMasterKey(undefined, file)).key.equals(next)).toBe(true);
  });
});
