import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { csvTextOf, parseCsv, startsWithBom } from '../support/csv';
import { openPastReport, pageOverflow } from './reports-support';

/** Export Report on a 390 px phone: the menu fits the screen, and the PDF, Excel and CSV files download whole. */

async function expectInsideViewport(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('Not on screen');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}

async function download(page: Page, choice: RegExp): Promise<Buffer> {
  await page.getByRole('button', { name: 'Export Report' }).tap();
  const menu = page.getByTestId('export-report-menu');
  await expect(menu).toBeVisible();
  await expectInsideViewport(page, menu);
  const downloading = page.waitForEvent('download');
  await menu.getByRole('menuitem', { name: choice }).tap();
  return readFile(await (await downloading).path());
}

test.describe('Report exports on a phone (390 px)', () => {
  test('the export menu fits the screen, and PDF, Excel and CSV download', async ({ page }) => {
    const season = await openPastReport(page, { season: 'projected' });
    await expectInsideViewport(page, page.getByRole('button', { name: 'Export Report' }));

    expect((await download(page, /^PDF/)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    expect([...(await download(page, /^Excel/)).subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const csv = await download(page, /^CSV/);
    expect(startsWithBom(csv)).toBe(true);
    expect(parseCsv(csvTextOf(csv))[0]).toEqual(['Season report', `${season.name} · All Divisions`]);
  });
});
