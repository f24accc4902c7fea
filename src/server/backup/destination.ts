import { constants, createReadStream, existsSync } from 'node:fs';
import { access, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { Storage } from '../adapters/storage/port';
import { makeFolder, writeArchiveFile } from './archive-file';
import { ARCHIVE_NAME } from './retention';

/**
 * Where backup archives are written and kept: a folder on this machine (`/mnt/backup/clearbase`), or a folder
 * in an S3 bucket (`s3://league-backups/clearbase`), reached with the S3 settings Clearbase already has.
 * Either way an archive appears whole under its name or not at all: a folder's is written as `.partial`,
 * fsynced and renamed; a bucket's is one multipart upload, which S3 makes visible only once it completes
 * (and which is aborted when the backup fails).
 */
export type BackupDestination = {
  /** As a person gives it: the folder's full path, or `s3://bucket/folder`. */
  readonly location: string;
  /** Makes sure archives can be written there (a folder is made); refused with the reason in words. */
  prepare(): Promise<void>;
  /** Writes the archive `name` with `fill` (which ends the stream); resolves once it is whole where it goes. */
  write(name: string, fill: (out: Writable) => Promise<void>, onStart?: (location: string) => void): Promise<{ location: string; bytes: number }>;
  /** The backup archives there (their names, nothing else), oldest first. */
  archives(): Promise<string[]>;
  remove(name: string): Promise<void>;
};

/** Why a destination cannot be used: said as it is to the person who named it. */
export class DestinationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationError';
  }
}

/** Opens a bucket with the S3 settings Clearbase was given (S3_ENDPOINT, S3_REGION, the access keys). */
export type OpenBucket = (bucket: string) => Promise<Storage>;

const S3_URL = /^s3:\/\/([^/]+)(?:\/(.*))?$/;
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** A bucket and folder named as `s3://bucket/folder`, or undefined when `target` is not an s3:// address. */
export function parseS3Location(target: string): { bucket: string; folder: string } | undefined {
  const match = S3_URL.exec(target.trim());
  if (!match) return undefined;
  const bucket = match[1] ?? '';
  const folder = (match[2] ?? '').replace(/\/+$/, '');
  if (!BUCKET_NAME.test(bucket)) throw new DestinationError(`${bucket} is not a bucket name S3 allows (lower-case letters, digits, dots and hyphens).`);
  if (folder === '') throw new DestinationError(`Name a folder in the bucket too, such as s3://${bucket}/clearbase: the backups are kept, and old ones removed, there.`);
  if (folder.split('/').some((segment) => segment === '' || segment === '.' || segment === '..') || /[\\\p{Cc}]/u.test(folder)) {
    throw new DestinationError(`${folder} is not a folder name Clearbase can use in a bucket.`);
  }
  return { bucket, folder };
}

/** The destination `target` names: `s3://bucket/folder`, else a folder on this machine (made absolute). */
export async function openDestination(target: string, openBucket: OpenBucket | undefined): Promise<BackupDestination> {
  const s3 = parseS3Location(target);
  if (!s3) return folderDestination(path.resolve(target));
  if (!openBucket) throw new DestinationError('This Clearbase cannot reach S3.');
  return bucketDestination(await openBucket(s3.bucket), s3.bucket, s3.folder);
}

export function folderDestination(folder: string): BackupDestination {
  return {
    location: folder,
    async prepare() {
      try {
        await makeFolder(folder);
        await access(folder, constants.W_OK);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const why =
          code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' || code === 'EEXIST' ? 'it is not a folder' : code === 'EROFS' ? 'that disk is read-only' : 'it cannot be made there';
        throw new DestinationError(`Clearbase cannot write into ${folder}: ${why}.`);
      }
    },
    async write(name, fill, onStart) {
      const { file, bytes } = await writeArchiveFile(folder, name, fill, onStart);
      return { location: file, bytes };
    },
    async archives() {
      return (await readdir(folder)).filter((file) => ARCHIVE_NAME.test(file)).sort();
    },
    remove: (name) => rm(path.join(folder, archiveNameOnly(name))),
  };
}

export function bucketDestination(storage: Storage, bucket: string, folder: string): BackupDestination {
  const location = `s3://${bucket}/${folder}`;
  const keyOf = (name: string) => `${folder}/${archiveNameOnly(name)}`;
  return {
    location,
    async prepare() {
      try {
        // Listing the folder (its first page is enough) shows the bucket is there and these keys may use it.
        for await (const object of storage.list(folder)) {
          void object;
          break;
        }
      } catch (error) {
        throw new DestinationError(`Clearbase cannot reach ${location}: ${bucketProblem(error instanceof Error ? error.message : String(error))}`);
      }
    },
    async write(name, fill, onStart) {
      const key = keyOf(name);
      const at = `s3://${bucket}/${key}`;
      onStart?.(at);
      const body = new PassThrough();
      const putting = storage.put(key, body);
      // Observed at once, so a put that fails while the archive is still being made is never unhandled.
      const putFailure = putting.then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      try {
        await fill(body);
      } catch (error) {
        body.destroy(error instanceof Error ? error : new Error(String(error)));
        const failed = await putFailure;
        // The upload failed first (the bucket refused it) when its error is not the one just given to it.
        if (failed && !(failed.error instanceof Error && failed.error.cause === error)) throw failed.error;
        throw error;
      }
      const { bytes } = await putting;
      return { location: at, bytes };
    },
    async archives() {
      const names: string[] = [];
      for await (const object of storage.list(folder)) {
        const name = object.key.slice(folder.length + 1);
        // Only the folder's own archives, never one in a folder below it.
        if (ARCHIVE_NAME.test(name)) names.push(name);
      }
      return names.sort();
    },
    remove: (name) => storage.delete(keyOf(name)),
  };
}

/**
 * The bytes of the archive at `address`: a file on this machine, or `s3://bucket/folder/<archive>`. Undefined
 * when a file is not there (a missing object is refused by the bucket, with its key).
 */
export async function readArchiveAt(address: string, openBucket: OpenBucket | undefined): Promise<Readable | undefined> {
  const s3 = parseS3Location(address);
  if (!s3) {
    const file = path.resolve(address);
    return existsSync(file) ? createReadStream(file) : undefined;
  }
  const name = s3.folder.split('/').pop() ?? '';
  const folder = s3.folder.slice(0, -name.length - 1);
  if (!ARCHIVE_NAME.test(name) || folder === '') {
    throw new DestinationError(`Name the archive itself, such as s3://${s3.bucket}/clearbase/clearbase-backup-2026-11-27T02-00-00Z.tar.age.`);
  }
  if (!openBucket) throw new DestinationError('This Clearbase cannot reach S3.');
  return (await openBucket(s3.bucket)).get(`${folder}/${name}`);
}

/** Why a bucket could not be listed, in words, with S3's own code for whoever looks further. */
export function bucketProblem(detail: string): string {
  const code = /\b(NoSuchBucket|AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|ExpiredToken|PermanentRedirect|AuthorizationHeaderMalformed)\b/.exec(detail)?.[1];
  if (code === 'NoSuchBucket') return 'there is no such bucket (NoSuchBucket).';
  if (code === 'PermanentRedirect' || code === 'AuthorizationHeaderMalformed') return `the bucket is in another region than S3_REGION says (${code}).`;
  if (code) return `the S3 keys Clearbase was given may not use that bucket (${code}).`;
  if (/\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|TimeoutError)\b/.test(detail)) {
    return `the S3 server does not answer; check S3_ENDPOINT and the network (${detail.replace(/^S3 \w+ of \S+ failed: /, '')}).`;
  }
  return detail;
}

/** An archive's name, never a path: a name from a listing is used only as a name in the same place. */
function archiveNameOnly(name: string): string {
  if (!ARCHIVE_NAME.test(name)) throw new Error(`not a backup archive's name: ${JSON.stringify(name.slice(0, 80))}`);
  return name;
}
