import { expect, test, type Locator, type Page } from '@playwright/test';
import { makePdf } from '../support/multipart';
import { chooseFilter, documentRow, makePng, newTestPlayer, openDocuments, submitForm, waitForProcessed } from './documents-helpers';

const PHONE_WIDTH = 390;

async function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** The element lies inside the phone's width. */
async function expectWithinWidth(locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE_WIDTH);
}

test.describe('the Documents screen on a phone (390 px)', () => {
  test('rows are stacked cards with their actions in reach, and the page never scrolls sideways', async ({ page }) => {
    await openDocuments(page, '?status=pending');
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    await expect(page.getByRole('table')).toHaveCount(0);

    const card = page.getByTestId('document-row').first();
    await expectWithinWidth(card);
    for (const action of [/^View/, /^Approve/, /^Reject/, /^More/]) {
      const button = card.getByRole('button', { name: action });
      await expect(button).toBeVisible();
      await expectWithinWidth(button);
    }
    await expect(page.getByRole('button', { name: /^Upload Selected/ })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Export Selected/ })).toBeVisible();

    await page.getByRole('checkbox', { name: /^Select All/ }).click();
    await chooseFilter(page, 'Document type', 'Liability Waiver');
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

    await card.getByRole('button', { name: /^More/ }).click();
    await expectWithinWidth(page.getByRole('menu'));
    await expect(page.getByRole('menuitem', { name: 'History' })).toBeVisible();
  });

  test('the reject dialog fits the phone and keeps the reason on the card', async ({ page, baseURL }) => {
    const player = newTestPlayer('Phone');
    await submitForm(baseURL ?? '', player, [{ docType: 'medical', fileName: `medical-${player.lastName}.pdf`, content: makePdf(player.lastName) }]);
    await openDocuments(page);
    const [document] = await waitForProcessed(page.request, player, 1);
    if (!document) throw new Error('no document');
    await page.goto(`/documents?q=${player.lastName}`);

    const card = documentRow(page, document.id);
    await card.getByRole('button', { name: /^Reject/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject Document' });
    await expect(dialog).toBeVisible();
    await expectWithinWidth(dialog);
    await expectWithinWidth(dialog.getByRole('button', { name: 'Reject Document' }));
    await dialog.getByLabel('Reason for rejection').selectOption('Missing signature');
    await dialog.getByLabel('More detail (optional)').fill('Page 2 is not signed');
    await dialog.getByRole('button', { name: 'Reject Document' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId('review-reason')).toHaveText('Reason: Missing signature. Page 2 is not signed');
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the viewer fits the phone and shows the stored image', async ({ page, baseURL }) => {
    const player = newTestPlayer('Phone');
    const fileName = `residency-${player.lastName}.png`;
    await submitForm(baseURL ?? '', player, [{ docType: 'residency', fileName, content: makePng() }]);
    await openDocuments(page);
    const [document] = await waitForProcessed(page.request, player, 1);
    if (!document) throw new Error('no document');
    await page.goto(`/documents?q=${player.lastName}`);

    await documentRow(page, document.id).getByRole('button', { name: /^View/ }).click();
    const viewer = page.getByRole('dialog', { name: fileName });
    await expect(viewer.getByRole('img', { name: `Preview of ${fileName}` })).toHaveAttribute('src', /^blob:/);
    await expectWithinWidth(viewer);
    await expect(viewer.getByRole('button', { name: 'Download' })).toBeInViewport();
    await expect(viewer.getByRole('button', { name: 'Close' })).toBeInViewport();
  });
});
