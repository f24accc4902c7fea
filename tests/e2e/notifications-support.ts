import { expect, type Page } from '@playwright/test';
import { openSignedIn } from './support';

/** Signs in and opens the Notifications screen on a tab (?tab=…), waiting until its content is there. */
export async function openNotifications(page: Page, tab: 'send' | 'templates' | 'history' | 'settings' = 'send'): Promise<void> {
  await openSignedIn(page, tab === 'send' ? '/notifications' : `/notifications?tab=${tab}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await waitForTab(page, tab);
}

export async function waitForTab(page: Page, tab: 'send' | 'templates' | 'history' | 'settings'): Promise<void> {
  const ready = {
    send: page.getByTestId('quick-incomplete').getByText(/\d+ of \d+ gets? the reminder/),
    templates: page.getByTestId('template-row').first(),
    history: page.getByTestId('history-row').first(),
    settings: page.getByTestId('save-settings'),
  }[tab];
  await expect(ready).toBeVisible();
}

/** Picks an option of a Radix select by its label. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The toast with this title (its text is also read out by a live region, so getByText alone finds two). */
export const toast = (page: Page, title: string) => page.getByRole('status').filter({ hasText: title });
