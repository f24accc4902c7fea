import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/platform/config';
import { countSubmissions } from '../../src/server/pipeline/submissions.repository';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { signBody } from '../../src/server/intake/form/form-webhook';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { describeEachDatabase } from '../support/databases';
import { FALL_2025, waitForSettledDocument } from '../support/pipeline';
import { startFileServer } from '../support/file-server';
import { makePdf } from '../support/multipart';

const SECRET = 'form-webhook-secret-for-tests';
const MAX_FILE_BYTES = 512 * 1024;

describeEachDatabase('form webhook with files by URL', ({ getDatabase }) => {
  let clearbase: Clearbase | undefined;
  let server: Awaited<ReturnType<typeof startFileServer>>;
  let dataDir = '';
  const fields = (submissionId: string) => ({
    submissionId,
    season: 'fall-2025',
    division: 'A',
    playerFirstName: 'Mae',
    playerLastName: 'Jemison',
    playerBirthDate: '2015-10-17',
    guardianEmail: 'family@example.org',
  });
  const post = (body: unknown, raw?: string) => {
    const payload = raw ?? JSON.stringify(body);
    return clearbase?.app.inject({
      method: 'POST',
      url: '/api/intake/form',
      payload,
      headers: { 'content-type': 'application/json', 'x-clearbase-signature': signBody(SECRET, payload) },
    });
  };
  const settle = (id: string) => waitForSettledDocument(getDatabase().db, id);

  beforeAll(async () => {
    server = await startFileServer({ '/birth.pdf': makePdf('birth'), '/proof.pdf': makePdf('proof of residency') });
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-json-'));
    await insertSeasons(getDatabase().db, [FALL_2025]);
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: 'json intake password',
      CLEARBASE_DEMO: 'false',
      FORM_WEBHOOK_SECRET: SECRET,
      FORM_FILE_HOSTS: '127.0.0.1,10.0.0.1,169.254.169.254',
      FORM_FILE_ALLOW_HTTP_LOOPBACK: 'true',
      MAX_FILE_BYTES: String(MAX_FILE_BYTES),
    });
    clearbase = await createClearbase(config, createLogger('silent'), { readDocuments: false, database: getDatabase(), webDir: path.join(dataDir, 'none') });
  });
  afterAll(async () => {
    await clearbase?.close();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('downloads each file, by host name or address, directly or through a redirect, and stores it', async () => {
    const response = await post({
      ...fields('json-1'),
      files: [
        { url: `${server.origin.replace('127.0.0.1', 'localhost')}/birth.pdf`, filename: 'birth.pdf', docType: 'Birth Certificate' },
        { url: `${server.origin}/redirect?to=${encodeURIComponent('/proof.pdf')}`, filename: 'proof of residency.pdf' },
      ],
    });
    expect(response?.statusCode).toBe(202);
    const ids = response?.json<{ documents: Array<{ id: string }> }>().documents.map((d) => d.id) ?? [];
    const [birth, proof] = await Promise.all(ids.map(settle));
    expect(birth).toMatchObject({ status: 'pending', docType: 'birth_certificate' });
    expect(proof).toMatchObject({ status: 'pending', docType: 'residency' });
  });

  it('refuses each unsafe or failing URL with its reason and stores nothing for it', async () => {
    const response = await post({
      ...fields('json-2'),
      files: [
        { url: 'http://10.0.0.1/x.pdf', filename: 'private.pdf' },
        { url: `${server.origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data')}`, filename: 'metadata.pdf' },
        { url: `${server.origin}/endless`, filename: 'endless.pdf' },
        { url: 'https://files.elsewhere.example/x.pdf', filename: 'elsewhere.pdf' },
        { url: `${server.origin}/missing.pdf`, filename: 'missing.pdf' },
      ],
    });
    expect(response?.statusCode).toBe(202);
    const documents = response?.json<{ documents: Array<{ status: string; message: string }> }>().documents ?? [];
    expect(documents.map((d) => d.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
    expect(documents[0]?.message).toMatch(/10\.0\.0\.1, a private or reserved address/);
    expect(documents[1]?.message).toMatch(/169\.254\.169\.254, a private or reserved address/);
    expect(documents[2]?.message).toMatch(/limit is 512 KB/);
    expect(documents[3]?.message).toMatch(/not in FORM_FILE_HOSTS/);
    expect(documents[4]?.message).toMatch(/HTTP 404/);
  });

  it('names every bad field and an unknown document type, and creates nothing', async () => {
    const before = await countSubmissions(getDatabase().db);
    const bad = await post({ ...fields('json-3'), division: 'Z', playerBirthDate: '2015-13-01', files: [] });
    expect(bad?.statusCode).toBe(400);
    expect(bad?.json<{ details: Array<{ path: string }> }>().details.map((d) => d.path).sort()).toEqual(['division', 'files', 'playerBirthDate']);

    const unknownType = await post({ ...fields('json-4'), files: [{ url: `${server.origin}/birth.pdf`, filename: 'b.pdf', docType: 'passport' }] });
    expect(unknownType?.statusCode).toBe(400);
    expect(unknownType?.json<{ details: Array<{ path: string }> }>().details[0]?.path).toBe('files.0.docType');

    const malformed = await post(undefined, '{"submissionId": ');
    expect(malformed?.statusCode).toBe(400);
    expect(malformed?.json()).toMatchObject({ code: 'INVALID_JSON' });
    expect(await countSubmissions(getDatabase().db)).toBe(before);
  });
});
