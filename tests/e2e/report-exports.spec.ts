import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { csvTextOf, parseCsv, startsWithBom } from '../support/csv';
import { openPastReport, readReport } from './reports-support';

/**
 * Export Report on the Reports screen at 1280 px: the PDF, Excel and CSV files the server makes for the report on
 * screen, read back byte by byte; the progress while one is made, and a failure said in words.
 */

/** Chooses a format in the Export Report menu: the downloaded file's name and bytes. */
async function exportAs(page: Page, choice: RegExp): Promise<{ fileName: string; bytes: Buffer }> {
  await page.getByRole('button', { name: 'Export Report' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: choice }).click();
  const download = await downloading;
  return { fileName: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

test.describe('Report exports', () => {
  test('downloads the report on screen as PDF, Excel and CSV', async ({ page }) => {
    const season = await openPastReport(page, { season: 'projected', division: 'AA' });
    const report = await readReport(page.request, { season: season.id, division: 'AA' });

    const pdf = await exportAs(page, /^PDF/);
    expect(pdf.fileName).toMatch(new RegExp(`^clearbase-report-${season.id}-aa-\\d{8}T\\d{4}Z\\.pdf$`));
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.bytes.subarray(-6).toString('latin1')).toContain('%%EOF');
    await expect(page.getByText(`${season.name} saved as PDF.`, { exact: true })).toBeVisible();

    const xlsx = await exportAs(page, /^Excel/);
    expect(xlsx.fileName).toMatch(new RegExp(`^clearbase-report-${season.id}-aa-\\d{8}T\\d{4}Z\\.xlsx$`));
    // A workbook is a zip: PK\x03\x04.
    expect([...xlsx.bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);

    const csv = await exportAs(page, /^CSV/);
    expect(csv.fileName).toMatch(new RegExp(`^clearbase-report-${season.id}-aa-\\d{8}T\\d{4}Z\\.csv$`));
    expect(startsWithBom(csv.bytes)).toBe(true);
    const rows = parseCsv(csvTextOf(csv.bytes));
    expect(rows[0]).toEqual(['Season report', `${season.name} · AA`]);
    const players = rows.slice(rows.findIndex((row) => row[0] === 'Incomplete players') + 2).map((row) => row[0]);
    expect(players).toHaveLength(report.playersTotal);
  });

  test('shows the file being made, then says in words why it failed, and gives focus back', async ({ page }) => {
    await openPastReport(page);
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/api/reports/season/export?*', async (route) => {
      await answered;
      await route.fulfill({ status: 503, json: { code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering. Try again in a moment.' } });
    });

    await page.getByRole('button', { name: 'Export Report' }).click();
    await page.getByRole('menuitem', { name: /^Excel/ }).click();
    const making = page.getByTestId('export-report');
    await expect(making).toHaveText('Making the Excel…');
    await expect(making).toBeDisabled();
    await expect(page.getByRole('status').filter({ hasText: 'Making the Excel file of the report…' })).toBeAttached();
    answer();

    await expect(page.getByText('Export Failed', { exact: true })).toBeVisible();
    await expect(page.getByText('The database is not answering. Try again in a moment.', { exact: true })).toBeVisible();
    await expect(making).toHaveText('Export Report');
    await expect(making).toBeFocused();
  });
});
