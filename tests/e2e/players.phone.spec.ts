import { expect, test, type Locator, type Page } from '@playwright/test';
import { openPlayers, playerRows } from './players-support';

/** The Players screen on a 390 px phone: stacked filters, a table that scrolls in its card, dialogs that fit. */

const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function expectInsideViewport(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (!box) throw new Error('Not on screen');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

test.describe('Players on a phone (390 px)', () => {
  test('stacks the filters and scrolls the table inside its card, not the page', async ({ page }) => {
    await openPlayers(page);
    await expect(playerRows(page)).toHaveCount(10);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

    // One filter a line: each control starts below the one before.
    const filters = page.getByRole('search', { name: 'Player filters' });
    const controls = [
      filters.getByRole('searchbox', { name: 'Search' }),
      filters.getByRole('combobox', { name: 'Season' }),
      filters.getByRole('combobox', { name: 'Division' }),
      filters.getByRole('combobox', { name: 'Status' }),
      filters.getByRole('button', { name: 'Clear Filters' }),
    ];
    let previousBottom = -Infinity;
    for (const control of controls) {
      const box = await control.boundingBox();
      if (!box) throw new Error('A filter is not on screen');
      expect(box.y).toBeGreaterThanOrEqual(previousBottom);
      previousBottom = box.y + box.height;
      await expectInsideViewport(page, control);
    }

    // The seven columns are wider than the phone: their scroller scrolls, the page does not.
    const scroller = page.getByTestId('player-table').locator('xpath=..');
    const { scrollWidth, clientWidth } = await scroller.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    await expectInsideViewport(page, scroller);
    await expectInsideViewport(page, page.getByRole('navigation', { name: 'Players pages' }));
    await expectInsideViewport(page, page.getByRole('button', { name: 'Add Player' }));
  });

  test('the player dialog and the Add Player dialog fit the screen', async ({ page }) => {
    await openPlayers(page, '?status=complete');
    await playerRows(page).first().getByTestId('player-name').tap();
    const detail = page.getByTestId('player-detail-dialog');
    await expect(detail.getByTestId('player-document').first()).toBeVisible();
    await expectInsideViewport(page, detail);
    expect(await detail.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    await detail.getByRole('button', { name: 'Close' }).tap();
    await expect(detail).toBeHidden();

    await page.getByRole('button', { name: 'Add Player' }).tap();
    const add = page.getByRole('dialog', { name: 'Add Player' });
    await expect(add.getByRole('textbox', { name: 'First name' })).toBeVisible();
    await expectInsideViewport(page, add);
    expect(await add.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    // The form scrolls inside the dialog to its buttons.
    await add.getByRole('button', { name: 'Add Player' }).scrollIntoViewIfNeeded();
    await expect(add.getByRole('button', { name: 'Add Player' })).toBeInViewport();
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });
});
