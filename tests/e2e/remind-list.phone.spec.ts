import { expect, test } from '@playwright/test';
import { openPlayers, waitForPlayers } from './players-support';
import {
  actionCounter,
  countedInPage,
  expectedRecipients,
  historyTotal,
  REMIND_QUERY,
  sendAndCheckHistory,
  startCountingInPage,
} from './remind-list-support';
import { signInAndWaitForShell } from './support';

/** The same list on a 390 px phone: cards, folded filters, and the reminder from the dashboard. */

test.describe('Find and remind a list (390 px)', () => {
  test('from the dashboard, the AA players missing a birth certificate are reminded in at most 5 actions', async ({ page }) => {
    await signInAndWaitForShell(page);
    const expected = await expectedRecipients(page);
    expect(expected.emails.length).toBeGreaterThan(0);
    const historyBefore = await historyTotal(page);
    await startCountingInPage(page);
    const actions = actionCounter();
    const started = Date.now();

    // The dashboard's Document Status Overview is the same list, with its filters folded on a phone.
    const overview = page.getByTestId('document-status-overview');
    await actions.click(overview.getByRole('button', { name: /^Filters/ }));
    const filters = overview.getByRole('search', { name: 'Player filters' });
    await actions.pick(filters.getByRole('combobox', { name: 'Division' }), 'AA');
    await actions.pick(filters.getByRole('combobox', { name: 'Missing document' }), 'Birth Certificate');
    await expect(overview.getByRole('button', { name: /^Filters/ })).toContainText('2');
    await waitForPlayers(page, overview);
    await expect(overview.getByTestId('player-range')).toContainText(`of ${expected.players}`);
    await actions.click(overview.getByTestId('remind-families'));
    await sendAndCheckHistory(page, actions, expected, historyBefore);

    const seconds = (Date.now() - started) / 1000;
    test.info().annotations.push({ type: 'elapsed seconds', description: seconds.toFixed(1) });
    const inPage = await countedInPage(page);
    test.info().annotations.push({ type: 'actions', description: `${actions.count} by the test; in the page ${inPage.clicks} clicks, ${inPage.changes} choices` });
    expect(inPage.clicks + inPage.changes).toBe(actions.count);
    expect(actions.count).toBeLessThanOrEqual(5);
  });

  test('Players shows one card per player, the filters folded behind one button, the first card above the fold', async ({ page }) => {
    await openPlayers(page, `?${REMIND_QUERY}`);
    await expect(page.getByTestId('player-table')).toHaveCount(0);
    const cards = page.getByTestId('player-card');
    await expect(cards.first()).toBeVisible();
    expect(await cards.count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    // missing= from the address: folded, counted on the button, and every card missing its birth certificate.
    const toggle = page.getByRole('button', { name: /^Filters/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toContainText('2');
    await expect(page.getByRole('search', { name: 'Player filters' })).toBeHidden();
    const first = cards.first();
    await expect(first.getByTestId('player-division')).toHaveText('AA');
    await expect(first.locator('[data-status]')).toHaveCount(4);
    // The first of the four statuses is the birth certificate's (the card's first line is the league age).
    await expect(first.locator('[data-status]').first()).toHaveAttribute('data-status', 'missing');
    await expect(first.getByRole('progressbar')).toBeVisible();
    const box = await first.boundingBox();
    if (!box) throw new Error('The first card is not on screen');
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await page.screenshot({ path: test.info().outputPath('players-phone.png') });

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const filters = page.getByRole('search', { name: 'Player filters' });
    await expect(filters.getByRole('combobox', { name: 'Missing document' })).toHaveValue('birth_certificate');
    await page.screenshot({ path: test.info().outputPath('players-filters-phone.png') });

    // The phone's order choice does what the table's headers do.
    await filters.getByRole('combobox', { name: 'Sort by' }).selectOption('-completion');
    await expect(page).toHaveURL(/sort=-completion/);
    await waitForPlayers(page);

    await page.getByTestId('remind-families').click();
    await expect(page.getByTestId('remind-families-dialog').getByTestId('remind-reach')).toContainText(/in this list/);
    await page.screenshot({ path: test.info().outputPath('players-remind-phone.png') });
  });
});
