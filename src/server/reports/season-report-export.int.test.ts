import { afterAll, beforeAll, expect, it } from 'vitest';
import readXlsxFile from 'read-excel-file/node';
import { ZSeasonReport, type TApiError } from '../../contract';
import { csvTextOf, parseCsv, startsWithBom } from '../../../tests/support/csv';
import { describeEachDatabase } from '../../../tests/support/databases';
import { SR, SR_SEASONS, seedSeasonReportFixture } from '../../../tests/support/season-report-fixture';
import { signInAs } from '../../../tests/support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { insertPlayers, insertRegistrations } from '../players';

/** Two incomplete Fall Ball 2025 players with accented names, beside the hand-counted league. */
const RENEE = { id: 'CB-2025-000000e1', firstName: 'Renée', lastName: 'Côté', division: 'AA' } as const;
const LUCJA = { id: 'CB-2025-000000e2', firstName: 'Łucja', lastName: 'Wójcik', division: 'A' } as const;

const HEADINGS = ['Season report', 'Completion by document type', 'Players by division', 'Monthly registrations and completions', 'Completion by division', 'Monthly registrations', 'Incomplete players'];

/** Every line of text pdf.js finds on every page. */
async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string[]; title: string | undefined }> {
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: VerbosityLevel.ERRORS }).promise;
  const text: string[] = [];
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item && item.str.trim() !== '') text.push(item.str);
  }
  const { info } = await pdf.getMetadata();
  const title = typeof info === 'object' && info !== null && 'Title' in info && typeof info.Title === 'string' ? info.Title : undefined;
  const pages = pdf.numPages;
  await pdf.destroy();
  return { pages, text, title };
}

describeEachDatabase('GET /api/reports/season/export', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let aaOnly = '';
  const get = (url: string, cookie = server?.cookie ?? '') => {
    if (!server) throw new Error('not started');
    return server.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  };

  beforeAll(async () => {
    const { db } = getDatabase();
    await seedSeasonReportFixture(db);
    await insertPlayers(db, [RENEE, LUCJA].map(({ id, firstName, lastName }) => ({ id, firstName, lastName, birthDate: '2014-05-05', guardianName: null, guardianEmail: null, guardianPhone: null })));
    await insertRegistrations(db, [RENEE, LUCJA].map(({ id, division }) => ({ playerId: id, seasonId: SR_SEASONS.fall2025.id, division, registeredAt: new Date('2025-10-20T12:00:00Z') })));
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-report-export', startWorkers: false });
    aaOnly = await signInAs(db, { role: 'viewer', divisions: ['AA'] });
  });
  afterAll(() => server?.close());

  it('needs a session and a known format, and answers 404 in words for an unknown season', async () => {
    expect((await get('/api/reports/season/export?format=pdf', '')).statusCode).toBe(401);
    const bad = await get('/api/reports/season/export?format=docx');
    expect(bad.statusCode).toBe(400);
    expect((bad.json<TApiError>().details ?? []).map((d) => `${d.path}: ${d.message}`)).toEqual(['querystring.format: must be pdf, csv or xlsx']);
    const unknown = await get('/api/reports/season/export?season=fall-1999&format=csv');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Season "fall-1999" does not exist.' });
  });

  it('answers a PDF of the season with its figures, the accented names and every heading', async () => {
    const response = await get('/api/reports/season/export?season=fall-2025&format=pdf');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="clearbase-report-fall-2025-\d{8}T\d{4}Z\.pdf"; filename\*=UTF-8''clearbase-report-fall-2025-\d{8}T\d{4}Z\.pdf$/);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const { text, title, pages } = await pdfText(response.rawPayload);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(title).toBe('Season report: Fall Ball 2025 · All Divisions');
    expect(text).toContain('Fall Ball 2025 · All Divisions');
    for (const heading of HEADINGS) expect(text).toContain(heading);
    expect(text).toContain('Renée Côté');
    expect(text).toContain('Łucja Wójcik');
    // 10 players, 4 complete (40%); the table's first row is AAA: Fay, Gus, Max.
    expect(text).toEqual(expect.arrayContaining(['Total Players', '10', 'Completion Rate', '40%']));
    expect(text).toContain(`Page 1 of ${pages}`);
  });

  it('answers an Excel workbook: a summary sheet, then one sheet per table with every incomplete player', async () => {
    const response = await get('/api/reports/season/export?season=fall-2025&format=xlsx&compare=false');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toMatch(/filename="clearbase-report-fall-2025-\d{8}T\d{4}Z\.xlsx"/);
    // An XLSX is a zip: PK\x03\x04.
    expect([...response.rawPayload.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);

    const sheets = await readXlsxFile(response.rawPayload);
    expect(sheets.map((s) => s.sheet)).toEqual(['Summary', 'Completion by division', 'Completion by document type', 'Monthly registrations', 'Incomplete players']);
    const byName = Object.fromEntries(sheets.map((s) => [s.sheet, s.data]));
    // Rows are as wide as the widest one, empty cells null.
    expect(byName.Summary?.[1]).toEqual(['Fall Ball 2025 · All Divisions', null]);
    expect(byName.Summary).toContainEqual(['Total Players', '10']);
    expect(byName['Completion by division']).toEqual([
      ['Division', 'Players', 'Complete', 'Incomplete', 'Completion %'],
      ['AAA', 3, 2, 1, 66.7],
      ['AA', 4, 1, 3, 25],
      ['A', 3, 1, 2, 33.3],
      ['TEST', 0, 0, 0, 0],
      ['Peewee', 0, 0, 0, 0],
    ]);
    const players = byName['Incomplete players'] ?? [];
    expect(players[0]).toEqual(['Player ID', 'Player Name', 'Division', 'Completion %', 'Birth Certificate', 'Residency', 'Medical', 'Waiver']);
    // Lowest completion first, then by last name: Côté, Wójcik, Zed at 0 %; Adams, Baker at 25 %; Cole at 75 %.
    expect(players.slice(1).map((row) => row[0])).toEqual([RENEE.id, LUCJA.id, SR.lou, SR.max, SR.jo, SR.kim]);
    expect(players[1]).toEqual([RENEE.id, 'Renée Côté', 'AA', 0, 'Missing', 'Missing', 'Missing', 'Missing']);
  });

  it('answers a CSV that starts with the byte-order mark and reads as the report’s tables', async () => {
    const response = await get('/api/reports/season/export?season=fall-2025&format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/filename="clearbase-report-fall-2025-\d{8}T\d{4}Z\.csv"/);
    expect(startsWithBom(response.rawPayload)).toBe(true);
    const rows = parseCsv(csvTextOf(response.rawPayload));
    expect(rows[0]).toEqual(['Season report', 'Fall Ball 2025 · All Divisions']);
    const table = (title: string) => {
      const at = rows.findIndex((row) => row.length === 1 && row[0] === title);
      const end = rows.findIndex((row, i) => i > at && row.length === 1 && row[0] === '');
      return rows.slice(at + 1, end === -1 ? undefined : end);
    };
    expect(table('Completion by document type')[0]).toEqual(['Document Type', 'Verified', 'Under Review', 'Processing', 'Missing', 'Completion %']);
    expect(table('Incomplete players').slice(1).map((row) => row[1])).toEqual(['Renée Côté', 'Łucja Wójcik', 'Lou Zed', 'Max Adams', 'Jo Baker', 'Kim Cole']);
    // Equal to the JSON report's figures.
    const report = ZSeasonReport.parse((await get('/api/reports/season?season=fall-2025')).json());
    expect(table('Completion by division').slice(1).map((row) => Number(row[1]))).toEqual(report.divisionStats.map((d) => d.players));
  });

  it('keeps to the divisions of a person limited to some, as the report on screen does', async () => {
    const response = await get('/api/reports/season/export?season=fall-2025&format=csv', aaOnly);
    expect(response.statusCode).toBe(200);
    const rows = parseCsv(csvTextOf(response.rawPayload));
    const divisionsAt = rows.findIndex((row) => row[0] === 'Completion by division');
    expect(rows.slice(divisionsAt + 1, divisionsAt + 4)).toEqual([['Division', 'Players', 'Complete', 'Incomplete', 'Completion %'], ['AA', '4', '1', '3', '25'], ['']]);
    const names = rows.slice(rows.findIndex((row) => row[0] === 'Incomplete players') + 2).map((row) => row[1]);
    expect(names).toEqual(['Renée Côté', 'Jo Baker', 'Kim Cole']);

    const pdf = await pdfText((await get('/api/reports/season/export?season=fall-2025&format=pdf', aaOnly)).rawPayload);
    expect(pdf.text).toContain('Renée Côté');
    expect(pdf.text).not.toContain('Łucja Wójcik');

    const other = await get('/api/reports/season/export?season=fall-2025&division=A&format=xlsx', aaOnly);
    expect(other.statusCode).toBe(404);
  });
});
