import { randomBytes } from 'node:crypto';
import { close as closeCallback, createReadStream, createWriteStream, fsync as fsyncCallback, open as openCallback } from 'node:fs';
import { promisify } from 'node:util';
import { access, copyFile, link, mkdir, open, opendir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, folderOfPrefix, offerThreadAccess, type Storage, type ThreadStorageHooks } from './port';

const openFile = promisify(openCallback);
const syncFile = promisify(fsyncCallback);
const closeFile = promisify(closeCallback);

/**
 * The name a write goes to before its rename: `.<name>.<writer's pid>-<12 hex>.tmp` (without the pid when an
 * older version wrote it). Never an object, so never listed. The pid tells a sweep whose write it is.
 */
const TEMPORARY_NAME = /^\..+\.(?:(\d+)-)?[0-9a-f]{12}\.tmp$/;

/**
 * Whether a temporary file may still be written to: this process is writing it now, or another process that
 * is still running wrote it (a second instance on the same disk). One written by a process that is gone, or
 * by an earlier process that had this one's pid and is not writing it now, is abandoned.
 */
function isLiveWrite(file: string, name: string, writing: ReadonlySet<string>): boolean {
  if (writing.has(file)) return true;
  const pid = Number(TEMPORARY_NAME.exec(name)?.[1] ?? Number.NaN);
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const syncPath = async (file: string) => {
  const handle = await open(file, 'r');
  await handle.sync().finally(() => handle.close());
};

/**
 * Writes `target` through a temporary sibling that `fill` creates, then renames it into place and syncs
 * the folder: a crash leaves either the whole object or none, never half of one.
 *
 * Folders this storage made are remembered, so a write into one costs no mkdir; one removed behind its
 * back (by hand, by a retention purge) is made again when the write meets ENOENT.
 */
async function writeAtomically(
  target: string,
  fill: (temporary: string) => Promise<void>,
  folders: Set<string>,
  writing: Set<string>,
  durable: boolean,
  onTemporary?: (temporary: string) => void,
): Promise<void> {
  const directory = path.dirname(target);
  // Keep in step with TEMPORARY_NAME, which keeps these out of list() and tells a sweep whose write it is.
  const temporary = path.join(directory, `.${path.basename(target)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  onTemporary?.(temporary);
  // However long the write takes (a slow upload), the sweep of abandoned writes leaves it alone.
  writing.add(temporary);
  const attempt = async () => {
    if (!folders.has(directory)) {
      await mkdir(directory, { recursive: true, mode: 0o700 });
      folders.add(directory);
    }
    await fill(temporary);
  };
  try {
    try {
      await attempt();
    } catch (error) {
      if (!isMissing(error) || !folders.delete(directory)) throw error;
      await rm(temporary, { force: true });
      await attempt();
    }
    await rename(temporary, target);
    if (durable) await syncPath(directory);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  } finally {
    writing.delete(temporary);
  }
}

/**
 * Where a document is, said without the server's folders: `local:` and its key in the storage folder. The
 * folder itself is the operator's to know (CLEARBASE_DATA_DIR), not something an answer shows.
 */
const localUrlFor = (key: string) => `local:${key}`;

/** Disk reads and writes in 1 MiB pieces: at 64 KiB a 5 MB file costs ~350 thread-pool round trips. */
export const IO_CHUNK_BYTES = 1 << 20;

export type LocalStorageOptions = {
  /** False leaves out the fsyncs (see createLocalStorage); default true. */
  durable?: boolean;
  /**
   * Told the temporary file a put() writes before it is renamed into place, as soon as it is named: whoever
   * owns the write can remove it when the thread writing it ends before the write does.
   */
  onTemporary?: (key: string, temporary: string) => void;
};

/**
 * A worker thread's own storage over the folder of a local storage (threadAccessOf): writes from two threads
 * into one folder are as safe as two writes from one, each through a temporary file of its own.
 */
export function openInThread(settings: unknown, hooks: ThreadStorageHooks): Storage {
  const folder = (settings as { folder?: unknown } | null)?.folder;
  if (typeof folder !== 'string' || !path.isAbsolute(folder)) throw new Error('a local storage is opened in a thread with the absolute path of its folder');
  return createLocalStorage(folder, { onTemporary: (key, temporary) => hooks.onTemporary(key, temporary) });
}

/**
 * Files under one directory. A write goes to a temporary name, is fsynced, then renamed into place and
 * the directory fsynced: a crash leaves either the whole object or none, never half of one.
 *
 * `durable: false` leaves out both fsyncs, for files that may be lost with the machine (not with the
 * process): the demo's generated files, written by the thousand at first start with the embedded database,
 * which does not fsync either. Two fsyncs per file took four of the first start's seconds on a VM's disk.
 */
export function createLocalStorage(root: string, options: LocalStorageOptions = {}): Storage {
  const durable = options.durable ?? true;
  /** Refuses, or removes if it is still there, a temporary file a put() into this folder named. */
  const removeTemporary = async (temporary: string) => {
    const relative = path.relative(path.resolve(root), temporary);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative) || !TEMPORARY_NAME.test(path.basename(temporary))) {
      throw new Error('not a temporary file of this storage');
    }
    await rm(temporary, { force: true }).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
  };
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };

  const folders = new Set<string>();
  /** The temporary files of this process's writes in progress. */
  const writing = new Set<string>();

  const storage: Storage = {
    driver: 'local',
    location: root,

    async put(key, body) {
      const target = resolve(key);
      let bytes = 0;
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await writeAtomically(target, async (temporary) => {
        // Opened before the source is touched: a missing folder fails here, where writeAtomically can retry.
        // A plain descriptor, not a FileHandle: a FileHandle's close() waits forever on a stream left open on it.
        const fd = await openFile(temporary, 'wx', 0o600);
        // autoClose off: the descriptor must outlive the stream for the fsync. A stream destroyed by an error
        // closes it all the same, so it is closed here only when the stream did not (a descriptor number
        // closed twice may by then belong to another file).
        const sink = createWriteStream(temporary, { fd, autoClose: false, highWaterMark: IO_CHUNK_BYTES });
        try {
          // Counted in the same tick as the pipeline starts: a 'data' listener makes the stream flow.
          source.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          await pipeline(source, sink);
          if (durable) await syncFile(fd);
        } finally {
          if (!sink.destroyed) await closeFile(fd);
        }
      }, folders, writing, durable, options.onTemporary && ((temporary) => options.onTemporary?.(key, temporary)));
      return { url: localUrlFor(key), bytes };
    },

    async get(key) {
      const file = resolve(key);
      await access(file);
      return createReadStream(file, { highWaterMark: IO_CHUNK_BYTES });
    },

    async copy(fromKey, toKey) {
      const source = resolve(fromKey);
      await writeAtomically(resolve(toKey), async (temporary) => {
        try {
          // The source was fsynced when written; a link shares its data, so only the names need syncing.
          await link(source, temporary);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EXDEV' && (error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
          await copyFile(source, temporary);
          if (durable) await syncPath(temporary);
        }
      }, folders, writing, durable);
    },

    async exists(key) {
      const file = resolve(key); // an unsafe key is an error, not a missing object
      try {
        await access(file);
        return true;
      } catch {
        return false;
      }
    },

    async delete(key) {
      await rm(resolve(key), { force: true });
    },

    async removeEmptyFolder(folder) {
      const directory = resolve(folderOfPrefix(folder));
      try {
        await rmdir(directory);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (!isMissing(error) && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      }
      // A write into it later makes it again (writeAtomically meets ENOENT).
      folders.delete(directory);
    },

    // A generator method, so a bad prefix rejects on iteration as every other failure does.
    async *list(prefix) {
      const folder = folderOfPrefix(prefix);
      for await (const file of walkFiles(path.join(root, ...folder.split('/')), folder)) {
        if (file.temporary) continue;
        const modified = await modifiedAt(file.path);
        if (modified) yield { key: file.key, lastModified: modified };
      }
    },

    urlFor: (key) => {
      resolve(key); // refuses an unsafe key, as every other call does
      return localUrlFor(key);
    },

    async removeAbandonedWrites(olderThan, prefix) {
      let removed = 0;
      const folder = prefix === undefined ? '' : folderOfPrefix(prefix);
      for await (const file of walkFiles(folder === '' ? root : path.join(root, ...folder.split('/')), folder)) {
        if (!file.temporary) continue;
        const modified = await modifiedAt(file.path);
        if (!modified || modified >= olderThan) continue;
        if (isLiveWrite(file.path, path.basename(file.path), writing)) continue;
        await rm(file.path, { force: true });
        removed++;
      }
      return removed;
    },
  };
  offerThreadAccess(storage, { module: import.meta.url, settings: { folder: path.resolve(root) }, removeTemporary });
  return storage;
}

/**
 * Walks one directory depth-first, a directory handle at a time. Keys are built from the entry names
 * (not from the file system path) so they use `/` whatever the platform. Whatever vanishes between
 * being seen and being looked at (a concurrent delete) is skipped, not an error.
 */
async function* walkFiles(directory: string, folder: string): AsyncGenerator<{ key: string; path: string; temporary: boolean }> {
  let entries;
  try {
    entries = await opendir(directory);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for await (const entry of entries) {
    const key = folder === '' ? entry.name : `${folder}/${entry.name}`;
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* walkFiles(file, key);
    else if (entry.isFile()) yield { key, path: file, temporary: TEMPORARY_NAME.test(entry.name) };
  }
}

/** When a file was last written, or undefined when it has vanished since it was seen. */
async function modifiedAt(file: string): Promise<Date | undefined> {
  return stat(file).then(
    (stats) => stats.mtime,
    (error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    },
  );
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // ENOTDIR: the prefix names a file, not a folder, which holds no objects.
  return code === 'ENOENT' || code === 'ENOTDIR';
}
