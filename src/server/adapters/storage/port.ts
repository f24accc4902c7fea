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
  /** `file://…` or `s3://bucket/key`: a location, never a public link. */
  urlFor(key: string): string;
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
