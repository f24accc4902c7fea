import { expect, test } from '@playwright/test';
import { SYSTEM_SETTINGS_DEFAULTS } from '../../src/contract';
import { installation, openSettings, restoreSettings, savedSettings } from './settings-support';

test.describe('System Settings', () => {
  test('shows every service’s health on the System tab, and checks again on Refresh', async ({ page }) => {
    await openSettings(page);
    const card = page.getByTestId('settings-health');
    await expect(card.getByTestId('health-database')).toContainText('Connected');
    await expect(card.getByTestId('health-antivirus')).toContainText('No virus scanner is connected');
    const healthCall = page.waitForResponse((response) => response.url().endsWith('/api/health'));
    await card.getByRole('button', { name: 'Refresh' }).click();
    expect((await healthCall).ok()).toBe(true);
  });

  test('a notification switch is saved at once, with a toast, and is still on after a reload', async ({ page }) => {
    await openSettings(page, 'notifications');
    const slack = page.getByRole('switch', { name: 'Slack notifications' });
    await expect(slack).toHaveAttribute('aria-checked', 'false');
    try {
      await slack.click();
      await expect(page.getByText('Slack notifications turned on.').first()).toBeVisible();
      expect((await savedSettings(page)).slackNotifications).toBe(true);

      await page.reload();
      await expect(page.getByRole('switch', { name: 'Slack notifications' })).toHaveAttribute('aria-checked', 'true');
      await page.getByRole('switch', { name: 'Slack notifications' }).click();
      await expect(page.getByText('Slack notifications turned off.').first()).toBeVisible();
    } finally {
      await restoreSettings(page, { slackNotifications: false });
    }
  });

  test('real-time updates off closes the live connection and the header says so; on again reconnects', async ({ page }) => {
    await openSettings(page, 'notifications');
    const indicator = page.getByTestId('live-indicator');
    await expect(indicator).toHaveAttribute('data-state', 'connected');
    try {
      await page.getByRole('switch', { name: 'Real-time updates' }).click();
      await expect(indicator).toHaveAttribute('data-state', 'off');
      await expect(indicator).toHaveAttribute('title', /Live updates are off in Settings/);
      await page.getByRole('switch', { name: 'Real-time updates' }).click();
      await expect(indicator).toHaveAttribute('data-state', 'connected');
    } finally {
      await restoreSettings(page, { realtimeUpdates: true });
    }
  });

  test('the session timeout says what is wrong before saving, and saves a good value', async ({ page }) => {
    await openSettings(page, 'security');
    const field = page.getByLabel('Session timeout (minutes)');
    await expect(field).toHaveValue(String(SYSTEM_SETTINGS_DEFAULTS.sessionTimeoutMinutes));
    const save = page.getByTestId('session-timeout-form').getByRole('button', { name: 'Save' });

    await field.fill('2');
    await save.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Session timeout must be at least 5 minutes.' })).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await field.fill('1441');
    await save.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Session timeout must be at most 1440 minutes (24 hours).' })).toBeVisible();
    expect((await savedSettings(page)).sessionTimeoutMinutes).toBe(60);

    try {
      await field.fill('45');
      await save.click();
      await expect(page.getByText('Session timeout set to 45 minutes.').first()).toBeVisible();
      await page.reload();
      await expect(page.getByLabel('Session timeout (minutes)')).toHaveValue('45');
    } finally {
      await restoreSettings(page, { sessionTimeoutMinutes: 60 });
    }
  });

  test('shows scanning, and file encryption and audit logging locked on', async ({ page }) => {
    await openSettings(page, 'security');
    await expect(page.getByRole('switch', { name: 'Antivirus scanning' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByTestId('setting-antivirusScanning')).toContainText('no virus scanner is connected');
    for (const name of ['File encryption', 'Audit logging']) {
      const locked = page.getByRole('switch', { name });
      await expect(locked).toHaveAttribute('aria-checked', 'true');
      await expect(locked).toBeDisabled();
    }
  });

  test('the Storage card shows the driver, the location and the figures the API gives, beside the mailbox card', async ({ page }) => {
    await openSettings(page, 'integrations');
    await expect(page.getByTestId('gmail-settings')).toBeVisible();
    const card = page.getByTestId('storage-card');
    const facts = await installation(page);
    const usage = facts.storage.usage.find((row) => row.driver === facts.storage.driver) ?? { documents: 0, bytes: 0 };
    expect(usage.documents).toBeGreaterThan(0);
    await expect(card.getByTestId('storage-driver')).toHaveAttribute('data-driver', facts.storage.driver);
    await expect(card.getByTestId('storage-driver')).toHaveText('Local encrypted storage');
    await expect(card.getByTestId('storage-location')).toHaveText(facts.storage.location ?? '');
    await expect(card.getByTestId('storage-documents')).toHaveAttribute('data-value', String(usage.documents));
    await expect(card.getByTestId('storage-documents')).toHaveText(usage.documents.toLocaleString('en-US'));
    await expect(card.getByTestId('storage-bytes')).toHaveAttribute('data-value', String(usage.bytes));
  });
});
