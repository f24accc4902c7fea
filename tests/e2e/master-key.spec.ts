import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { MASTER_KEY_CONFIRM_LENGTH, ZHealth } from '../../src/contract';
import { openSettings, pageOverflow } from './settings-support';

/** The key as printed on the sheet: the four-character groups pdf.js reads off the page, joined. */
async function keyOnSheet(file: string): Promise<string> {
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await getDocument({ data: new Uint8Array(await readFile(file)), isEvalSupported: false, disableFontFace: true, verbosity: VerbosityLevel.ERRORS }).promise;
  const words = (await (await pdf.getPage(1)).getTextContent()).items.map((item) => ('str' in item ? item.str.trim() : '')).filter(Boolean);
  const start = words.indexOf('The key');
  const groups = words.slice(start + 1).filter((word) => /^[A-Za-z0-9+/=]{4}$/.test(word));
  return groups.slice(0, 11).join('');
}

const storageLine = async (page: Page) => {
  const response = await page.request.get('/api/health');
  return ZHealth.parse(await response.json()).services.s3;
};

// One test: the sheet is handed out once per server, so the steps share it in order.
test('Settings → Security: download the recovery sheet once, type its first characters, see the key backed up', async ({ page }) => {
  await openSettings(page, 'security');
  const card = page.getByTestId('master-key');
  await expect(card.getByTestId('master-key-state')).toHaveText('Not backed up');
  await expect(card).toContainText('The master key has never been backed up.');
  expect((await storageLine(page)).message).toContain('The master key has not been backed up');

  // At 390 px the panel fits the screen too.
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  await card.getByTestId('master-key-download').click();
  const dialog = page.getByTestId('master-key-download-dialog');
  await expect(dialog).toContainText('can be downloaded only once');
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download it now' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^clearbase-master-key-recovery-sheet-\d{4}-\d{2}-\d{2}\.pdf$/);
  const key = await keyOnSheet(await download.path());
  expect(Buffer.from(key, 'base64')).toHaveLength(32);

  await expect(card.getByTestId('master-key-state')).toHaveText('Waiting for confirmation');
  await expect(card.getByTestId('master-key-download')).toHaveCount(0);
  // The server refuses a second copy.
  expect((await page.request.post('/api/settings/master-key/recovery-sheet')).status()).toBe(410);

  const first = key.slice(0, MASTER_KEY_CONFIRM_LENGTH);
  const wrong = `${first.slice(0, -1)}${first.endsWith('A') ? 'B' : 'A'}`;
  const field = card.getByLabel(`First ${MASTER_KEY_CONFIRM_LENGTH} characters of the key, as printed on the sheet`);
  await field.fill(wrong);
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card.getByTestId('master-key-error')).toContainText(`These are not the first ${MASTER_KEY_CONFIRM_LENGTH} characters of the key.`);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(card.getByTestId('master-key-state')).toHaveText('Waiting for confirmation');

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Typed as printed, a space between the two groups.
  await field.fill(`${first.slice(0, 4)} ${first.slice(4)}`);
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card.getByTestId('master-key-state')).toHaveText('Backed up');
  await expect(card.getByTestId('master-key-status')).toContainText('confirmed holding the recovery sheet on');
  expect((await storageLine(page)).message).not.toContain('The master key has not been backed up');

  await page.reload();
  await expect(page.getByTestId('master-key').getByTestId('master-key-state')).toHaveText('Backed up');
});
