import { expect, test, type Locator, type Page } from '@playwright/test';
import { openPlayers, playerRows } from './players-support';

/** The Players screen on a 390 px phone: filters folded behind one button, one card per player, dialogs that fit. */

const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function expectInsideViewport(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (!box) throw new Error('Not on screen');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

test.describe('Players on a phone (390 px)', () => {
  test('folds the filters behind one button, stacks them when opened, and shows cards, not a table', async ({ page }) => {
    await openPlayers(page);
    await expect(page.getByTestId('player-card')).toHaveCount(10);
    await expect(page.getByTestId('player-table')).toHaveCount(0);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

    const filters = page.getByRole('search', { name: 'Player filters' });
    await expect(filters).toBeHidden();
    await page.getByRole('button', { name: /^Filters/ }).tap();
    // One filter a line: each control starts below the one before.
    const controls = [
      filters.getByRole('searchbox', { name: 'Search' }),
      filters.getByRole('combobox', { name: 'Season' }),
      filters.getByRole('combobox', { name: 'Division' }),
      filters.getByRole('combobox', { name: 'Status' }),
      filters.getByRole('combobox', { name: 'Missing document' }),
      filters.getByRole('combobox', { name: 'Sort by' }),
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

    await expectInsideViewport(page, page.getByTestId('player-card').first());
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
