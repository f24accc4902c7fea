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
}

export type StoredObject = { key: string; lastModified: Date };

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
