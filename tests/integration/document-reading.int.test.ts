import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { ZDocument, ZDocumentList, type TDocument } from '../../src/contract';
import { onePagePdf } from '../../src/server/files';
import { documentReadings } from '../../src/server/platform/db/schema';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { addPerson, setSignInMode, signInAs } from '../support/accounts';
import { describeEachDatabase } from '../support/databases';
import { injectSignedForm, type Part } from '../support/multipart';
import { FALL_2025 } from '../support/pipeline';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

const SECRET = 'form-webhook-secret-for-tests';

/** YYYY-MM-DD, `months` before today. */
const monthsAgo = (months: number): string => {
  const day = new Date();
  day.setUTCMonth(day.getUTCMonth() - months);
  return day.toISOString().slice(0, 10);
};
const usDate = (iso: string): string => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/** Stored documents are read after the pipeline, in their own lane, with the reader of the running server. */
describeEachDatabase('reading stored documents', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const started = () => {
    if (!server) throw new Error('not started');
    return server;
  };
  const call = (method: 'GET' | 'PATCH', url: string, payload?: object, cookie = started().cookie) =>
    started().app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  /** Sends one file for a player, and answers its document id. */
  const send = async (submissionId: string, player: { first: string; last: string; birthDate: string }, field: string, file: { name: string; content: Buffer }) => {
    const parts: Part[] = [
      { name: 'submissionId', value: submissionId },
      { name: 'season', value: 'fall-2025' },
      { name: 'division', value: 'A' },
      { name: 'playerFirstName', value: player.first },
      { name: 'playerLastName', value: player.last },
      { name: 'playerBirthDate', value: player.birthDate },
      { name: field, filename: file.name, content: file.content },
    ];
    const response = await injectSignedForm(started().app, parts, SECRET);
    expect(response.statusCode).toBe(202);
    const id = response.json<{ documents: Array<{ id: string }> }>().documents[0]?.id;
    if (!id) throw new Error('no document was recorded');
    return id;
  };

  /** The document once its reading is no longer waiting (the pipeline, then the reading lane). */
  const readDocument = async (id: string, timeoutMs = 60_000): Promise<TDocument> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const response = await call('GET', `/api/documents/${id}`);
      if (response.statusCode === 200) {
        const document = ZDocument.parse(response.json());
        if (document.status !== 'processing' && document.reading.state !== 'waiting') return document;
      }
      if (Date.now() > deadline) throw new Error(`document ${id} was not read in time`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    await insertSeasons(getDatabase().db, [FALL_2025]);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-reading', settings: { FORM_WEBHOOK_SECRET: SECRET }, readDocuments: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reads a birth certificate’s PDF text: its type, the child’s name and date of birth, and no check when they agree', async () => {
    const id = await send('read-1', { first: 'Ada', last: 'Lovelace', birthDate: '2015-12-10' }, 'birth_certificate', {
      name: 'scan_0042.pdf',
      content: onePagePdf(['CERTIFICATE OF LIVE BIRTH', 'State Registrar of Vital Statistics', 'Name of child: Ada Lovelace', 'Date of birth: 12/10/2015', 'Place of birth: Springfield General Hospital'], 20),
    });
    const document = await readDocument(id);
    expect(document.reading).toMatchObject({ state: 'done', method: 'pdf-text' });
    expect(document.extracted).toEqual({ docType: 'birth_certificate', fullName: 'Ada Lovelace', dateOfBirth: '2015-12-10', documentDate: null, confidence: 1 });
    expect(document.checks).toEqual([]);

    // The text is kept sealed: neither it nor its words are in the clear in the database.
    const [row] = await getDatabase().db.select().from(documentReadings).where(eq(documentReadings.documentId, id));
    expect(JSON.stringify(row?.text)).not.toMatch(/Lovelace|Springfield/i);
    expect(row?.wordHashes.length).toBeGreaterThan(5);
    expect(row?.wordHashes.join(' ')).not.toMatch(/lovelace|springfield/);
  });

  it('raises the type, date of birth, name and expiry checks on a medical form sent as a waiver for someone else', async () => {
    const exam = monthsAgo(14);
    const id = await send('read-2', { first: 'Grace', last: 'Hopper', birthDate: '2014-06-03' }, 'waiver', {
      name: 'waiver_hopper.pdf',
      content: onePagePdf(
        ['PRE-PARTICIPATION PHYSICAL EXAMINATION', 'Patient name: Margaret Hamilton', 'Date of birth: 03/07/2014', `Date of exam: ${usDate(exam)}`, 'Physician: Dr. Rivera, MD', 'Cleared for all sports without restriction'],
        18,
      ),
    });
    const document = await readDocument(id);
    expect(document.docType).toBe('waiver');
    expect(document.extracted).toMatchObject({ docType: 'medical', fullName: 'Margaret Hamilton', dateOfBirth: '2014-03-07', documentDate: exam });
    expect(document.checks.map((check) => check.kind).sort()).toEqual(['dob_mismatch', 'expired', 'name_mismatch', 'type_mismatch']);
    for (const check of document.checks) expect(check.message).toMatch(/^[A-Z].*[.]$/);
  });

  it('says a photo with nothing legible on it is unreadable, read by OCR', async () => {
    const blank = await sharp({ create: { width: 1200, height: 1600, channels: 3, background: { r: 96, g: 96, b: 100 } } })
      .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1600"><circle cx="600" cy="800" r="500" fill="#3a3a3a"/></svg>') }])
      .jpeg({ quality: 60 })
      .toBuffer();
    const id = await send('read-3', { first: 'Alan', last: 'Turing', birthDate: '2016-06-23' }, 'residency', { name: 'IMG_2041.jpg', content: blank });
    const document = await readDocument(id);
    expect(document.reading).toMatchObject({ state: 'done', method: 'ocr' });
    expect(document.checks.map((check) => check.kind)).toEqual(['unreadable']);
  });

  it('finds documents by the words inside them, only for staff who may open files', async () => {
    await send('read-4', { first: 'Edsger', last: 'Dijkstra', birthDate: '2015-05-11' }, 'residency', {
      name: 'proof_of_address.pdf',
      content: onePagePdf(['Riverside Water Utility', 'Statement date: 09/01/2025', 'Service address: 88 Quillfeather Lane, Springfield'], 18),
    }).then(readDocument);

    const search = async (words: string, cookie?: string) =>
      ZDocumentList.parse((await call('GET', `/api/documents?search=${encodeURIComponent(words)}`, undefined, cookie)).json()).documents.map((row) => row.playerName);
    expect(await search('quillfeather')).toEqual(['Edsger Dijkstra']);
    expect(await search('QUILLFEATHER lane')).toEqual(['Edsger Dijkstra']);
    expect(await search('quillfeather nowhere')).toEqual([]);

    await setSignInMode(started().app, started().cookie, 'both');
    const viewer = await addPerson(started().app, started().cookie, { email: 'viewer@example.org', password: 'viewer password for tests', role: 'viewer' });
    expect(await search('quillfeather', await signInAs(started().app, viewer))).toEqual([]);
    // Names and file names are still found for everyone.
    expect(await search('dijkstra', await signInAs(started().app, viewer))).toEqual(['Edsger Dijkstra']);
  });

  it('stores, shows and lets staff review a document as before while reading is turned off', async () => {
    expect((await call('PATCH', '/api/settings', { documentReading: false })).statusCode).toBe(200);
    try {
      const id = await send('read-5', { first: 'Barbara', last: 'Liskov', birthDate: '2015-11-07' }, 'birth_certificate', {
        name: 'birth.pdf',
        content: onePagePdf(['CERTIFICATE OF LIVE BIRTH', 'Name of child: Barbara Liskov', 'Date of birth: 11/07/2015'], 20),
      });
      const document = await readDocument(id);
      expect(document.status).toBe('pending');
      expect(document.reading).toEqual({ state: 'off', method: null, readAt: null });
      expect(document.extracted).toEqual({ docType: null, fullName: null, dateOfBirth: null, documentDate: null, confidence: null });
      expect(document.checks).toEqual([]);

      const approved = await call('PATCH', `/api/documents/${id}/status`, { status: 'verified', birthDate: '2015-11-07' });
      expect(approved.statusCode).toBe(200);
      expect(ZDocument.parse(approved.json()).status).toBe('verified');
    } finally {
      await call('PATCH', '/api/settings', { documentReading: true });
    }
  });
});
