import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLocalStorage, openInThread } from './local-storage';
import { threadAccessOf } from './port';

const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('local storage', () => {
  it.each([true, false])('writes, reads back, reports and deletes an object, leaving no temporary file (durable: %s)', async (durable) => {
    const root = await mkdtemp(path.join(tmpdir(), 'cb-store-'));
    const storage = createLocalStorage(root, { durable });
    const key = 'seasons/2025/AAA/a_b/file.bin';
    const result = await storage.put(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(result).toEqual({ url: `local:${key}`, bytes: 11 });
    expect((await readAll(await storage.get(key))).toString()).toBe('hello world');
    expect(await readFile(path.join(root, key), 'utf8')).toBe('hello world');
    expect(await readdir(path.join(root, 'seasons/2025/AAA/a_b'))).toEqual(['file.bin']);
    expect(await storage.exists(key)).toBe(true);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
  });

  it('leaves nothing behind when the source stream fails', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'cb-store-'));
    const storage = createLocalStorage(root);
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put('x/y.bin', failing)).rejects.toThrow('client went away');
    expect(await readdir(path.join(root, 'x'))).toEqual([]);
  });

  it('refuses keys that would escape its directory', async () => {
    const storage = createLocalStorage(await mkdtemp(path.join(tmpdir(), 'cb-store-')));
    await expect(storage.put('../outside', Buffer.from('x'))).rejects.toThrow(/unsafe storage key/);
  });

  it('lists a write in progress only once it has landed, never its temporary file', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'cb-store-'));
    const storage = createLocalStorage(root);
    const listKeys = async () => {
      const keys: string[] = [];
      for await (const object of storage.list('staging')) keys.push(object.key);
      return keys;
    };
    const body = new PassThrough();
    const writing = storage.put('staging/s1/0', body);
    body.write(Buffer.alloc(1_000, 1));
    while ((await readdir(path.join(root, 'staging/s1')).catch(() => [])).length === 0) await setImmediate();
    expect(await readdir(path.join(root, 'staging/s1'))).toEqual([expect.stringMatching(new RegExp(`^\\.0\\.${process.pid}-[0-9a-f]{12}\\.tmp$`))]);
    expect(await listKeys()).toEqual([]);
    body.end();
    await writing;
    expect(await listKeys()).toEqual(['staging/s1/0']);
  });

  it('removes the temporary files a crash left, once they are old enough, and nothing else', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'cb-store-'));
    const storage = createLocalStorage(root);
    await storage.put('seasons/2025/AA/p/file.pdf', Buffer.from('kept'));
    const folder = path.join(root, 'seasons/2025/AA/p');
    const old = path.join(folder, '.file2.pdf.0123456789ab.tmp');
    const young = path.join(folder, '.file3.pdf.ba9876543210.tmp');
    await writeFile(old, 'half');
    await writeFile(young, 'half');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await utimes(old, twoHoursAgo, twoHoursAgo);
    expect(await storage.removeAbandonedWrites(new Date(Date.now() - 3_600_000))).toBe(1);
    expect((await readdir(folder)).sort()).toEqual(['.file3.pdf.ba9876543210.tmp', 'file.pdf']);
    expect(await storage.removeAbandonedWrites(new Date(Date.now() + 1_000))).toBe(1);
    expect(await readdir(folder)).toEqual(['file.pdf']);
  });

  it('never removes a temporary file a live process is writing, however old it looks', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'cb-store-'));
    const storage = createLocalStorage(root);
    const folder = path.join(root, 'seasons/2025/AA/p');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    const anHourAgo = new Date(Date.now() - 3_600_000);

    // This process's own write, stalled on a slow source for longer than the grace period.
    const body = new PassThrough();
    const writing = storage.put('seasons/2025/AA/p/slow.pdf', body);
    body.write(Buffer.from('first half '));
    while ((await readdir(folder).catch(() => [])).length === 0) await setImmediate();
    const [inFlight = ''] = await readdir(folder);
    await utimes(path.join(folder, inFlight), twoHoursAgo, twoHoursAgo);

    // Another process's write (this one's parent is alive), a dead process's, and an earlier process's with this pid.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const names = {
      otherLive: `.a.pdf.${process.ppid}-0123456789ab.tmp`,
      dead: `.b.pdf.${gone}-0123456789ab.tmp`,
      earlierWithMyPid: `.c.pdf.${process.pid}-0123456789ab.tmp`,
    };
    for (const name of Object.values(names)) {
      await writeFile(path.join(folder, name), 'half');
      await utimes(path.join(folder, name), twoHoursAgo, twoHoursAgo);
    }

    expect(await storage.removeAbandonedWrites(anHourAgo)).toBe(2);
    expect((await readdir(folder)).sort()).toEqual([inFlight, names.otherLive].sort());

    body.end(Buffer.from('second half'));
    await writing;
    expect((await readAll(await storage.get('seasons/2025/AA/p/slow.pdf'))).toString()).toBe('first half second half');
  });

  it('offers another thread a way to open it, tied to the storage object and not to a copy of its properties', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'cb-store-'));
    const storage = createLocalStorage(root);
    const access = threadAccessOf(storage);
    expect(access).toMatchObject({ settings: { folder: root } });
    expect(access?.module).toMatch(/local-storage\.ts$/);
    expect(threadAccessOf({ ...storage, put: (key, body) => storage.put(key, body) })).toBeUndefined();
  });

  it('opened in a thread, writes into the same folder and names each temporary file as it starts', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'cb-store-'));
    const storage = createLocalStorage(root);
    const temporaries: Array<[string, string]> = [];
    const other = openInThread(threadAccessOf(storage)?.settings, { onTemporary: (key, temporary) => temporaries.push([key, temporary]) });
    await other.put('staging/a-0', Readable.from([Buffer.from('sealed')]));
    expect((await readAll(await storage.get('staging/a-0'))).toString()).toBe('sealed');
    expect(temporaries).toEqual([['staging/a-0', expect.stringMatching(/[/\\]staging[/\\]\.a-0\.\d+-[0-9a-f]{12}\.tmp$/) as string]]);
    expect(() => openInThread({ folder: 'relative/folder' }, { onTemporary: () => undefined })).toThrow(/absolute path/);
    expect(() => openInThread(undefined, { onTemporary: () => undefined })).toThrow(/absolute path/);
  });

  it('removes a temporary file of its own left by a write cut short, and refuses any other path', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'cb-store-'));
    const storage = createLocalStorage(root);
    const access = threadAccessOf(storage);
    if (!access) throw new Error('a local storage offers thread access');
    await storage.put('staging/kept-0', Readable.from([Buffer.from('kept')]));
    const left = path.join(root, 'staging', `.cut-0.${process.pid}-0123456789ab.tmp`);
    await writeFile(left, 'half');
    await access.removeTemporary(left);
    await access.removeTemporary(left); // already gone: nothing to do
    expect(await readdir(path.join(root, 'staging'))).toEqual(['kept-0']);
    await expect(access.removeTemporary(path.join(root, 'staging', 'kept-0'))).rejects.toThrow(/not a temporary file/);
    await expect(access.removeTemporary(path.join(tmpdir(), `.x.${process.pid}-0123456789ab.tmp`))).rejects.toThrow(/not a temporary file/);
    expect(await readdir(path.join(root, 'staging'))).toEqual(['kept-0']);
  });
});
