import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openPlayers, playerRows, waitForPlayers } from './players-support';
import { signInAndWaitForShell } from './support';

/** Serious and critical WCAG A/AA violations, described well enough to fix from the test output. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`accessibility in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the access gate has no serious or critical violations', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Access System' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the shell and dashboard have no serious or critical violations', async ({ page }) => {
      await signInAndWaitForShell(page);
      await expect(page.getByTestId('system-status')).toContainText('Database');
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

// Players screen (issue 5): the screen, a player's detail dialog and the Add Player dialog with its errors.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`Players accessibility in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the Players screen and its dialogs have no serious or critical violations', async ({ page }) => {
      await openPlayers(page, '?status=complete');
      await waitForPlayers(page);
      expect(await seriousViolations(page)).toEqual([]);

      await playerRows(page).first().getByTestId('player-name').click();
      const detail = page.getByTestId('player-detail-dialog');
      await expect(detail.getByTestId('player-document').first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(detail).toBeHidden();

      await page.getByRole('button', { name: 'Add Player' }).click();
      const add = page.getByRole('dialog', { name: 'Add Player' });
      await add.getByRole('button', { name: 'Add Player' }).click();
      await expect(add.getByText('First name is required')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

// Dashboard (issue 5): the screen on real figures, and a detail modal on each of its tabs.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`Dashboard accessibility in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the dashboard and a detail modal have no serious or critical violations', async ({ page }) => {
      await signInAndWaitForShell(page);
      await expect(page.getByTestId('stat-pending-review').getByTestId('stat-value')).toBeVisible();
      await expect(page.getByTestId('processing-card').getByTestId('processing-state')).toBeVisible();
      await expect(page.getByTestId('system-status')).toContainText('Database');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByTestId('stat-pending-review').click();
      const dialog = page.getByRole('dialog', { name: 'Pending Review' });
      await expect(dialog.getByTestId('breakdown-card').first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('tab', { name: 'Details' }).click();
      await dialog.getByRole('button', { name: 'Expand Under Review' }).click();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('tab', { name: 'Analytics' }).click();
      await expect(dialog.getByTestId('completion-trend')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

// Documents screen (issue 5): the list, the reject dialog with its error, the viewer and the history dialog.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`Documents accessibility in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the Documents screen and its dialogs have no serious or critical violations', async ({ page }) => {
      // Four scans of a 50-row screen: more than the default 30 s on a busy machine.
      test.setTimeout(90_000);
      await signInAndWaitForShell(page);
      await page.goto('/documents?status=pending');
      const rows = page.getByTestId('document-row');
      await expect(rows.first()).toBeVisible();
      await rows.nth(1).getByRole('checkbox').click();
      await expect(page.getByRole('checkbox', { name: /^Select All/ })).toHaveAttribute('aria-checked', 'mixed');
      expect(await seriousViolations(page)).toEqual([]);

      await rows.first().getByRole('button', { name: /^Reject/ }).click();
      const reject = page.getByRole('dialog', { name: 'Reject Document' });
      await reject.getByRole('button', { name: 'Reject Document' }).click();
      await expect(reject.getByRole('alert')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(reject).toBeHidden();

      await rows.first().getByRole('button', { name: /^View/ }).click();
      const viewer = page.getByTestId('document-viewer');
      await expect(viewer.getByTestId('document-viewer-body')).not.toHaveAttribute('data-state', 'loading');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(viewer).toBeHidden();

      await rows.first().getByRole('button', { name: /^More/ }).click();
      await page.getByRole('menuitem', { name: 'History' }).click();
      const history = page.getByRole('dialog', { name: 'Document History' });
      await expect(history.getByTestId('document-history').or(history.getByText('No history recorded'))).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
