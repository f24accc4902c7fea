import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { openPastReport, pageOverflow } from './reports-support';

/** The Eligibility packet card on a 390 px phone: it fits the screen, offers the season's divisions and downloads the PDF. */

test.describe('Eligibility packet on a phone (390 px)', () => {
  test('choosing a division and Download PDF saves that division’s packet', async ({ page }) => {
    const season = await openPastReport(page, { season: 'projected' });
    const card = page.getByTestId('eligibility-packet');
    await card.scrollIntoViewIfNeeded();
    await expect(card.getByRole('heading', { name: 'Eligibility packet' })).toBeVisible();
    const box = await card.boundingBox();
    if (!box) throw new Error('Not on screen');
    expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);

    await card.getByRole('combobox', { name: 'Division' }).tap();
    await page.getByRole('option', { name: 'AA', exact: true }).tap();
    await expect(card.getByRole('combobox', { name: 'Division' })).toHaveText('AA');
    const downloading = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Download PDF' }).tap();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`eligibility-AA-${season.id}.pdf`);
    expect((await readFile(await download.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });
});
