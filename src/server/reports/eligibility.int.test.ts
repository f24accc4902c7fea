import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TApiError } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { signInAs } from '../../../tests/support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { insertDocuments } from '../documents/documents.repository';
import { insertPlayers, insertRegistrations } from '../players';
import { insertSeasons } from '../seasons';

/** Every line of text pdf.js finds on every page, and the page count. */
async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string[] }> {
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: VerbosityLevel.ERRORS }).promise;
  const text: string[] = [];
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item && item.str.trim() !== '') text.push(item.str);
  }
  const pages = pdf.numPages;
  await pdf.destroy();
  return { pages, text };
}

const FALL_2024 = 'fall-2024';
const FALL_2025 = 'fall-2025';

/**
 * Fall Ball 2025's AA (league age on 31 Aug 2025; AA takes ages 8–10): Renée Côté, 9, returning, her birth
 * certificate verified in Fall Ball 2024 and her medical form this season; Ben Adams, 12, nothing handed in;
 * Ola Zimmer, 8, a birth certificate waiting for review. Mia Ander plays in A.
 */
const RENEE_2024 = { id: 'CB-2024-0000a001', firstName: 'Renée', lastName: 'Côté', birthDate: '2016-05-05' };
const RENEE = { id: 'CB-2025-0000a001', firstName: 'Renée', lastName: 'Côté', birthDate: '2016-05-05' };
const BEN = { id: 'CB-2025-0000a002', firstName: 'Ben', lastName: 'Adams', birthDate: '2013-01-10' };
const OLA = { id: 'CB-2025-0000a003', firstName: 'Ola', lastName: 'Zimmer', birthDate: '2017-03-01' };
const MIA = { id: 'CB-2025-0000a004', firstName: 'Mia', lastName: 'Ander', birthDate: '2016-06-06' };

describeEachDatabase('GET /api/reports/eligibility.pdf', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let aOnly = '';
  let aaOnly = '';
  const get = (url: string, cookie = server?.cookie ?? '') => {
    if (!server) throw new Error('not started');
    return server.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  };

  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [
      { id: FALL_2024, name: 'Fall Ball 2024', kind: 'Fall Ball', year: 2024, startsOn: '2024-08-01', endsOn: '2024-11-30' },
      { id: FALL_2025, name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-01', endsOn: '2025-11-30', isCurrent: true },
    ]);
    await insertPlayers(db, [RENEE_2024, RENEE, BEN, OLA, MIA].map((p) => ({ ...p, guardianName: null, guardianEmail: null, guardianPhone: null })));
    await insertRegistrations(db, [
      { playerId: RENEE_2024.id, seasonId: FALL_2024, division: 'A' },
      ...[RENEE, BEN, OLA].map((p) => ({ playerId: p.id, seasonId: FALL_2025, division: 'AA' as const })),
      { playerId: MIA.id, seasonId: FALL_2025, division: 'A' },
    ]);
    const doc = (playerId: string, seasonId: string, docType: 'birth_certificate' | 'medical', status: 'verified' | 'pending', extra: object = {}) => ({
      playerId,
      seasonId,
      docType,
      status,
      originalFilename: `${docType}.pdf`,
      uploadedAt: new Date('2024-09-01T10:00:00Z'),
      ...extra,
    });
    await insertDocuments(db, [
      doc(RENEE_2024.id, FALL_2024, 'birth_certificate', 'verified', { reviewedBy: 'Jane Reviewer', reviewedAt: new Date('2024-09-10T15:00:00Z'), factBirthDate: RENEE.birthDate }),
      doc(RENEE.id, FALL_2025, 'medical', 'verified', {
        uploadedAt: new Date('2025-08-25T10:00:00Z'),
        reviewedBy: 'Sam Moderator',
        reviewedAt: new Date('2025-09-02T09:00:00Z'),
        documentDate: '2025-08-20',
      }),
      doc(OLA.id, FALL_2025, 'birth_certificate', 'pending', { uploadedAt: new Date('2025-09-05T10:00:00Z') }),
    ]);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-eligibility', startWorkers: false });
    aOnly = await signInAs(db, { role: 'viewer', divisions: ['A'] });
    aaOnly = await signInAs(db, { role: 'viewer', divisions: ['AA'], firstName: 'Vera', lastName: 'Viewer' });
  });
  afterAll(() => server?.close());

  it('answers the division’s packet as a PDF named for the division and season', async () => {
    const response = await get('/api/reports/eligibility.pdf?season=fall-2025&division=AA', aaOnly);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="eligibility-AA-fall-2025.pdf"; filename*=UTF-8''eligibility-AA-fall-2025.pdf`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // A year names that year's season.
    expect((await get('/api/reports/eligibility.pdf?season=2025&division=AA')).headers['content-disposition']).toContain('eligibility-AA-fall-2025.pdf');
  });

  it('lists the roster by last name with ages, the age flag and each document’s verification', async () => {
    const { text, pages } = await pdfText((await get('/api/reports/eligibility.pdf?season=fall-2025&division=AA', aaOnly)).rawPayload);
    expect(text[0]).toBe('Eligibility packet — AA, Fall Ball 2025');
    expect(text).toContainEqual(expect.stringMatching(/^Generated \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC by Vera Viewer$/));
    expect(text).toContain('League age on 31 Aug 2025 · AA takes ages 8–10 · 3 players');
    const names = text.filter((line) => /^[\p{L}]+, [\p{L}]+$/u.test(line));
    expect(names).toEqual(['Adams, Ben', 'Côté, Renée', 'Zimmer, Ola']);
    expect(text).not.toContain('Ander, Mia');

    // Ben: 12 on the age date, outside AA's ages; nothing handed in.
    const ben = text.slice(text.indexOf('Adams, Ben'), text.indexOf('Côté, Renée'));
    expect(ben).toEqual(expect.arrayContaining(['Born 10 Jan 2013 · League age 12', '⚠ Outside division ages (ages 8–10)', 'Missing']));
    // Renée: 9; the birth certificate verified last season counts, with who verified it; the medical with its exam date.
    const renee = text.slice(text.indexOf('Côté, Renée'), text.indexOf('Zimmer, Ola'));
    expect(renee).toContain('Born 5 May 2016 · League age 9');
    expect(renee.join(' ')).not.toContain('Outside division ages');
    expect(renee).toEqual(
      expect.arrayContaining([
        'Birth Certificate',
        'Verified',
        'by Jane Reviewer on 10 Sep 2024, from Fall Ball 2024',
        'by Sam Moderator on 2 Sep 2025, exam 20 Aug 2025',
      ]),
    );
    // Ola: a birth certificate under review, no verification to name.
    const ola = text.slice(text.indexOf('Zimmer, Ola'));
    expect(ola).toEqual(expect.arrayContaining(['Born 1 Mar 2017 · League age 8', 'Under Review']));
    expect(ola.join(' ')).not.toContain(' by ');
    expect(text).toContain(`Page 1 of ${pages}`);
  });

  it('refuses without a session, a division outside the person’s, an unknown season or division', async () => {
    expect((await get('/api/reports/eligibility.pdf?division=AA', '')).statusCode).toBe(401);
    const outside = await get('/api/reports/eligibility.pdf?season=fall-2025&division=AA', aOnly);
    expect(outside.statusCode).toBe(404);
    expect(outside.json<TApiError>()).toMatchObject({ code: 'NOT_FOUND', message: 'No such division' });
    const unknown = await get('/api/reports/eligibility.pdf?season=fall-1999&division=AA');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<TApiError>()).toMatchObject({ message: 'Season "fall-1999" does not exist.' });
    const bad = await get('/api/reports/eligibility.pdf?season=fall-2025&division=ZZ');
    expect(bad.statusCode).toBe(400);
    expect((bad.json<TApiError>().details ?? []).map((d) => `${d.path}: ${d.message}`)).toEqual(['querystring.division: must be a division (AAA, AA, A, TEST, Peewee)']);
    // The person limited to A gets A's packet: Mia, not the AA players.
    const { text } = await pdfText((await get('/api/reports/eligibility.pdf?division=A', aOnly)).rawPayload);
    expect(text).toContain('Ander, Mia');
    expect(text).not.toContain('Côté, Renée');
  });
});
