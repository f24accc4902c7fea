import { expect, type Page } from '@playwright/test';
import { ZInstallation, ZSystemSettings, type TInstallation, type TSystemSettings, type TSystemSettingsPatch } from '../../src/contract';
import { openSignedIn } from './support';

/** Signs in and opens System Settings at a tab. */
export async function openSettings(page: Page, tab: 'system' | 'integrations' | 'notifications' | 'security' = 'system'): Promise<void> {
  await openSignedIn(page, tab === 'system' ? '/settings' : `/settings?tab=${tab}`);
  await expect(page.getByRole('heading', { level: 1, name: 'System Settings' })).toBeVisible();
}

/** The settings as the server has them (the page's cookies). */
export async function savedSettings(page: Page): Promise<TSystemSettings> {
  const response = await page.request.get('/api/settings');
  expect(response.ok()).toBe(true);
  return ZSystemSettings.parse(await response.json());
}

export async function installation(page: Page): Promise<TInstallation> {
  const response = await page.request.get('/api/settings/installation');
  expect(response.ok()).toBe(true);
  return ZInstallation.parse(await response.json());
}

/** Puts settings back through the API, so a failing test does not leave the shared e2e server changed. */
export async function restoreSettings(page: Page, patch: TSystemSettingsPatch): Promise<void> {
  const response = await page.request.patch('/api/settings', { data: patch });
  expect(response.ok()).toBe(true);
}

export const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
