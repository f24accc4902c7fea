import type { Readable } from 'node:stream';

/**
 * Where encrypted file bytes live. Keys are relative, slash-separated paths built by Clearbase
 * (never taken from a file name as given); drivers refuse anything that could escape their root.
 */
export interface Storage {
  readonly driver: 'local' | 's3';
  /** Where objects go, for health and settings screens: a directory or `s3://bucket`. */
  readonly location: string;
  put(key: string, body: Readable | Buffer): Promise<{ url: string; bytes: number }>;
  get(key: string): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * Removes the folder `folder` (a safe key) if it holds nothing, and nothing above it; a folder that is not
   * empty, or not there, is left as it is. Where folders exist at all (a local disk): a folder's name can name
   * someone, as a player's folder of documents does.
   */
  removeEmptyFolder?(folder: string): Promise<void>;
  /**
   * Copies an object to another key, replacing what is there, without the bytes passing through
   * Clearbase (a hard link on disk, a server-side copy on S3). The source stays. A missing source rejects.
   */
  copy(fromKey: string, toKey: string): Promise<void>;
  /**
   * Every object in the folder `prefix` (a safe key, optionally ending in `/`), at any depth, in no
   * promised order: `staging` lists `staging/a/0` but never `staging-old/x` or `staging` itself.
   * A folder that does not exist lists nothing. Lazy, so a large folder is never held in memory;
   * objects written or deleted while it runs may or may not be seen. `lastModified` is when the
   * object was last written, so a sweeper can leave alone what a request is still working on.
   */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** `local:key` or `s3://bucket/key`: a location, never a public link, never a path on the server. */
  urlFor(key: string): string;
  /**
   * Removes the half-written leftovers of writes a crash interrupted, older than `olderThan`, in the
   * folder `prefix` (default: everywhere), and says how many; never one a live process is still writing.
   * Local disk: its temporary files. S3 has none to remove here: an interrupted multipart upload
   * is removed by the bucket's AbortIncompleteMultipartUpload lifecycle rule (README).
   */
  removeAbandonedWrites(olderThan: Date, prefix?: string): Promise<number>;
  /**
   * Where the store keeps versions of its objects (an S3 bucket): the current version of `key`, or undefined
   * when there is none. A backup can then name a file by its version instead of copying its bytes.
   */
  versionOf?(key: string): Promise<ObjectVersion | undefined>;
  /** The bytes of one version of `key` (`versionId` null: the current one), with what the store says of it. */
  getVersion?(key: string, versionId: string | null): Promise<{ body: Readable; version: ObjectVersion }>;
}

export type StoredObject = { key: string; lastModified: Date };

/**
 * One version of an object: its id (null where the bucket keeps no versions, so only the current content
 * is there), its ETag (changes whenever the bytes do) and its size.
 */
export type ObjectVersion = { versionId: string | null; etag: string; bytes: number };

/**
 * How a worker thread of this process opens, for itself, the storage it was told about: `module` (a URL) is
 * imported there, and its `openInThread(settings, hooks)` returns a Storage writing into the same place.
 * Only what can travel to a thread is in it. A storage offers it only when two threads writing into it side
 * by side is safe (a local folder); an S3 client, or any object built around a storage, offers none.
 */
export type ThreadAccess = { module: string; settings: unknown };

/** What a thread's copy of a storage reports back. */
export type ThreadStorageHooks = {
  /** The temporary file a put() writes through before it is renamed into place, as soon as it is named. */
  onTemporary(key: string, temporary: string): void;
};

/** The module a ThreadAccess names. */
export type ThreadStorageModule = { openInThread(settings: unknown, hooks: ThreadStorageHooks): Storage };

type OfferedAccess = ThreadAccess & { removeTemporary(temporary: string): Promise<void> };
const threadAccess = new WeakMap<Storage, OfferedAccess>();

/**
 * Called by a storage that another thread may open for itself: how (see ThreadAccess), and how to remove a
 * temporary file the other thread named and could not finish (its thread ended first).
 */
export function offerThreadAccess(storage: Storage, access: OfferedAccess): void {
  threadAccess.set(storage, access);
}

/**
 * How another thread opens this very storage object, or undefined. Tied to the object, not copied with its
 * properties: `{ ...storage, put }` offers none, so its own put() is the one called.
 */
export function threadAccessOf(storage: Storage): OfferedAccess | undefined {
  return threadAccess.get(storage);
}

/** The folder key a `list` prefix names, without its trailing slash; refuses what a key would refuse. */
export function folderOfPrefix(prefix: string): string {
  const folder = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  assertSafeKey(folder);
  return folder;
}

/** A storage key is 1–1024 chars of path segments without `.`/`..`, backslashes or control characters. */
export function assertSafeKey(key: string): void {
  const segments = key.split('/');
  const unsafe =
    key.length === 0 ||
    key.length > 1024 ||
    key.startsWith('/') ||
    /[\\\p{Cc}]/u.test(key) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..');
  if (unsafe) throw new Error(`unsafe storage key: ${JSON.stringify(key.slice(0, 80))}`);
}
