import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ZBulkStatusResult, ZDocumentHistory, ZDocumentList, ZServerMessage, type TDocumentList, type TServerMessage } from '../../contract';
import { FALL_2025, SPRING_2025, waitForSettledDocument } from '../../../tests/support/pipeline';
import { describeEachDatabase } from '../../../tests/support/databases';
import { injectSignedForm, makePdf } from '../../../tests/support/multipart';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { listAuditEvents } from '../audit/audit-events.repository';
import { findDocument, insertDocuments, type NewDocument } from './documents.repository';
import { insertPlayers } from '../players/players.repository';
import { insertRegistrations } from '../players/registrations.repository';
import { insertSeasons } from '../seasons/seasons.repository';

const SECRET = 'form-webhook-secret-for-tests';
const UNKNOWN_ID = '3f8b7c1e-0000-4000-8000-000000000000';

/**
 * A small league written straight into the database, so every filter has something to narrow:
 * Ada (AAA in fall 2025, AA in spring 2025), Grace (A in fall 2025), Alan (fall 2025, no registration
 * for his spring 2025 document), each document uploaded at a known minute.
 */
const ADA = { id: 'CB-2025-0000000a', firstName: 'Ada', lastName: 'Lovelace', birthDate: '2014-12-10' };
const GRACE = { id: 'CB-2025-0000000b', firstName: 'Grace', lastName: 'Hopper', birthDate: '2013-12-09' };
const ALAN = { id: 'CB-2025-0000000c', firstName: 'Alan', lastName: 'Turing', birthDate: '2012-06-23' };

const at = (minute: number) => new Date(Date.UTC(2025, 8, 1, 12, minute));
let shaCounter = 0;
const doc = (fields: Partial<NewDocument> & { playerId: string; originalFilename: string; uploadedAt: Date }): NewDocument & { id: string; uploadedAt: Date } => ({
  id: randomUUID(),
  seasonId: FALL_2025.id,
  docType: 'birth_certificate',
  status: 'verified',
  bytes: 1000,
  fileSha256: (++shaCounter).toString(16).padStart(64, '0'),
  storageDriver: 'local',
  storageKey: `seasons/2025/x/${shaCounter}.pdf`,
  ...fields,
});

const D = {
  adaBirth: doc({ playerId: ADA.id, originalFilename: 'ada birth.pdf', uploadedAt: at(1) }),
  adaResidency: doc({ playerId: ADA.id, originalFilename: 'scan_1.pdf', docType: 'residency', status: 'pending', uploadedAt: at(2) }),
  adaMedical: doc({ playerId: ADA.id, originalFilename: 'scanX1.pdf', docType: 'medical', status: 'rejected', reviewNotes: 'blurry', storageKey: null, uploadedAt: at(3) }),
  adaSpring: doc({ playerId: ADA.id, seasonId: SPRING_2025.id, originalFilename: 'spring waiver.pdf', docType: 'waiver', uploadedAt: at(4) }),
  graceWaiver: doc({ playerId: GRACE.id, originalFilename: '50%off.pdf', docType: 'waiver', status: 'pending', uploadedAt: at(5) }),
  graceUnknown: doc({ playerId: GRACE.id, originalFilename: '50 percent off.pdf', docType: null, status: 'pending', uploadedAt: at(6) }),
  graceProcessing: doc({ playerId: GRACE.id, originalFilename: 'phone photo.jpg', docType: null, status: 'processing', storageKey: null, storageDriver: null, uploadedAt: at(7) }),
  // Still processing: its virus scan keeps failing.
  graceScanFailed: doc({
    playerId: GRACE.id,
    originalFilename: 'medical form.pdf',
    docType: 'medical',
    status: 'processing',
    storageKey: null,
    storageDriver: null,
    scanFirstFailedAt: at(10),
    scanFailedAt: at(11),
    uploadedAt: at(10),
  }),
  alanPurged: doc({ playerId: ALAN.id, originalFilename: 'old medical.pdf', docType: 'medical', storageKey: null, purgedAt: at(50), uploadedAt: at(8) }),
  alanSpring: doc({ playerId: ALAN.id, seasonId: SPRING_2025.id, originalFilename: 'alan\\backslash.pdf', docType: 'residency', uploadedAt: at(9) }),
  // Same minute as alanSpring: the id decides between them.
  alanTwin: doc({ playerId: ALAN.id, originalFilename: 'twin.pdf', docType: 'waiver', status: 'pending', uploadedAt: at(9) }),
};
const ALL = Object.values(D);

describeEachDatabase('documents list, bulk approve and history', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let cookie = '';
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const call = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: unknown) =>
    app().inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const list = async (query: string): Promise<TDocumentList> => {
    const response = await call('GET', `/api/documents${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return ZDocumentList.parse(response.json());
  };
  const ids = (page: TDocumentList) => page.documents.map((d) => d.id);
  /** The seeded documents matching `keep`, newest first (uploaded_at, then id, descending). */
  const expected = (keep: (d: (typeof ALL)[number]) => boolean) =>
    ALL.filter(keep)
      .sort((a, b) => b.uploadedAt.getTime() - a.uploadedAt.getTime() || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0))
      .map((d) => d.id);

  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [FALL_2025, SPRING_2025]);
    await insertPlayers(db, [ADA, GRACE, ALAN]);
    await insertRegistrations(db, [
      { playerId: ADA.id, seasonId: FALL_2025.id, division: 'AAA' },
      { playerId: ADA.id, seasonId: SPRING_2025.id, division: 'AA' },
      { playerId: GRACE.id, seasonId: FALL_2025.id, division: 'A' },
      { playerId: ALAN.id, seasonId: FALL_2025.id, division: 'Peewee' },
    ]);
    await insertDocuments(db, ALL);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-doclist', settings: { FORM_WEBHOOK_SECRET: SECRET } });
    cookie = server.cookie;
  });
  afterAll(() => server?.close());

  it('lists every document newest first (the id breaking a tie), with the player, the division of that season and where the file is', async () => {
    const page = await list('');
    expect(page.total).toBe(ALL.length);
    expect(page.totalIsEstimate).toBe(false);
    expect({ page: page.page, pageSize: page.pageSize }).toEqual({ page: 1, pageSize: 50 });
    expect(ids(page)).toEqual(expected(() => true));
    const row = (id: string) => page.documents.find((d) => d.id === id);
    expect(row(D.adaMedical.id)).toEqual({
      id: D.adaMedical.id,
      fileName: 'scanX1.pdf',
      playerId: ADA.id,
      playerName: 'Ada Lovelace',
      division: 'AAA',
      docType: 'medical',
      status: 'rejected',
      uploadedAt: at(3).toISOString(),
      bytes: 1000,
      fileSha256: D.adaMedical.fileSha256,
      reviewNotes: 'blurry',
      storageDriver: null,
      scanFailed: false,
      opened: false,
      fileRemoved: false,
    });
    expect(row(D.graceScanFailed.id)).toMatchObject({ status: 'processing', scanFailed: true });
    expect(row(D.graceProcessing.id)).toMatchObject({ status: 'processing', scanFailed: false });
    expect(row(D.adaSpring.id)?.division).toBe('AA');
    expect(row(D.alanSpring.id)?.division).toBeNull();
    expect(row(D.adaBirth.id)?.storageDriver).toBe('local');
    // A tombstone is listed (it existed), with nothing stored behind it.
    expect(row(D.alanPurged.id)?.storageDriver).toBeNull();
    expect(row(D.graceProcessing.id)?.storageDriver).toBeNull();
  });

  it('narrows by each filter alone and by all of them together, the total counting every match', async () => {
    const cases: Array<[string, (d: (typeof ALL)[number]) => boolean]> = [
      ['?status=pending', (d) => d.status === 'pending'],
      ['?status=verified', (d) => d.status === 'verified'],
      ['?status=processing', (d) => d.status === 'processing'],
      ['?status=scan_failed', (d) => d.status === 'processing' && d.scanFailedAt !== undefined],
      ['?status=rejected', (d) => d.status === 'rejected'],
      ['?docType=waiver', (d) => d.docType === 'waiver'],
      ['?docType=undetected', (d) => d.docType === null],
      ['?season=fall-2025', (d) => d.seasonId === FALL_2025.id],
      ['?season=spring-2025', (d) => d.seasonId === SPRING_2025.id],
      ['?search=grace', (d) => d.playerId === GRACE.id],
      ['?search=ADA%20LOVE', (d) => d.playerId === ADA.id],
      ['?search=%20%20turing%20', (d) => d.playerId === ALAN.id],
      ['?search=spring', (d) => d.originalFilename.includes('spring')],
      ['?status=pending&docType=waiver&season=fall-2025&search=hopper', (d) => d === D.graceWaiver],
      ['?status=pending&search=ada', (d) => d === D.adaResidency],
      ['?status=all&docType=all', () => true],
      ['?search=', () => true],
      ['?status=verified&docType=undetected', () => false],
    ];
    for (const [query, keep] of cases) {
      const page = await list(query);
      expect(ids(page), query).toEqual(expected(keep));
      expect(page.total, query).toBe(expected(keep).length);
    }
  });

  it('takes a year as that year\'s latest season', async () => {
    // Fall 2025 starts after spring 2025: 2025 means fall-2025.
    expect(ids(await list('?season=2025'))).toEqual(expected((d) => d.seasonId === FALL_2025.id));
  });

  it('reads % _ and \\ in a search as themselves, not as wildcards', async () => {
    expect(ids(await list('?search=n_1'))).toEqual([D.adaResidency.id]);
    expect(ids(await list('?search=50%25o'))).toEqual([D.graceWaiver.id]);
    expect(ids(await list('?search=%25'))).toEqual([D.graceWaiver.id]);
    expect(ids(await list('?search=_'))).toEqual([D.adaResidency.id]);
    expect(ids(await list(`?search=${encodeURIComponent('n\\b')}`))).toEqual([D.alanSpring.id]);
  });

  it('pages through the same order, with the total on every page and an empty page past the end', async () => {
    const all = expected(() => true);
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const result = await list(`?pageSize=3&page=${page}`);
      expect(result).toMatchObject({ total: all.length, page, pageSize: 3 });
      seen.push(...ids(result));
    }
    expect(seen).toEqual(all);
    const past = await list('?pageSize=3&page=5');
    expect(past).toMatchObject({ documents: [], total: all.length, page: 5 });
    const pendingPage2 = await list('?status=pending&pageSize=2&page=2');
    expect(ids(pendingPage2)).toEqual(expected((d) => d.status === 'pending').slice(2, 4));
    expect(pendingPage2.total).toBe(4);
  });

  it('answers 404 for a season it does not know, and 400 naming each bad parameter', async () => {
    for (const season of ['2019', 'winter-2030']) {
      const response = await call('GET', `/api/documents?season=${season}`);
      expect(response.statusCode, season).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: `There is no season ${season}.` });
    }
    const bad: Array<[string, string]> = [
      ['status=approved', 'querystring.status'],
      ['docType=passport', 'querystring.docType'],
      ['season=Fall%202025', 'querystring.season'],
      ['page=0', 'querystring.page'],
      ['page=two', 'querystring.page'],
      ['pageSize=101', 'querystring.pageSize'],
      ['pageSize=1.5', 'querystring.pageSize'],
      [`search=${'x'.repeat(101)}`, 'querystring.search'],
    ];
    for (const [query, field] of bad) {
      const response = await call('GET', `/api/documents?${query}`);
      expect(response.statusCode, query).toBe(400);
      const body = response.json<{ code: string; details: Array<{ path: string }> }>();
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.details.map((d) => d.path), query).toEqual([field]);
    }
    const two = await call('GET', '/api/documents?status=nope&pageSize=0');
    expect(two.json<{ details: Array<{ path: string }> }>().details.map((d) => d.path).sort()).toEqual(['querystring.pageSize', 'querystring.status']);
  });

  it('needs a session', async () => {
    expect((await app().inject({ method: 'GET', url: '/api/documents' })).statusCode).toBe(401);
    expect((await app().inject({ method: 'POST', url: '/api/documents/status', payload: { documentIds: [D.adaBirth.id], status: 'verified' } })).statusCode).toBe(401);
    expect((await app().inject({ method: 'GET', url: `/api/documents/${D.adaBirth.id}/history` })).statusCode).toBe(401);
  });

  it('approves many pending documents in one go, each with its audit event and live message, and says why the others were left', async () => {
    const { db } = getDatabase();
    const first = doc({ playerId: ADA.id, originalFilename: 'bulk one.pdf', status: 'pending', uploadedAt: at(20) });
    const second = doc({ playerId: GRACE.id, originalFilename: 'bulk two.pdf', status: 'pending', uploadedAt: at(21) });
    const verified = doc({ playerId: ALAN.id, originalFilename: 'bulk verified.pdf', status: 'verified', uploadedAt: at(22) });
    const processing = doc({ playerId: ALAN.id, originalFilename: 'bulk processing.pdf', status: 'processing', uploadedAt: at(23) });
    const rejected = doc({ playerId: ALAN.id, originalFilename: 'bulk rejected.pdf', status: 'rejected', reviewNotes: 'wrong child', uploadedAt: at(24) });
    await insertDocuments(db, [first, second, verified, processing, rejected]);

    const address = await app().listen({ host: '127.0.0.1', port: 0 });
    const received: TServerMessage[] = [];
    const socket = new WebSocket(`${address.replace('http', 'ws')}/ws`, { headers: { cookie, origin: address } });
    await new Promise((resolve) => socket.once('message', resolve));
    socket.on('message', (data: Buffer) => received.push(ZServerMessage.parse(JSON.parse(data.toString('utf8')))));

    const before = new Date();
    const response = await call('POST', '/api/documents/status', {
      documentIds: [first.id, verified.id, processing.id, UNKNOWN_ID, second.id, rejected.id, first.id],
      status: 'verified',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(ZBulkStatusResult.parse(response.json())).toEqual({
      updated: 2,
      skipped: [
        { id: verified.id, reason: 'Not changed: it is already verified.' },
        { id: processing.id, reason: 'Not changed: it is still being processed.' },
        { id: UNKNOWN_ID, reason: 'Not changed: there is no such document.' },
        { id: rejected.id, reason: 'Not changed: it is rejected.' },
      ],
    });

    for (const approved of [first, second]) {
      const row = await findDocument(db, approved.id);
      expect(row?.status).toBe('verified');
      expect(row?.reviewNotes).toBeNull();
      expect(row?.reviewedAt?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
      const audit = await listAuditEvents(db, 'document', approved.id);
      expect(audit.map((a) => ({ actor: a.actor, action: a.action, detail: a.detail, requestId: typeof a.requestId }))).toEqual([
        { actor: 'shared-password', action: 'document.status_changed', detail: { from: 'pending', to: 'verified', reviewNotes: null }, requestId: 'string' },
      ]);
    }
    for (const left of [verified, processing, rejected]) {
      expect((await findDocument(db, left.id))?.status).toBe(left.status);
      expect(await listAuditEvents(db, 'document', left.id)).toEqual([]);
    }
    expect((await findDocument(db, rejected.id))?.reviewNotes).toBe('wrong child');

    const deadline = Date.now() + 5_000;
    const statusMessages = () => received.filter((m) => m.type === 'document_status_updated');
    while (statusMessages().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 100));
    socket.close(1000);
    // One message per approved document; across instances (NOTIFY on PostgreSQL) they may arrive in either order.
    const approvedIds = statusMessages().map((m) => (m.type === 'document_status_updated' ? `${m.data.documentId} ${m.data.status}` : m.type));
    expect(approvedIds.sort()).toEqual([`${first.id} verified`, `${second.id} verified`].sort());

    // Approving again changes nothing and says so.
    const again = await call('POST', '/api/documents/status', { documentIds: [first.id], status: 'verified' });
    expect(again.json()).toEqual({ updated: 0, skipped: [{ id: first.id, reason: 'Not changed: it is already verified.' }] });
  });

  it('approves all or nothing: a failure on one document leaves every other one pending and unaudited', async () => {
    const { db } = getDatabase();
    const fine = doc({ playerId: ADA.id, originalFilename: 'atomic fine.pdf', status: 'pending', uploadedAt: at(30) });
    const alsoFine = doc({ playerId: GRACE.id, originalFilename: 'atomic also fine.pdf', status: 'pending', uploadedAt: at(31) });
    const failing = doc({ playerId: ALAN.id, originalFilename: 'atomic failing.pdf', status: 'pending', uploadedAt: at(32) });
    await insertDocuments(db, [fine, alsoFine, failing]);
    // The audit insert fails for one document, after every update of the statement has run.
    await db.execute(sql.raw(`
      create function refuse_audit() returns trigger language plpgsql as $$
      begin
        if new.subject_id = '${failing.id}' then raise exception 'audit refused for the test'; end if;
        return new;
      end $$`));
    await db.execute(sql.raw('create trigger refuse_audit before insert on audit_events for each row execute function refuse_audit()'));
    try {
      const response = await call('POST', '/api/documents/status', { documentIds: [fine.id, failing.id, alsoFine.id], status: 'verified' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ code: 'INTERNAL' });
    } finally {
      await db.execute(sql.raw('drop trigger refuse_audit on audit_events'));
      await db.execute(sql.raw('drop function refuse_audit()'));
    }
    for (const document of [fine, alsoFine, failing]) {
      const row = await findDocument(db, document.id);
      expect({ status: row?.status, reviewedAt: row?.reviewedAt ?? null }).toEqual({ status: 'pending', reviewedAt: null });
      expect(await listAuditEvents(db, 'document', document.id)).toEqual([]);
    }
    // The same request once nothing gets in its way.
    const retried = await call('POST', '/api/documents/status', { documentIds: [fine.id, failing.id, alsoFine.id], status: 'verified' });
    expect(retried.json()).toEqual({ updated: 3, skipped: [] });
  });

  it('refuses a bulk change it does not offer, naming the field', async () => {
    const bad: Array<[unknown, string, string]> = [
      [{ documentIds: [], status: 'verified' }, 'body.documentIds', 'Select at least one document.'],
      [{ documentIds: ['nope'], status: 'verified' }, 'body.documentIds.0', 'must be document ids'],
      [{ documentIds: Array.from({ length: 501 }, () => randomUUID()), status: 'verified' }, 'body.documentIds', 'at most 500 documents at a time'],
      [{ documentIds: [D.adaResidency.id], status: 'rejected' }, 'body.status', 'only approving (verified) is offered for many documents at once'],
      [{ documentIds: [D.adaResidency.id] }, 'body.status', 'only approving (verified) is offered for many documents at once'],
    ];
    for (const [payload, field, message] of bad) {
      const response = await call('POST', '/api/documents/status', payload);
      expect(response.statusCode, field).toBe(400);
      expect(response.json<{ details: Array<{ path: string; message: string }> }>().details, field).toEqual([{ path: field, message }]);
    }
    expect((await findDocument(getDatabase().db, D.adaResidency.id))?.status).toBe('pending');
  });

  it('tells a document\'s story from intake to download, oldest first, in sentences', async () => {
    const submitted = await injectSignedForm(app(), [
      { name: 'submissionId', value: 'history-1' },
      { name: 'season', value: '2025' },
      { name: 'division', value: 'AAA' },
      { name: 'playerFirstName', value: 'Katherine' },
      { name: 'playerLastName', value: 'Johnson' },
      { name: 'playerBirthDate', value: '2014-08-26' },
      { name: 'document', filename: 'Birth Certificate.pdf', content: makePdf('history') },
    ], SECRET);
    expect(submitted.statusCode).toBe(202);
    const id = submitted.json<{ documents: Array<{ id: string }> }>().documents[0]?.id ?? '';
    await waitForSettledDocument(getDatabase().db, id);
    for (const change of [
      { status: 'rejected', reviewNotes: 'blurry scan' },
      { reopen: 'Sent the wrong reason' },
      { status: 'verified', reviewNotes: 'Checked against the original' },
    ]) {
      const response = 'reopen' in change ? await call('POST', `/api/documents/${id}/reopen`, { reason: change.reopen }) : await call('PATCH', `/api/documents/${id}/status`, change);
      expect(response.statusCode).toBe(200);
    }
    expect((await call('GET', `/api/documents/${id}/file`)).statusCode).toBe(200);

    const response = await call('GET', `/api/documents/${id}/history`);
    expect(response.statusCode).toBe(200);
    const { events } = ZDocumentHistory.parse(response.json());
    expect(events.map(({ actor, action, summary }) => ({ actor, action, summary }))).toEqual([
      { actor: 'form', action: 'submission.received', summary: 'Received from the registration form' },
      { actor: 'system', action: 'document.stored', summary: 'Stored in local storage as birth_certificate (detected from the file name)' },
      { actor: 'shared-password', action: 'document.status_changed', summary: 'Status changed from pending to rejected: blurry scan' },
      { actor: 'shared-password', action: 'document.reopened', summary: 'Reopened for review (it was rejected): Sent the wrong reason' },
      { actor: 'shared-password', action: 'document.status_changed', summary: 'Status changed from pending to verified: Checked against the original' },
      { actor: 'shared-password', action: 'document.downloaded', summary: 'Downloaded' },
    ]);
    const times = events.map((e) => Date.parse(e.at));
    expect(times.every((t, i) => Number.isFinite(t) && (i === 0 || t >= (times[i - 1] ?? 0)))).toBe(true);
  });

  it('answers an empty history for a document nothing was recorded about, 404 for an unknown one and 400 for a bad id', async () => {
    expect((await call('GET', `/api/documents/${D.adaBirth.id}/history`)).json()).toEqual({ events: [] });
    const unknown = await call('GET', `/api/documents/${UNKNOWN_ID}/history`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    const bad = await call('GET', '/api/documents/not-an-id/history');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ details: Array<{ path: string }> }>().details.map((d) => d.path)).toEqual(['params.id']);
  });
});
