import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZDocument, ZDocumentHistory, ZDocumentList } from '../../src/contract';
import { listAuditEvents } from '../../src/server/audit/audit-events.repository';
import { findDocument, insertDocuments, type NewDocument } from '../../src/server/documents/documents.repository';
import { insertPlayers } from '../../src/server/players/players.repository';
import { insertRegistrations } from '../../src/server/players/registrations.repository';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { describeEachDatabase } from '../support/databases';
import { injectSignedForm, makePdf } from '../support/multipart';
import { FALL_2025, waitForSettledDocument } from '../support/pipeline';
import { signInAs } from '../support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

const SECRET = 'reopen-webhook-secret';
const UNKNOWN_ID = '3f8b7c1e-0000-4000-8000-000000000000';

/** Ava plays AA, Cara AAA: a moderator limited to AA sees only Ava's documents. */
const AVA = { id: 'CB-2025-0000a0a0', firstName: 'Ava', lastName: 'Reopen', birthDate: '2014-05-03' };
const CARA = { id: 'CB-2025-0000c0c0', firstName: 'Cara', lastName: 'Reopen', birthDate: '2015-07-07' };

const doc = (playerId: string, status: NewDocument['status'], extra: Partial<NewDocument> = {}): NewDocument & { id: string } => ({
  id: randomUUID(),
  playerId,
  seasonId: FALL_2025.id,
  docType: 'birth_certificate',
  originalFilename: `${status ?? 'doc'}-${randomUUID().slice(0, 8)}.pdf`,
  status,
  bytes: 100,
  reviewedAt: status === 'verified' || status === 'rejected' ? new Date('2025-09-10T00:00:00Z') : null,
  reviewNotes: status === 'rejected' ? 'blurry' : null,
  ...extra,
});

const D = {
  avaVerified: doc(AVA.id, 'verified'),
  avaRejected: doc(AVA.id, 'rejected'),
  avaPending: doc(AVA.id, 'pending'),
  avaProcessing: doc(AVA.id, 'processing'),
  avaPurged: doc(AVA.id, 'verified', { purgedAt: new Date('2025-10-01T00:00:00Z') }),
  avaForViewer: doc(AVA.id, 'verified'),
  caraVerified: doc(CARA.id, 'verified'),
};

describeEachDatabase('reopening a reviewed document, and whether a document was opened', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let everyone = '';
  let aaModerator = '';
  let aaViewer = '';
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app().inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload }) });
  const reopen = (cookie: string, id: string, payload: object) => call(cookie, 'POST', `/api/documents/${id}/reopen`, payload);
  const reopenedEvents = async (id: string) =>
    (await listAuditEvents(getDatabase().db, 'document', id)).filter((event) => event.action === 'document.reopened');

  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [FALL_2025]);
    await insertPlayers(db, [AVA, CARA]);
    await insertRegistrations(db, [
      { playerId: AVA.id, seasonId: FALL_2025.id, division: 'AA' },
      { playerId: CARA.id, seasonId: FALL_2025.id, division: 'AAA' },
    ]);
    await insertDocuments(db, Object.values(D));
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-reopen', settings: { FORM_WEBHOOK_SECRET: SECRET } });
    everyone = server.cookie;
    aaModerator = await signInAs(db, { role: 'moderator', divisions: ['AA'], firstName: 'Mona', lastName: 'Moderator' });
    aaViewer = await signInAs(db, { role: 'viewer', divisions: ['AA'] });
  });
  afterAll(() => server?.close());

  it('puts a verified and a rejected document back under review, clearing the decision, with the reason in an audit event and the history', async () => {
    for (const [document, from] of [
      [D.avaVerified, 'verified'],
      [D.avaRejected, 'rejected'],
    ] as const) {
      const response = await reopen(aaModerator, document.id, { reason: '  Approved the wrong child  ' });
      expect(response.statusCode, response.body).toBe(200);
      expect(ZDocument.parse(response.json())).toMatchObject({ id: document.id, status: 'pending', reviewNotes: null, reviewedAt: null });
      expect(await findDocument(getDatabase().db, document.id)).toMatchObject({ status: 'pending', reviewNotes: null, reviewedAt: null });

      const events = await reopenedEvents(document.id);
      expect(events.map(({ actor, actorName, detail }) => ({ actor, actorName, detail }))).toEqual([
        { actor: 'user', actorName: 'Mona Moderator', detail: { from, reason: 'Approved the wrong child' } },
      ]);
      const history = ZDocumentHistory.parse((await call(aaModerator, 'GET', `/api/documents/${document.id}/history`)).json());
      expect(history.events.at(-1)).toMatchObject({
        action: 'document.reopened',
        actorName: 'Mona Moderator',
        summary: `Reopened for review (it was ${from}): Approved the wrong child`,
      });
    }
    // Under review again, it can be decided anew.
    const approved = await call(aaModerator, 'PATCH', `/api/documents/${D.avaRejected.id}/status`, { status: 'verified' });
    expect(approved.statusCode).toBe(200);
  });

  it('refuses a reopen without a reason, and does not change the document', async () => {
    for (const payload of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(2001) }]) {
      const response = await reopen(everyone, D.caraVerified.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ details: Array<{ path: string }> }>().details.map((d) => d.path)).toEqual(['body.reason']);
    }
    expect((await reopen(everyone, D.caraVerified.id, {})).json<{ details: Array<{ message: string }> }>().details[0]?.message).toBe(
      'a reason is required to reopen a document',
    );
    expect((await findDocument(getDatabase().db, D.caraVerified.id))?.status).toBe('verified');
    expect(await reopenedEvents(D.caraVerified.id)).toEqual([]);
  });

  it('answers 409 in words for a document under review, still processing or past retention, and records nothing', async () => {
    const cases = [
      [D.avaPending, 'it is already under review'],
      [D.avaProcessing, 'it is still being processed'],
      [D.avaPurged, 'its file was removed after the retention period'],
    ] as const;
    for (const [document, why] of cases) {
      const response = await reopen(aaModerator, document.id, { reason: 'second look' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'CONFLICT',
        message: `This document cannot be reopened: ${why}. Only a verified or rejected document can be reopened.`,
      });
      expect((await findDocument(getDatabase().db, document.id))?.status).toBe(document.status);
      expect(await reopenedEvents(document.id)).toEqual([]);
    }
  });

  it('keeps to the division scope and the review permission', async () => {
    // Outside the moderator's divisions: the same 404 as a document that does not exist.
    const outside = await reopen(aaModerator, D.caraVerified.id, { reason: 'second look' });
    const unknown = await reopen(aaModerator, UNKNOWN_ID, { reason: 'second look' });
    expect([outside.statusCode, unknown.statusCode]).toEqual([404, 404]);
    expect(outside.json<{ message: string }>().message).toBe(`Document ${D.caraVerified.id} does not exist.`);
    expect((await findDocument(getDatabase().db, D.caraVerified.id))?.status).toBe('verified');
    // A viewer may not review at all.
    expect((await reopen(aaViewer, D.avaForViewer.id, { reason: 'second look' })).statusCode).toBe(403);
    expect((await app().inject({ method: 'POST', url: `/api/documents/${D.avaForViewer.id}/reopen`, payload: { reason: 'x' } })).statusCode).toBe(401);
    expect((await findDocument(getDatabase().db, D.avaForViewer.id))?.status).toBe('verified');
    // The shared password reaches every division.
    expect((await reopen(everyone, D.caraVerified.id, { reason: 'second look' })).statusCode).toBe(200);
  });

  it('lists a document as opened once its file was read (viewed or downloaded), and only then', async () => {
    const submitted = await injectSignedForm(
      app(),
      [
        { name: 'submissionId', value: `reopen-opened-${randomUUID()}` },
        { name: 'season', value: '2025' },
        { name: 'division', value: 'AA' },
        { name: 'playerFirstName', value: 'Olive' },
        { name: 'playerLastName', value: 'Opened' },
        { name: 'playerBirthDate', value: '2014-08-26' },
        { name: 'birth_certificate', filename: 'olive birth.pdf', content: makePdf('olive birth') },
        { name: 'waiver', filename: 'olive waiver.pdf', content: makePdf('olive waiver') },
      ],
      SECRET,
    );
    expect(submitted.statusCode, submitted.body).toBe(202);
    const ids = submitted.json<{ documents: Array<{ id: string }> }>().documents.map((d) => d.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) await waitForSettledDocument(getDatabase().db, id);
    const [birth = '', waiver = ''] = ids;
    const opened = async () => {
      const response = await call(aaModerator, 'GET', '/api/documents?search=Olive%20Opened');
      expect(response.statusCode).toBe(200);
      return Object.fromEntries(ZDocumentList.parse(response.json()).documents.map((d) => [d.id, d.opened]));
    };
    expect(await opened()).toEqual({ [birth]: false, [waiver]: false });

    // Reading its details or history is not opening the file.
    expect((await call(aaModerator, 'GET', `/api/documents/${birth}`)).statusCode).toBe(200);
    expect((await call(aaModerator, 'GET', `/api/documents/${birth}/history`)).statusCode).toBe(200);
    expect(await opened()).toEqual({ [birth]: false, [waiver]: false });

    // Someone else reading the file counts too: the flag is about the document, not the reader.
    const file = await call(everyone, 'GET', `/api/documents/${birth}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await opened()).toEqual({ [birth]: true, [waiver]: false });
  });
});
