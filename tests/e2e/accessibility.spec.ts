import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
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
