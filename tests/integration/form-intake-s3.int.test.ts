import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/platform/config';
import { decryptToBuffer } from '../../src/server/platform/crypto/envelope';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { describeEachDatabase } from '../support/databases';
import { injectSignedForm, makePdf } from '../support/multipart';
import { FALL_2025, waitForSettledDocument } from '../support/pipeline';
import { S3RVER_CLIENT, startS3rver } from '../support/s3rver';

const SECRET = 'form-webhook-secret-for-tests';

/** The whole pipeline with STORAGE_DRIVER=s3 against a real S3 protocol server. */
describeEachDatabase('form webhook to S3 storage', ({ getDatabase }) => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let clearbase: Clearbase | undefined;
  let dataDir = '';
  let client: S3Client;

  beforeAll(async () => {
    s3 = await startS3rver();
    client = new S3Client({
      endpoint: s3.endpoint,
      region: S3RVER_CLIENT.region,
      forcePathStyle: true,
      credentials: { accessKeyId: S3RVER_CLIENT.accessKeyId, secretAccessKey: S3RVER_CLIENT.secretAccessKey },
    });
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-s3-'));
    await insertSeasons(getDatabase().db, [FALL_2025]);
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: 's3 pipeline password',
      CLEARBASE_DEMO: 'false',
      FORM_WEBHOOK_SECRET: SECRET,
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_REGION: S3RVER_CLIENT.region,
      S3_ACCESS_KEY_ID: S3RVER_CLIENT.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CLIENT.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      CLEARBASE_MASTER_KEY: 'ab'.repeat(32),
    });
    clearbase = await createClearbase(config, createLogger('silent'), { readDocuments: false, database: getDatabase(), webDir: path.join(dataDir, 'none') });
  });
  afterAll(async () => {
    await clearbase?.close();
    client.destroy();
    await s3.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores the encrypted file in the bucket under its stored path, with an s3:// location, and nothing on local disk', async () => {
    const pdf = makePdf('residency via s3', 120_000);
    if (!clearbase) throw new Error('not started');
    const response = await injectSignedForm(clearbase.app, [
      { name: 'submissionId', value: 's3-1' },
      { name: 'season', value: 'fall-2025' },
      { name: 'division', value: 'AA' },
      { name: 'playerFirstName', value: 'Ada' },
      { name: 'playerLastName', value: 'Lovelace' },
      { name: 'playerBirthDate', value: '2015-12-10' },
      { name: 'residency', filename: 'utility bill.pdf', content: pdf },
    ], SECRET);
    expect(response?.statusCode).toBe(202);
    const id = response?.json<{ documents: Array<{ id: string }> }>().documents[0]?.id ?? '';
    const document = await waitForSettledDocument(getDatabase().db, id);
    expect(document).toMatchObject({ status: 'pending', docType: 'residency', storageDriver: 's3' });

    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    const keys = (listed.Contents ?? []).map((o) => o.Key);
    expect(keys).toEqual([document.storageKey]);
    expect(document.storageKey).toMatch(/^seasons\/2025\/AA\/ada_lovelace_2015-12-10_CB-2025-[0-9a-f]{8}\/ada_lovelace_2015-12-10_residency_/);

    const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: document.storageKey ?? '' }));
    const ciphertext = Buffer.from(await object.Body?.transformToByteArray() ?? []);
    expect(ciphertext.includes(Buffer.from('%PDF'))).toBe(false);
    const envelope = { wrappedKey: document.wrappedKey ?? Buffer.alloc(0), iv: document.iv ?? Buffer.alloc(0), authTag: document.authTag ?? Buffer.alloc(0) };
    const plaintext = await decryptToBuffer(Buffer.from('ab'.repeat(32), 'hex'), envelope, ciphertext);
    expect(createHash('sha256').update(plaintext).digest('hex')).toBe(document.fileSha256);

    const local = await readdir(dataDir, { recursive: true, withFileTypes: true });
    expect(local.filter((e) => e.isFile() && e.parentPath.includes(`${path.sep}storage`))).toEqual([]);

    const login = await clearbase?.app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: 's3 pipeline password' } });
    const cookie = [login?.headers['set-cookie']].flat().join(';').split(';')[0] ?? '';
    const view = await clearbase?.app.inject({ method: 'GET', url: `/api/documents/${id}`, headers: { cookie } });
    expect(view?.json<{ storageUrl: string }>().storageUrl).toBe(`s3://${s3.bucket}/${document.storageKey}`);
    const download = await clearbase?.app.inject({ method: 'GET', url: `/api/documents/${id}/file`, headers: { cookie } });
    expect(download?.rawPayload.equals(pdf)).toBe(true);
  });
});
