import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { assertSafeKey, folderOfPrefix, type ObjectVersion, type Storage, type StoredObject } from './port';

export type S3StorageSettings = {
  /** Any S3-compatible endpoint; absent means AWS itself. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Both or neither: neither means the SDK's default chain (environment, instance role, …). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `true` for most S3-compatible servers (MinIO, s3rver), which do not serve bucket subdomains. */
  forcePathStyle: boolean;
  /**
   * Sees every HTTP request after it is built and before it is signed, so it never sees a signature.
   * For tests: s3rver ignores SSE headers, so only the wire shows that we asked for encryption.
   */
  onRequest?: (request: { command: string; method: string; path: string; headers: Readonly<Record<string, string>> }) => void;
  /**
   * Keys per ListObjectsV2 page (S3's own default and maximum is 1000). For tests: a small page makes
   * a handful of objects span several pages, so pagination is exercised without writing thousands.
   */
  listPageSize?: number;
};

/**
 * Objects in one S3 bucket. Puts stream through `Upload` (one PutObject when the body fits one part,
 * multipart above 5 MiB, at most queueSize × 5 MiB held in memory), always asking for SSE-S3 on top of
 * Clearbase's own encryption. SDK errors are rethrown with the bucket and key, never with credentials.
 */
export function createS3Storage(settings: S3StorageSettings): Storage {
  const { bucket } = settings;
  const client = createClient(settings);
  const location = `s3://${bucket}`;
  const urlFor = (key: string) => {
    assertSafeKey(key);
    return `${location}/${key}`;
  };
  const fail = (operation: string, key: string, error: unknown): Error =>
    new Error(`S3 ${operation} of ${location}/${key} failed: ${redact(describeError(error), settings)}`);

  return {
    driver: 's3',
    location,
    urlFor,
    // Interrupted multipart uploads are the bucket's to expire (AbortIncompleteMultipartUpload, README).
    removeAbandonedWrites: () => Promise.resolve(0),

    async put(key, body) {
      const url = urlFor(key);
      let bytes = 0;
      let sourceError: unknown;
      // Counting in a generator (not a 'data' listener) keeps backpressure, and records a failure of the
      // caller's stream before lib-storage sees it: its attempt to abort the multipart upload can throw
      // an error of its own that would otherwise hide the real cause.
      async function* counted(source: Readable): AsyncGenerator<Buffer> {
        try {
          for await (const chunk of source as AsyncIterable<unknown>) {
            const buffer = toBuffer(chunk);
            bytes += buffer.length;
            yield buffer;
          }
        } catch (error) {
          sourceError = error;
          throw error;
        }
      }
      const stream = Buffer.isBuffer(body) ? undefined : Readable.from(counted(body));
      const upload = new Upload({
        client,
        params: {
          Bucket: bucket,
          Key: key,
          Body: stream ?? body,
          // Spread by Upload into PutObject and CreateMultipartUpload alike.
          ServerSideEncryption: 'AES256',
        },
      });
      try {
        await upload.done();
      } catch (error) {
        const cause = sourceError;
        // Upload may stop reading part-way (a single PutObject failed): release the caller's stream.
        if (!Buffer.isBuffer(body)) {
          stream?.destroy();
          body.destroy();
        }
        if (cause !== undefined) {
          throw new Error(`S3 put of ${url} failed: source stream failed: ${describeError(cause)}`, { cause });
        }
        throw fail('put', key, error);
      }
      return { url, bytes: Buffer.isBuffer(body) ? body.length : bytes };
    },

    async get(key) {
      assertSafeKey(key);
      try {
        const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!(Body instanceof Readable)) throw new Error('response has no readable body');
        return Body;
      } catch (error) {
        if (isNotFound(error)) throw new Error(`object not found: ${key}`);
        throw fail('get', key, error);
      }
    },

    async versionOf(key) {
      assertSafeKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return versionFrom(head, key);
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw fail('head', key, error);
      }
    },

    async getVersion(key, versionId) {
      assertSafeKey(key);
      try {
        const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(versionId === null ? {} : { VersionId: versionId }) }));
        const body = got.Body;
        if (!(body instanceof Readable)) throw new Error('response has no readable body');
        try {
          return { body, version: versionFrom(got, key) };
        } catch (error) {
          body.destroy();
          throw error;
        }
      } catch (error) {
        if (isNotFound(error)) throw new Error(`object not found: ${key}${versionId === null ? '' : ` (version ${versionId})`}`);
        throw fail('get', key, error);
      }
    },

    async exists(key) {
      assertSafeKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw fail('exists', key, error);
      }
    },

    async *list(prefix): AsyncGenerator<StoredObject> {
      // The trailing slash makes the prefix a folder: `staging/` never matches `staging-old/…`.
      const folderPrefix = `${folderOfPrefix(prefix)}/`;
      let continuationToken: string | undefined;
      do {
        let page;
        try {
          page = await client.send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: folderPrefix, ContinuationToken: continuationToken, MaxKeys: settings.listPageSize }),
          );
        } catch (error) {
          throw fail('list', folderPrefix, error);
        }
        for (const object of page.Contents ?? []) {
          if (object.Key !== undefined && object.LastModified !== undefined) yield { key: object.Key, lastModified: object.LastModified };
        }
        // A truncated page without a token would otherwise list the first page forever.
        if (page.IsTruncated && !page.NextContinuationToken) throw fail('list', folderPrefix, 'truncated page without a continuation token');
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
    },

    async copy(fromKey, toKey) {
      assertSafeKey(fromKey);
      assertSafeKey(toKey);
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: toKey,
            CopySource: `${bucket}/${fromKey.split('/').map(encodeURIComponent).join('/')}`,
            ServerSideEncryption: 'AES256',
          }),
        );
      } catch (error) {
        if (isNotFound(error)) throw new Error(`object not found: ${fromKey}`);
        throw fail('copy', fromKey, error);
      }
    },

    async delete(key) {
      assertSafeKey(key);
      try {
        // S3 answers 204 for a key that is not there, so a repeated delete is already harmless.
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (isNotFound(error)) return;
        throw fail('delete', key, error);
      }
    },
  };
}

function createClient(settings: S3StorageSettings): S3Client {
  const { accessKeyId, secretAccessKey } = settings;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('S3 storage needs both an access key id and a secret access key, or neither');
  }
  const config: S3ClientConfig = {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // The SDK's default (WHEN_SUPPORTED) sends any stream body aws-chunked with a trailing CRC32, which
    // some S3-compatible servers (s3rver among them) store verbatim: a corrupted object. Upload hands the
    // SDK Buffers today, but nothing should depend on that; and the bytes are already AES-GCM
    // authenticated by Clearbase, so extra CRCs buy nothing. Checksums only where the API demands them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Without these a blackholed endpoint hangs a request forever. requestTimeout runs until the response
    // headers arrive (so it covers sending one 5 MiB part); socketTimeout catches a stall mid-body.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000, throwOnRequestTimeout: true, socketTimeout: 60_000 },
    maxAttempts: 3,
  };
  if (settings.endpoint) config.endpoint = settings.endpoint;
  if (accessKeyId && secretAccessKey) config.credentials = { accessKeyId, secretAccessKey };
  const client = new S3Client(config);

  const { onRequest } = settings;
  if (onRequest) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const request = args.request;
        if (isHttpRequest(request)) {
          onRequest({ command: context.commandName ?? 'unknown', method: request.method, path: request.path, headers: { ...request.headers } });
        }
        return next(args);
      },
      { step: 'build', name: 'clearbaseOnRequest' },
    );
  }
  return client;
}

/** What a HeadObject or GetObject answer says of the version it describes. */
function versionFrom(answer: { VersionId?: string; ETag?: string; ContentLength?: number }, key: string): ObjectVersion {
  if (answer.ETag === undefined || answer.ContentLength === undefined) throw new Error(`S3 gave no ETag or size for ${key}`);
  // A bucket that never kept versions answers no id; one whose versioning is suspended answers "null".
  const versionId = answer.VersionId === undefined || answer.VersionId === 'null' ? null : answer.VersionId;
  return { versionId, etag: answer.ETag, bytes: answer.ContentLength };
}

function isHttpRequest(value: unknown): value is { method: string; path: string; headers: Record<string, string> } {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { method?: unknown; path?: unknown; headers?: unknown };
  return typeof candidate.method === 'string' && typeof candidate.path === 'string' && typeof candidate.headers === 'object';
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'NoSuchKey' || error.name === 'NotFound') return true;
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket';
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === 'string') return Buffer.from(chunk);
  throw new TypeError(`storage body yielded a ${typeof chunk}, not bytes`);
}

/** A one-line reason: the S3 error code and HTTP status, or the network error code (ECONNREFUSED …). */
function describeError(error: unknown): string {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    return `${error.name}${status ? ` (HTTP ${status})` : ''}: ${error.message}`;
  }
  if (error instanceof AggregateError && error.errors.length > 0) {
    // Node's happy-eyeballs connect reports one error per address tried, with an empty message of its own.
    return [...new Set(error.errors.map(describeError))].join('; ');
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = error.message || error.name;
    return code && !message.includes(code) ? `${code}: ${message}` : message;
  }
  return typeof error === 'string' ? error : 'unknown error';
}

/** Server messages (SignatureDoesNotMatch, InvalidAccessKeyId) can echo the access key id back. */
function redact(text: string, settings: S3StorageSettings): string {
  let result = text;
  for (const secret of [settings.accessKeyId, settings.secretAccessKey]) {
    if (secret) result = result.split(secret).join('[redacted]');
  }
  return result;
}
