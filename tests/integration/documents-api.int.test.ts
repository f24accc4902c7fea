import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZDocument, ZRecentUploads } from '../../src/contract';
import { listAuditEvents } from '../../src/server/audit/audit-events.repository';
import { updateDocument } from '../../src/server/documents/documents.repository';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { countSubmissions } from '../../src/server/pipeline/submissions.repository';
import { describeEachDatabase } from '../support/databases';
import { FALL_2025, waitForSettledDocument } from '../support/pipeline';
import { injectSignedForm, makePdf } from '../support/multipart';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

const SECRET = 'form-webhook-secret-for-tests';

describeEachDatabase('document calls', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let cookie = '';
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const settle = (id: string) => waitForSettledDocument(getDatabase().db, id);
  const submitPdf = async (submissionId: string, content: Buffer, filename = 'Birth Certificate.pdf') => {
    const response = await injectSignedForm(app(), [
      { name: 'submissionId', value: submissionId },
      { name: 'season', value: '2025' },
      { name: 'division', value: 'AAA' },
      { name: 'playerFirstName', value: 'Grace' },
      { name: 'playerLastName', value: 'Hopper' },
      { name: 'playerBirthDate', value: '2013-12-09' },
      { name: 'guardianEmail', value: 'parent@example.org' },
      { name: 'document', filename, content },
    ], SECRET);
    const id = response.json<{ documents: Array<{ id: string }> }>().documents[0]?.id ?? '';
    return settle(id);
  };
  const call = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: unknown) =>
    app().inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    await insertSeasons(getDatabase().db, [FALL_2025]);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-docs', settings: { FORM_WEBHOOK_SECRET: SECRET } });
    cookie = server.cookie;
  });
  afterAll(() => server?.close());

  it('lists recent uploads newest first with the player name, and validates the limit', async () => {
    const first = await submitPdf('docs-1', makePdf('one'));
    const second = await submitPdf('docs-2', makePdf('two'), 'medical form.pdf');
    const response = await call('GET', '/api/uploads/recent?limit=2');
    expect(response.statusCode).toBe(200);
    const { uploads } = ZRecentUploads.parse(response.json());
    expect(uploads.map((u) => u.id)).toEqual([second.id, first.id]);
    expect(uploads[0]).toMatchObject({ playerName: 'Grace Hopper', fileName: 'medical form.pdf', docType: 'medical', status: 'pending' });
    for (const bad of ['0', '101', 'ten']) {
      const refused = await call('GET', `/api/uploads/recent?limit=${bad}`);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('approves and rejects only from allowed states, with an audit and a reason', async () => {
    const document = await submitPdf('docs-3', makePdf('three'));
    const approved = await call('PATCH', `/api/documents/${document.id}/status`, { status: 'verified', reviewNotes: 'Checked against the original' });
    expect(approved.statusCode).toBe(200);
    expect(ZDocument.parse(approved.json())).toMatchObject({ status: 'verified', reviewNotes: 'Checked against the original' });

    const conflict = await call('PATCH', `/api/documents/${document.id}/status`, { status: 'rejected', reviewNotes: 'blurry' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ code: 'CONFLICT' });

    // Back to Under Review only by a reopen, with a reason.
    const backByPatch = await call('PATCH', `/api/documents/${document.id}/status`, { status: 'pending' });
    expect(backByPatch.statusCode).toBe(400);
    expect((await call('POST', `/api/documents/${document.id}/reopen`, { reason: 'Approved by mistake' })).statusCode).toBe(200);
    const noReason = await call('PATCH', `/api/documents/${document.id}/status`, { status: 'rejected' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<{ details: Array<{ path: string }> }>().details[0]?.path).toBe('body.reviewNotes');

    const rejected = await call('PATCH', `/api/documents/${document.id}/status`, { status: 'rejected', reviewNotes: 'The photo is unreadable' });
    expect(ZDocument.parse(rejected.json())).toMatchObject({ status: 'rejected', reviewNotes: 'The photo is unreadable' });
    const actions = (await listAuditEvents(getDatabase().db, 'document', document.id)).filter((a) => a.action === 'document.status_changed');
    expect(actions.map((a) => a.detail)).toEqual([
      { from: 'pending', to: 'verified', reviewNotes: 'Checked against the original' },
      { from: 'pending', to: 'rejected', reviewNotes: 'The photo is unreadable' },
    ]);

    expect((await call('PATCH', '/api/documents/3f8b7c1e-0000-4000-8000-000000000000/status', { status: 'verified' })).statusCode).toBe(404);
    expect((await call('PATCH', '/api/documents/not-a-uuid/status', { status: 'verified' })).statusCode).toBe(400);
    expect((await call('PATCH', `/api/documents/${document.id}/status`, { status: 'processing' })).statusCode).toBe(400);
  });

  it('downloads the decrypted file as an attachment and audits it', async () => {
    const pdf = makePdf('download me', 30_000);
    const document = await submitPdf('docs-4', pdf, 'Ünïcode, name.pdf');
    expect(document.originalFilename).toBe('Ünïcode, name.pdf');
    const response = await call('GET', `/api/documents/${document.id}/file`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(pdf)).toBe(true);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="_n_code, name.pdf"; filename*=UTF-8''${encodeURIComponent('Ünïcode, name.pdf')}`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect((await listAuditEvents(getDatabase().db, 'document', document.id)).map((a) => a.action)).toContain('document.downloaded');
  });

  it('aborts the download of a stored file that was altered', async () => {
    const document = await submitPdf('docs-5', makePdf('tamper with me', 200_000));
    const file = path.join(server?.dataDir ?? '', 'storage', document.storageKey ?? '');
    const bytes = await readFile(file);
    bytes[1000] = (bytes[1000] ?? 0) ^ 0xff;
    await writeFile(file, bytes);
    const address = await app().listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${address}/api/documents/${document.id}/file`, { headers: { cookie } });
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it('says plainly when a file is on storage this installation has not configured', async () => {
    const document = await submitPdf('docs-7', makePdf('seven'));
    // As if stored while S3 was configured, and S3 has since been removed from the settings.
    await updateDocument(getDatabase().db, document.id, { storageDriver: 's3' });
    const download = await call('GET', `/api/documents/${document.id}/file`);
    expect(download.statusCode).toBe(503);
    expect(download.json<{ message: string }>().message).toBe('This file is on s3 storage, which this installation has not configured.');
    expect(ZDocument.parse((await call('GET', `/api/documents/${document.id}`)).json()).storageUrl).toBeNull();
    expect((await call('POST', '/api/documents/upload-to-storage', { documentIds: [document.id] })).json()).toEqual({ uploaded: 0 });
  });

  it('says when a document has no stored file', async () => {
    const response = await call('GET', '/api/documents/3f8b7c1e-0000-4000-8000-000000000000/file');
    expect(response.statusCode).toBe(404);
  });

  it('pushes selected documents to the configured storage, idempotently, and refuses an empty selection', async () => {
    const document = await submitPdf('docs-6', makePdf('six'));
    const empty = await call('POST', '/api/documents/upload-to-storage', { documentIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toContain('No documents to upload. Please select documents.');
    // Stored straight into the configured (local) storage: nothing left to push.
    expect((await call('POST', '/api/documents/upload-to-storage', { documentIds: [document.id] })).json()).toEqual({ uploaded: 0 });
    expect((await call('POST', '/api/documents/upload-to-storage', { documentIds: ['3f8b7c1e-0000-4000-8000-000000000000'] })).statusCode).toBe(404);
  });

  it('runs a generated test PDF through the whole pipeline on a POST, and never on a GET', async () => {
    const before = await countSubmissions(getDatabase().db, 'test');
    const read = await call('GET', '/api/admin/test');
    expect(read.statusCode).toBe(404);
    expect(await countSubmissions(getDatabase().db, 'test')).toBe(before);

    const response = await call('POST', '/api/admin/test');
    expect(response.statusCode).toBe(200);
    const document = ZDocument.parse(response.json());
    expect(document).toMatchObject({ status: 'pending', docType: 'waiver', originalFilename: 'clearbase-test-waiver.pdf' });
    expect(document.storageUrl).toMatch(/^local:seasons\/\d{4}\/TEST\/pipeline_test_2015-01-01_CB-\d{4}-[0-9a-f]{8}\//);
    expect(await countSubmissions(getDatabase().db, 'test')).toBe(before + 1);
  });
});
