import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FAMILY_UPLOADS_PER_HOUR, ZFamilyPage, ZFamilyUploadResult, ZPlayerTimeline, ZUploadLink } from '../../../contract';
import { tokenOfLink } from '../../../../tests/support/accounts';
import { describeEachDatabase } from '../../../../tests/support/databases';
import { buildMultipart, makePdf, type Part } from '../../../../tests/support/multipart';
import { waitForSettledDocument } from '../../../../tests/support/pipeline';
import { startSignedInClearbase, type SignedInClearbase } from '../../../../tests/support/signed-in-clearbase';
import { createLocalStorage } from '../../adapters/storage/local-storage';
import { decryptToBuffer } from '../../platform/crypto/envelope';
import { auditEvents, documents, players, registrations, submissions, uploadLinks } from '../../platform/db/schema';
import { insertPlayers } from '../../players/players.repository';
import { insertRegistrations } from '../../players/registrations.repository';
import { insertSeasons } from '../../seasons/seasons.repository';
import { hashUploadToken } from '../../upload-links';

const LENA = 'CB-2025-3c0d0001';
const OTTO = 'CB-2025-3c0d0002';
const FALL = 'fall-2025';
const SPRING = 'spring-2025';
const MASTER_KEY = '7'.repeat(64);

const photo = (width: number, height: number, red: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: red, g: 120, b: 60 } } })
    .jpeg({ quality: 80 })
    .toBuffer();

/**
 * POST /api/family/:token/uploads: a family sends a document through its link. It is recorded for the link's
 * player as a `family` submission naming the link, flows into the pipeline as every intake does, and the
 * answer is the page's new state; never a document id or a file's bytes.
 */
describeEachDatabase('uploads through a family upload link', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const issue = async (playerId: string, season = FALL) => {
    const response = await app().inject({ method: 'POST', url: `/api/players/${playerId}/upload-link`, headers: { cookie: server?.cookie ?? '' }, payload: { season } });
    expect(response.statusCode, response.body).toBe(201);
    const token = tokenOfLink(ZUploadLink.parse(response.json()).url);
    const [link] = await getDatabase().db.select().from(uploadLinks).where(eq(uploadLinks.tokenHash, hashUploadToken(token)));
    if (!link) throw new Error('link not stored');
    return { token, id: link.id };
  };
  const upload = (token: string, parts: Part[]) => {
    const { body, contentType } = buildMultipart(parts);
    return app().inject({ method: 'POST', url: `/api/family/${token}/uploads`, headers: { 'content-type': contentType }, payload: body });
  };
  const submissionsOf = (linkId: string) => getDatabase().db.select().from(submissions).where(eq(submissions.uploadLinkId, linkId));
  const documentsOf = async (linkId: string) => {
    const ids = (await submissionsOf(linkId)).map((row) => row.id);
    return ids.length === 0 ? [] : getDatabase().db.select().from(documents).where(inArray(documents.submissionId, ids));
  };
  const stagingFiles = async () => readdir(path.join(server?.dataDir ?? '', 'storage', 'staging')).catch(() => []);

  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [
      { id: FALL, name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-15', endsOn: '2025-11-30', isCurrent: true },
      { id: SPRING, name: 'Spring Ball 2025', kind: 'Spring Ball', year: 2025, startsOn: '2025-03-01', endsOn: '2025-06-30' },
    ]);
    await insertPlayers(db, [
      { id: LENA, firstName: 'Lena', lastName: 'Martin', birthDate: '2014-04-04', guardianName: 'Paula Martin', guardianEmail: 'paula@example.org', guardianPhone: '555-0100' },
      { id: OTTO, firstName: 'Otto', lastName: 'Kern', birthDate: '2013-03-03' },
    ]);
    await insertRegistrations(db, [
      { playerId: LENA, seasonId: FALL, division: 'AA' },
      { playerId: OTTO, seasonId: FALL, division: 'AAA' },
      { playerId: LENA, seasonId: SPRING, division: 'A' },
    ]);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-family-upload', startWorkers: false, settings: { CLEARBASE_MASTER_KEY: MASTER_KEY } });
  });
  afterAll(() => server?.close());

  it("records a `family` submission for the link's player, whatever else the body says, audited, and answers the page's new state", async () => {
    const { db } = getDatabase();
    const link = await issue(LENA);
    const response = await upload(link.token, [
      { name: 'docType', value: 'birth_certificate' },
      // Fields another intake would read: ignored here.
      { name: 'playerId', value: OTTO },
      { name: 'firstName', value: 'Otto' },
      { name: 'lastName', value: 'Kern' },
      { name: 'birthDate', value: '2013-03-03' },
      { name: 'guardianEmail', value: 'someone.else@example.org' },
      { name: 'season', value: SPRING },
      { name: 'division', value: 'AAA' },
      { name: 'file', filename: 'birth-certificate-scan.pdf', content: makePdf('Lena birth certificate'), contentType: 'application/pdf' },
    ]);
    expect(response.statusCode, response.body).toBe(202);
    const result = ZFamilyUploadResult.parse(response.json());
    expect(result).toMatchObject({
      docType: 'birth_certificate',
      state: 'under_review',
      message: 'Received. A volunteer will check it, usually within a few days; this page shows when it is accepted.',
    });
    expect(result.page.playerFirstName).toBe('Lena');
    expect(result.page.documents.find((document) => document.type === 'birth_certificate')?.state).toBe('under_review');

    const [submission] = await submissionsOf(link.id);
    expect(submission).toMatchObject({ source: 'family', playerId: LENA, seasonId: FALL, uploadLinkId: link.id, status: 'pending', fromEmail: null });
    const [document] = await documentsOf(link.id);
    expect(document).toMatchObject({ playerId: LENA, seasonId: FALL, docType: 'birth_certificate', status: 'processing', mime: 'application/pdf' });
    expect(document?.stagedKey).toBeTruthy();
    // Nothing of the player changed, no registration moved or added.
    const [lena] = await db.select().from(players).where(eq(players.id, LENA));
    expect(lena).toMatchObject({ guardianEmail: 'paula@example.org', guardianName: 'Paula Martin', guardianPhone: '555-0100' });
    expect((await db.select().from(registrations).where(eq(registrations.playerId, LENA))).map((row) => [row.seasonId, row.division]).sort()).toEqual([
      [FALL, 'AA'],
      [SPRING, 'A'],
    ]);
    expect(await db.select().from(documents).where(eq(documents.playerId, OTTO))).toEqual([]);
    // The pipeline has its job.
    const jobs = await db.execute(sql`select payload from jobs where queue = 'process-document'`);
    expect(JSON.stringify(jobs)).toContain(document?.id ?? 'none');

    const used = await db.select().from(auditEvents).where(and(eq(auditEvents.action, 'upload_link.used'), eq(auditEvents.subjectId, LENA)));
    expect(used.map((event) => [event.subjectType, event.actor, event.detail])).toEqual([
      ['player', 'family', { seasonId: FALL, linkId: link.id, docType: 'birth_certificate', submissionId: submission?.id }],
    ]);
    const [row] = await db.select().from(uploadLinks).where(eq(uploadLinks.id, link.id));
    expect(row?.lastUsedAt).toBeInstanceOf(Date);

    // The answer holds no id and no file name, and no family route serves a file.
    for (const fragment of [document?.id, submission?.id, link.id, 'birth-certificate-scan', '.pdf', 'Martin', 'paula@', '%PDF']) expect(response.body).not.toContain(fragment);
    const familyRoutes = app()
      .routeTable.filter((route) => route.url.startsWith('/api/family'))
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(familyRoutes).toEqual(['GET /api/family/:token', 'HEAD /api/family/:token', 'POST /api/family/:token/uploads']);
    const page = await app().inject({ method: 'GET', url: `/api/family/${link.token}` });
    expect(page.headers['content-type']).toMatch(/^application\/json/);
    for (const fragment of [document?.id, submission?.id, '%PDF']) expect(page.body).not.toContain(fragment);
    expect(await stagingFiles()).toHaveLength(1);
  });

  it('combines several photos of one document into one PDF, a page each', async () => {
    const link = await issue(OTTO);
    const pages = await Promise.all([photo(600, 800, 10), photo(800, 600, 90), photo(500, 700, 200)]);
    const response = await upload(link.token, [
      { name: 'docType', value: 'residency' },
      ...pages.map((content, index) => ({ name: 'file', filename: `IMG_00${index + 1}.JPG`, content, contentType: 'image/jpeg' })),
    ]);
    expect(response.statusCode, response.body).toBe(202);
    expect(ZFamilyUploadResult.parse(response.json()).state).toBe('under_review');
    const [document] = await documentsOf(link.id);
    expect(document).toMatchObject({ playerId: OTTO, docType: 'residency', status: 'processing', mime: 'application/pdf', originalFilename: 'residency-3-pages.pdf' });
    if (!document?.stagedKey || !document.wrappedKey || !document.iv || !document.authTag) throw new Error('the document is not staged');
    const storage = createLocalStorage(path.join(server?.dataDir ?? '', 'storage'));
    const pdf = await decryptToBuffer(Buffer.from(MASTER_KEY, 'hex'), { wrappedKey: document.wrappedKey, iv: document.iv, authTag: document.authTag }, await storage.get(document.stagedKey));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)).toHaveLength(3);
    expect(document.bytes).toBe(pdf.length);
  });

  it('refuses what is not one document in words, recording and keeping nothing', async () => {
    const link = await issue(OTTO);
    const before = await stagingFiles();
    const jpeg = await photo(300, 400, 50);
    const cases: Array<[Part[], number, string]> = [
      [[{ name: 'file', filename: 'a.pdf', content: makePdf('no type') }], 400, 'Say which document this is before the file.'],
      [[{ name: 'docType', value: 'passport' }, { name: 'file', filename: 'a.pdf', content: makePdf('bad type') }], 400, 'Choose which document this is.'],
      [[{ name: 'docType', value: 'waiver' }], 400, 'Choose a file or a photo to send.'],
      [
        [{ name: 'docType', value: 'waiver' }, { name: 'file', filename: 'a.pdf', content: makePdf('mixed') }, { name: 'file', filename: 'b.jpg', content: jpeg }],
        400,
        'Several files make one document only when each is a photo (JPEG or PNG). Send a PDF on its own.',
      ],
      [
        [{ name: 'docType', value: 'waiver' }, { name: 'file', filename: 'a.jpg', content: jpeg }, { name: 'file', filename: 'b.png', content: jpeg }],
        400,
        'Photo 2 could not be used: ',
      ],
      [[{ name: 'docType', value: 'waiver' }, { name: 'file', filename: 'notes.txt', content: Buffer.from('hello, not a document') }], 400, 'The file could not be accepted:'],
      [[{ name: 'docType', value: 'waiver' }, { name: 'photo', filename: 'a.jpg', content: jpeg }], 400, 'Send each file in a part named "file".'],
    ];
    for (const [parts, status, message] of cases) {
      const response = await upload(link.token, parts);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
    const tooMany = await upload(link.token, [{ name: 'docType', value: 'waiver' }, ...Array.from({ length: 11 }, (_, index) => ({ name: 'file', filename: `p${index}.jpg`, content: jpeg }))]);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ message: string }>().message).toBe('At most 10 photos make one document.');
    expect(await submissionsOf(link.id)).toEqual([]);
    expect(await stagingFiles()).toEqual(before);
  });

  it('refuses an upload larger than one file may be, with a clear sentence', async () => {
    const small = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-family-small', startWorkers: false, settings: { MAX_FILE_BYTES: '200000' } });
    try {
      const issued = await small.app.inject({ method: 'POST', url: `/api/players/${OTTO}/upload-link`, headers: { cookie: small.cookie }, payload: { season: FALL } });
      const token = tokenOfLink(ZUploadLink.parse(issued.json()).url);
      const { body, contentType } = buildMultipart([{ name: 'docType', value: 'medical' }, { name: 'file', filename: 'big.pdf', content: makePdf('big', 250_000) }]);
      const response = await small.app.inject({ method: 'POST', url: `/api/family/${token}/uploads`, headers: { 'content-type': contentType }, payload: body });
      expect(response.statusCode).toBe(413);
      expect(response.json<{ message: string }>().message).toBe('The file is larger than 0.2 MB, the most one file may be.');
      const [link] = await getDatabase().db.select().from(uploadLinks).where(eq(uploadLinks.tokenHash, hashUploadToken(token)));
      expect(await submissionsOf(link?.id ?? '00000000-0000-4000-8000-000000000000')).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('refuses uploads through a link that does not work, and for a season that is closed, before reading a file', async () => {
    const { db } = getDatabase();
    const before = await stagingFiles();
    const pdf = [{ name: 'docType', value: 'waiver' }, { name: 'file', filename: 'w.pdf', content: makePdf('waiver') }] satisfies Part[];
    const unknown = await upload('A'.repeat(43), pdf);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toBe('This upload link is not valid. Ask the league for a new one.');

    const expired = await issue(LENA);
    await db.update(uploadLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(uploadLinks.id, expired.id));
    expect((await upload(expired.token, pdf)).statusCode).toBe(410);

    const spring = await issue(LENA, SPRING);
    await db.execute(sql`update seasons set closed_at = now() where id = ${SPRING}`);
    const closed = await upload(spring.token, pdf);
    expect(closed.statusCode, closed.body).toBe(409);
    expect(closed.json<{ message: string }>().message).toBe('The Spring Ball 2025 season is closed: it takes no more documents.');
    expect(await submissionsOf(spring.id)).toEqual([]);
    expect(await submissionsOf(expired.id)).toEqual([]);
    expect(await stagingFiles()).toEqual(before);
  });

  it(`takes ${FAMILY_UPLOADS_PER_HOUR} uploads per link per hour, even sent at once, then 429 with Retry-After until the hour has passed`, async () => {
    const { db } = getDatabase();
    const link = await issue(OTTO);
    const send = (n: number) => upload(link.token, [{ name: 'docType', value: 'waiver' }, { name: 'file', filename: `waiver-${n}.pdf`, content: makePdf(`waiver copy ${n}`) }]);
    for (let n = 0; n < FAMILY_UPLOADS_PER_HOUR - 3; n++) expect((await send(n)).statusCode).toBe(202);
    // Eight at once with three left: the link's row is locked while each is counted and recorded.
    const burst = await Promise.all(Array.from({ length: 8 }, (_, n) => send(100 + n)));
    expect(burst.map((response) => response.statusCode).sort()).toEqual([202, 202, 202, 429, 429, 429, 429, 429]);
    expect(await submissionsOf(link.id)).toHaveLength(FAMILY_UPLOADS_PER_HOUR);

    const refused = await send(200);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<{ message: string }>().message).toMatch(/^This link has sent 20 files in the last hour, the most it may\. Try again in \d+ minutes?\.$/);
    // Another link of the same family is not held back by this one's limit.
    const other = await issue(OTTO);
    expect((await upload(other.token, [{ name: 'docType', value: 'waiver' }, { name: 'file', filename: 'w.pdf', content: makePdf('other link') }])).statusCode).toBe(202);

    // An hour later the link takes uploads again.
    await db.execute(sql`update submissions set received_at = received_at - interval '61 minutes' where upload_link_id = ${link.id}`);
    expect((await send(300)).statusCode).toBe(202);
  });
});

describeEachDatabase('a family upload through the pipeline', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [{ id: FALL, name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-15', endsOn: '2025-11-30', isCurrent: true }]);
    await insertPlayers(db, [{ id: LENA, firstName: 'Lena', lastName: 'Martin', birthDate: '2014-04-04' }]);
    await insertRegistrations(db, [{ playerId: LENA, seasonId: FALL, division: 'AA' }]);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-family-pipeline' });
  });
  afterAll(() => server?.close());

  it('is stored by the same job as every intake; staff open it as one PDF of the photos; the timeline tells it', async () => {
    if (!server) throw new Error('not started');
    const { app, cookie } = server;
    const issued = await app.inject({ method: 'POST', url: `/api/players/${LENA}/upload-link`, headers: { cookie }, payload: { season: FALL } });
    const token = tokenOfLink(ZUploadLink.parse(issued.json()).url);
    const pages = await Promise.all([photo(400, 500, 30), photo(400, 500, 150)]);
    const { body, contentType } = buildMultipart([
      { name: 'docType', value: 'medical' },
      ...pages.map((content, index) => ({ name: 'file', filename: `page${index + 1}.jpg`, content })),
    ]);
    const response = await app.inject({ method: 'POST', url: `/api/family/${token}/uploads`, headers: { 'content-type': contentType }, payload: body });
    expect(response.statusCode, response.body).toBe(202);
    const [document] = await getDatabase().db.select().from(documents).where(eq(documents.playerId, LENA));
    if (!document) throw new Error('no document recorded');
    const settled = await waitForSettledDocument(getDatabase().db, document.id);
    expect(settled).toMatchObject({ status: 'pending', docType: 'medical' });
    expect(settled.storageKey).toBeTruthy();

    const file = await app.inject({ method: 'GET', url: `/api/documents/${document.id}/file`, headers: { cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^application\/pdf/);
    expect(file.rawPayload.toString('latin1').match(/\/Type \/Page\b(?!s)/g)).toHaveLength(2);

    const page = await app.inject({ method: 'GET', url: `/api/family/${token}` });
    expect(ZFamilyPage.parse(page.json()).documents.find((entry) => entry.type === 'medical')?.state).toBe('under_review');

    const timeline = await app.inject({ method: 'GET', url: `/api/players/${LENA}/timeline`, headers: { cookie } });
    const lines = ZPlayerTimeline.parse(timeline.json()).entries.map((entry) => [entry.what, entry.who]);
    expect(lines).toContainEqual(['Medical Form sent through the upload link', 'Family upload link']);
    expect(lines).toContainEqual(['Medical Form uploaded', 'Family']);
  });
});
