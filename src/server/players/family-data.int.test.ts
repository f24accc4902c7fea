import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZErasedPlayer, type TDocType } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { injectSignedForm, makePdf, makePng } from '../../../tests/support/multipart';
import { FALL_2025, SPRING_2025, waitForSettledDocument } from '../../../tests/support/pipeline';
import { expectBreakdownMatchesRegistrations, expectSummariesMatchDocuments } from '../../../tests/support/report-consistency';
import { signInAs } from '../../../tests/support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { unzip } from '../../../tests/support/zip';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import { insertNotificationHistory } from '../notifications';
import { sealSecret } from '../platform/crypto/secret-box';
import { createLogger } from '../platform/logger';
import { enqueueJob, findJob } from '../platform/jobs/jobs.repository';
import { createEraseFilesHandler, ERASE_FILES_QUEUE } from './family-data.service';
import {
  auditEvents,
  documentReadings,
  documents,
  jobs,
  notificationHistory,
  players,
  registrations,
  submissions,
  uploadLinks,
} from '../platform/db/schema';
import { insertSeasons } from '../seasons/seasons.repository';
import { insertRegistrations } from './registrations.repository';

const SECRET = 'family-data-form-secret';
const MASTER_KEY = randomBytes(32);
/** What reading Lena's birth certificate found, sealed as the reader seals it. */
const READ_TEXT = 'CERTIFICATE OF BIRTH\nLéna Martin, born 2014-04-04';

type Sent = { docType: TDocType; filename: string; bytes: Buffer };
/** Lena's files, each different, as the family sent them. */
const LENA_FILES: readonly Sent[] = [
  { docType: 'birth_certificate', filename: 'birth cert LENA.pdf', bytes: makePdf('lena birth certificate', 2000) },
  { docType: 'medical', filename: 'IMG_2041.png', bytes: makePng(120, 90, 4) },
  { docType: 'waiver', filename: 'waiver signed.pdf', bytes: makePdf('lena waiver', 500) },
];
const OTTO_FILE: Sent = { docType: 'waiver', filename: 'otto waiver.pdf', bytes: makePdf('otto waiver', 300) };

/** Every file under a folder, as paths relative to it: what is left on disk, folders' names included. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}

/**
 * A player's data exported and erased through the API: Lena sent three files with the registration form, one
 * reviewed and one refused with a note, an upload link issued, a message sent about her; Otto, in the same
 * season, must be untouched. The export holds each file byte for byte and the records; the erasure leaves no
 * row and no stored object of hers, a tombstone in the audit trail, her earlier events stripped of what names
 * her, and season totals that still match the documents.
 */
describeEachDatabase('exporting and erasing a family’s data', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let lenaId = '';
  let ottoId = '';
  const lenaDocuments = new Map<string, Sent>();
  let ottoDocument = '';
  const cookies = { admin: '', moderator: '', viewer: '', adminA: '', adminAAndAA: '' };

  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const call = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    app().inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload }) });

  async function send(parts: { id: string; first: string; last: string; birth: string; division: string; guardian: string; files: readonly Sent[] }) {
    const response = await injectSignedForm(
      app(),
      [
        { name: 'submissionId', value: parts.id },
        { name: 'season', value: '2025' },
        { name: 'division', value: parts.division },
        { name: 'playerFirstName', value: parts.first },
        { name: 'playerLastName', value: parts.last },
        { name: 'playerBirthDate', value: parts.birth },
        { name: 'guardianName', value: parts.guardian },
        { name: 'guardianEmail', value: `${parts.guardian.split(' ')[0]?.toLowerCase() ?? ''}.${parts.last.toLowerCase()}@example.org` },
        ...parts.files.map((file) => ({ name: file.docType, filename: file.filename, content: file.bytes })),
      ],
      SECRET,
    );
    expect(response.statusCode, response.body).toBe(202);
    const body = response.json<{ documents: Array<{ id: string }> }>();
    let playerId = '';
    for (const document of body.documents) playerId = (await waitForSettledDocument(getDatabase().db, document.id)).playerId;
    return { ...body, playerId };
  }

  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [SPRING_2025, FALL_2025]);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-family-data', settings: { FORM_WEBHOOK_SECRET: SECRET, CLEARBASE_MASTER_KEY: MASTER_KEY.toString('base64') } });
    cookies.admin = server.cookie;
    cookies.moderator = await signInAs(db, { role: 'moderator' });
    cookies.viewer = await signInAs(db, { role: 'viewer' });
    cookies.adminA = await signInAs(db, { role: 'admin', divisions: ['A'] });
    cookies.adminAAndAA = await signInAs(db, { role: 'admin', divisions: ['A', 'AA'] });

    const lena = await send({ id: 'lena-1', first: 'Léna', last: 'Martin', birth: '2014-04-04', division: 'AA', guardian: 'Paula Martin', files: LENA_FILES });
    lenaId = lena.playerId;
    lena.documents.forEach((document, index) => lenaDocuments.set(document.id, LENA_FILES[index] as Sent));
    const otto = await send({ id: 'otto-1', first: 'Otto', last: 'Kern', birth: '2013-03-03', division: 'AA', guardian: 'Ines Kern', files: [OTTO_FILE] });
    ottoId = otto.playerId;
    ottoDocument = otto.documents[0]?.id ?? '';
    // Lena also played the spring season, in division A: a person of AA alone cannot see all of her.
    await insertRegistrations(db, [{ playerId: lenaId, seasonId: SPRING_2025.id, division: 'A' }]);

    const [birth, medical] = [...lenaDocuments.keys()];
    const reading = { state: 'done' as const, text: sealSecret(MASTER_KEY, READ_TEXT), wordHashes: ['keyed-hash-of-a-word'], readable: true, method: 'text layer', readAt: new Date() };
    await db.insert(documentReadings).values({ documentId: birth ?? '', ...reading }).onConflictDoUpdate({ target: documentReadings.documentId, set: reading });
    expect((await call(cookies.admin, 'POST', '/api/documents/status', { documentIds: [birth], status: 'verified' })).statusCode).toBe(200);
    const refused = await app().inject({
      method: 'PATCH',
      url: `/api/documents/${medical}/status`,
      headers: { cookie: cookies.admin },
      payload: { status: 'rejected', reviewNotes: 'Lena Martin’s form is not signed' },
    });
    expect(refused.statusCode, refused.body).toBe(200);
    const link = await call(cookies.admin, 'POST', `/api/players/${lenaId}/upload-link`, { season: FALL_2025.id });
    expect(link.statusCode, link.body).toBe(201);
    await insertNotificationHistory(db, [
      { type: 'email', recipient: 'paula.martin@example.org', subject: 'Lena: a document is missing', status: 'sent', sentAt: new Date(), playerId: lenaId, seasonId: FALL_2025.id, body: 'Dear Paula…' },
      { type: 'email', recipient: 'ines.kern@example.org', subject: 'Otto: all set', status: 'sent', sentAt: new Date(), playerId: ottoId, seasonId: FALL_2025.id, body: 'Dear…' },
    ]);
  });
  afterAll(() => server?.close());

  it('refuses a moderator and a viewer both actions, and a person outside the player’s divisions', async () => {
    for (const cookie of [cookies.moderator, cookies.viewer]) {
      expect((await call(cookie, 'GET', `/api/players/${lenaId}/export`)).statusCode).toBe(403);
      expect((await call(cookie, 'POST', `/api/players/${lenaId}/erase`, { confirmName: 'Léna Martin' })).statusCode).toBe(403);
    }
    // Registered nowhere in A for fall, but in A for spring: an admin of A alone sees part of her, and may not act on all.
    expect((await call(cookies.adminA, 'GET', `/api/players/${ottoId}/export`)).statusCode).toBe(404);
    const partial = await call(cookies.adminA, 'GET', `/api/players/${lenaId}/export`);
    expect(partial.statusCode).toBe(403);
    expect(partial.json<{ message: string }>().message).toContain('division outside yours');
    expect((await call(cookies.adminA, 'POST', `/api/players/${lenaId}/erase`, { confirmName: 'Léna Martin' })).statusCode).toBe(403);
    expect((await call(cookies.adminAAndAA, 'GET', `/api/players/${lenaId}/export`)).statusCode).toBe(200);
    expect((await call(cookies.admin, 'GET', '/api/players/CB-2025-00000000/export')).statusCode).toBe(404);
  });

  it('exports every file byte for byte, named by season and type, with the records and a summary', async () => {
    const response = await call(cookies.admin, 'GET', `/api/players/${lenaId}/export`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(`clearbase-${lenaId}-`);
    const entries = unzip(response.rawPayload);
    const byName = new Map(entries.map((entry) => [entry.name, entry.bytes]));
    expect([...byName.keys()].sort()).toEqual(
      ['documents/Fall Ball 2025 - Birth Certificate.pdf', 'documents/Fall Ball 2025 - Medical Form.png', 'documents/Fall Ball 2025 - Liability Waiver.pdf', 'records.json', 'summary.txt'].sort(),
    );
    const records = JSON.parse(byName.get('records.json')?.toString() ?? '{}') as {
      player: { id: string; firstName: string; guardianEmail: string };
      registrations: Array<{ seasonId: string; division: string }>;
      documents: Array<{ id: string; type: string; fileInThisExport: string; status: string; reviewNotes: string | null; originalFilename: string; reading: unknown }>;
      submissions: unknown[];
      notifications: Array<{ subject: string }>;
      uploadLinks: Array<{ seasonId: string }>;
      auditEvents: Array<{ action: string; detail: Record<string, unknown> }>;
    };
    expect(records.player).toMatchObject({ id: lenaId, firstName: 'Léna', guardianEmail: 'paula.martin@example.org' });
    expect(records.registrations.map((row) => [row.seasonId, row.division]).sort()).toEqual([[FALL_2025.id, 'AA'], [SPRING_2025.id, 'A']].sort());
    expect(records.documents).toHaveLength(3);
    for (const document of records.documents) {
      const sent = lenaDocuments.get(document.id);
      expect(sent, document.id).toBeDefined();
      expect(byName.get(document.fileInThisExport)?.equals(sent?.bytes ?? Buffer.alloc(0)), document.fileInThisExport).toBe(true);
      expect(document.originalFilename).toBe(sent?.filename);
    }
    expect(records.documents.find((row) => row.status === 'rejected')?.reviewNotes).toBe('Lena Martin’s form is not signed');
    // The text read from a document, opened from its seal; the word index's hashes stay out.
    expect(records.documents.find((row) => row.type === 'birth_certificate')?.reading).toMatchObject({ state: 'done', text: READ_TEXT });
    expect(byName.get('records.json')?.toString()).not.toContain('keyed-hash-of-a-word');
    expect(records.submissions).toHaveLength(1);
    expect(records.notifications.map((row) => row.subject)).toEqual(['Lena: a document is missing']);
    expect(records.uploadLinks.map((row) => row.seasonId)).toEqual([FALL_2025.id]);
    const actions = records.auditEvents.map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(['submission.received', 'document.stored', 'document.status_changed', 'upload_link.issued']));
    // No storage path or the token's hash leaves in the records.
    expect(byName.get('records.json')?.toString()).not.toMatch(/storageKey|storedPath|tokenHash|seasons\/2025/);
    const summary = byName.get('summary.txt')?.toString() ?? '';
    expect(summary).toContain('Everything Clearbase holds about Léna Martin');
    expect(summary).toContain('File: documents/Fall Ball 2025 - Liability Waiver.pdf');
    expect(summary).toContain('Lena Martin’s form is not signed');
    expect(summary).toContain('Text read from it:\n      CERTIFICATE OF BIRTH');

    const [exported] = await getDatabase()
      .db.select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'player.exported' and ${auditEvents.subjectId} = ${lenaId}`)
      .orderBy(sql`${auditEvents.id} desc`)
      .limit(1);
    expect(exported).toMatchObject({ subjectType: 'player', actorName: 'Shared password' });
    expect(exported?.detail).toMatchObject({ documents: 3, files: 3 });
  });

  it('leaves out a file storage no longer has, and says so in the summary', async () => {
    const { db } = getDatabase();
    const waiver = [...lenaDocuments].find(([, sent]) => sent.docType === 'waiver')?.[0] ?? '';
    const [row] = await db.select({ key: documents.storageKey }).from(documents).where(eq(documents.id, waiver));
    const file = path.join(server?.dataDir ?? '', 'storage', ...(row?.key ?? '').split('/'));
    await rename(file, `${file}.away`);
    try {
      const response = await call(cookies.admin, 'GET', `/api/players/${lenaId}/export`);
      expect(response.statusCode).toBe(200);
      const entries = unzip(response.rawPayload);
      expect(entries.map((entry) => entry.name)).not.toContain('documents/Fall Ball 2025 - Liability Waiver.pdf');
      expect(entries.filter((entry) => entry.name.startsWith('documents/'))).toHaveLength(2);
      expect(entries.find((entry) => entry.name === 'summary.txt')?.bytes.toString()).toContain('File: could not be read from storage for this export');
    } finally {
      await rename(`${file}.away`, file);
    }
  });

  it('erases nothing when the typed name is not the player’s, or while a worker runs a job of one of her documents', async () => {
    const { db } = getDatabase();
    const response = await call(cookies.admin, 'POST', `/api/players/${lenaId}/erase`, { confirmName: 'Lena Marti' });
    expect(response.statusCode).toBe(400);
    expect(await db.select().from(players).where(eq(players.id, lenaId))).toHaveLength(1);

    const [first] = [...lenaDocuments.keys()];
    const ofFirst = sql`${jobs.queue} = 'process-document' and ${jobs.payload} ->> 'documentId' = ${first ?? ''}`;
    await db.update(jobs).set({ status: 'running' }).where(ofFirst);
    try {
      const busy = await call(cookies.admin, 'POST', `/api/players/${lenaId}/erase`, { confirmName: 'Léna Martin' });
      expect(busy.statusCode).toBe(409);
      expect(busy.json<{ message: string }>().message).toContain('being processed right now');
      expect(await db.select().from(documents).where(eq(documents.playerId, lenaId))).toHaveLength(3);
    } finally {
      await db.update(jobs).set({ status: 'done' }).where(ofFirst);
    }
  });

  it('erases every row and stored object of the player, keeps a tombstone, and leaves Otto and the season totals right', async () => {
    const { db } = getDatabase();
    const storageDir = path.join(server?.dataDir ?? '', 'storage');
    const before = await filesUnder(storageDir);
    const lenaStorageKeys = (await db.select({ key: documents.storageKey }).from(documents).where(eq(documents.playerId, lenaId))).map((row) => row.key ?? '');
    expect(lenaStorageKeys.every((key) => before.includes(key))).toBe(true);
    const eventIdsBefore = (await db.select({ id: auditEvents.id }).from(auditEvents).where(sql`${auditEvents.subjectId} = ${lenaId} or ${auditEvents.subjectId} in (${sql.join([...lenaDocuments.keys()].map((id) => sql`${id}`), sql`, `)})`)).map((row) => row.id);

    // Accents, case and spaces as a person may type them.
    const response = await call(cookies.admin, 'POST', `/api/players/${lenaId}/erase`, { confirmName: '  lena   MARTIN ' });
    expect(response.statusCode, response.body).toBe(200);
    const erased = ZErasedPlayer.parse(response.json());
    expect(erased).toMatchObject({ playerId: lenaId, registrations: 2, documents: 3, files: 3, submissions: 1, notifications: 1, uploadLinks: 1 });

    for (const table of [players, registrations, documents, uploadLinks, notificationHistory] as const) {
      const column = 'playerId' in table ? table.playerId : table.id;
      expect(await db.select().from(table).where(eq(column, lenaId)), table === players ? 'players' : 'a table of hers').toHaveLength(0);
    }
    expect(await db.select().from(documentReadings).where(inArray(documentReadings.documentId, [...lenaDocuments.keys()]))).toHaveLength(0);
    const [submission] = await db.select().from(submissions).where(eq(submissions.externalId, 'lena-1'));
    expect(submission).toMatchObject({ playerId: null, fields: {}, fromEmail: null, uploadLinkId: null });
    expect(await db.select().from(jobs).where(sql`${jobs.payload} ->> 'documentId' in (${sql.join([...lenaDocuments.keys()].map((id) => sql`${id}`), sql`, `)})`)).toHaveLength(0);

    // The files go right after the commit, and the job that deleted them keeps no key.
    const deadline = Date.now() + 10_000;
    const eraseJob = async () => (await db.select().from(jobs).where(eq(jobs.queue, 'erase-files')))[0];
    while ((await eraseJob())?.status !== 'done' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await filesUnder(storageDir);
    for (const key of lenaStorageKeys) expect(after).not.toContain(key);
    expect(after.filter((entry) => /martin|lena|2014-04-04/i.test(entry)), 'nothing on disk names her').toEqual([]);
    expect(await eraseJob()).toMatchObject({ status: 'done', payload: { objects: [] } });

    // The tombstone: her id and counts, no name; her earlier events keep their ids, stripped of what names her.
    const [tombstone] = await db.select().from(auditEvents).where(eq(auditEvents.action, 'player.erased'));
    expect(tombstone).toMatchObject({ subjectType: 'player', subjectId: lenaId, detail: { documents: 3, registrations: 2, files: 3 } });
    const kept = await db.select().from(auditEvents).where(inArray(auditEvents.id, eventIdsBefore));
    expect(kept.map((row) => row.id).sort()).toEqual([...eventIdsBefore].sort());
    for (const row of kept) expect(row.detail).toMatchObject({ erased: true });
    const trail = await db.select({ detail: auditEvents.detail, subjectId: auditEvents.subjectId }).from(auditEvents);
    expect(trail.filter((row) => /martin|léna|lena|paula|2014-04-04|not signed/i.test(JSON.stringify(row)))).toEqual([]);

    // Otto is untouched: his row, his file byte for byte, his message.
    const otto = await call(cookies.admin, 'GET', `/api/players/${ottoId}/export`);
    expect(otto.statusCode).toBe(200);
    const ottoEntries = unzip(otto.rawPayload);
    expect(ottoEntries.find((entry) => entry.name === 'documents/Fall Ball 2025 - Liability Waiver.pdf')?.bytes.equals(OTTO_FILE.bytes)).toBe(true);
    expect(await db.select().from(documents).where(eq(documents.id, ottoDocument))).toHaveLength(1);
    expect(await db.select().from(notificationHistory).where(eq(notificationHistory.playerId, ottoId))).toHaveLength(1);

    // The season's figures are those of Otto alone, and every kept summary matches the documents.
    await expectSummariesMatchDocuments(db);
    await expectBreakdownMatchesRegistrations(db);
    const stats = await call(cookies.admin, 'GET', `/api/stats?season=${FALL_2025.id}`);
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json<{ totalPlayers: number }>()).toMatchObject({ totalPlayers: 1 });
    const spring = await call(cookies.admin, 'GET', `/api/stats?season=${SPRING_2025.id}`);
    expect(spring.json<{ totalPlayers: number }>()).toMatchObject({ totalPlayers: 0 });

    // Erased is gone: a second erasure or an export finds no one.
    expect((await call(cookies.admin, 'GET', `/api/players/${lenaId}/export`)).statusCode).toBe(404);
    expect((await call(cookies.admin, 'POST', `/api/players/${lenaId}/erase`, { confirmName: 'Léna Martin' })).statusCode).toBe(404);
  });
});

/**
 * The erase-files job when the storage fails: the objects it could not delete stay in its payload for the next
 * attempt (retried, never given up quietly), those deleted leave it, and once all are gone the payload is empty.
 */
describeEachDatabase('the erase-files job', ({ getDatabase }) => {
  it('keeps what it could not delete for the next attempt, and empties its payload once all are gone', async () => {
    const { db } = getDatabase();
    const folder = await mkdtemp(path.join(tmpdir(), 'cb-erase-files-'));
    try {
      const storage = createLocalStorage(folder);
      const keys = ['seasons/2025/AA/kern_otto_x/waiver.pdf', 'seasons/2025/AA/kern_otto_x/medical.pdf'];
      for (const key of keys) await storage.put(key, Buffer.from(key));
      const failing = new Set([keys[1]]);
      const flaky: Storage = { ...storage, delete: (key) => (failing.has(key) ? Promise.reject(new Error(`EIO on ${key}`)) : storage.delete(key)), removeEmptyFolder: (f) => storage.removeEmptyFolder?.(f) ?? Promise.resolve() };
      const handler = createEraseFilesHandler({ db, storageFor: () => flaky, log: createLogger('silent') });
      const objects = keys.map((key) => ({ driver: 'local' as const, key }));
      const id = await enqueueJob(db, { queue: ERASE_FILES_QUEUE, payload: { objects } });

      expect(await handler({ objects }, { id, attempt: 1 })).toMatchObject({ kind: 'retry' });
      expect((await findJob(db, id))?.payload).toEqual({ objects: [objects[1]] });
      expect(await storage.exists(keys[0] ?? '')).toBe(false);
      expect(await storage.exists(keys[1] ?? '')).toBe(true);

      failing.clear();
      expect(await handler({ objects: [objects[1] as (typeof objects)[number]] }, { id, attempt: 2 })).toEqual({ kind: 'done' });
      expect((await findJob(db, id))?.payload).toEqual({ objects: [] });
      expect(await filesUnder(folder), 'the folder named after the child goes too').not.toContain(path.join('seasons', '2025', 'AA', 'kern_otto_x'));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
