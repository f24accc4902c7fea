import { expect, test } from '@playwright/test';
import { ZNotificationHistory, ZNotificationSettings, ZQuickActions } from '../../src/contract';
import { choose, openNotifications, toast, waitForTab } from './notifications-support';

test.describe('Notifications', () => {
  test('has the tabs Send, Templates, History and Settings, each with its content', async ({ page }) => {
    await openNotifications(page);
    await expect(page.getByRole('tab')).toHaveText(['Send', 'Templates', 'History', 'Settings']);
    await expect(page.getByRole('tab', { name: 'Send' })).toHaveAttribute('aria-selected', 'true');
    for (const [tab, key] of [['Templates', 'templates'], ['History', 'history'], ['Settings', 'settings'], ['Send', 'send']] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await waitForTab(page, key);
    }
    // The tab is in the address: a reload stays on it.
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page).toHaveURL(/\?tab=history$/);
    await page.reload();
    await waitForTab(page, 'history');
  });

  test('a custom message to a custom list: the recipient count, the result toast and a History row', async ({ page }) => {
    await openNotifications(page);
    const subject = `Practice moved ${Date.now()}`;
    await choose(page, 'Template', 'Custom Message');
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Message').fill('Hello {{guardianName}}, practice for {{season}} moves to field 2.');
    await choose(page, 'Recipients', 'Custom List');
    await page.getByLabel('E-mail addresses').fill('one@example.org, not-an-address');
    await page.getByTestId('send-button').click();
    await expect(page.getByText("This is not an e-mail address: 'not-an-address'")).toBeVisible();

    await page.getByLabel('E-mail addresses').fill('one@example.org,\ntwo@example.org');
    await expect(page.getByTestId('recipient-count')).toHaveText('2');
    await page.getByTestId('send-button').click();
    await expect(toast(page, 'Notifications Sent')).toContainText('2 messages sent successfully.');

    await page.getByRole('tab', { name: 'History' }).click();
    const rows = page.getByTestId('history-row').filter({ hasText: subject });
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'two@example.org' })).toContainText('Sent');
  });

  test('a template edit and its enabled switch persist after a reload; an unknown placeholder is refused', async ({ page }) => {
    await openNotifications(page, 'templates');
    const row = page.locator('[data-testid="template-row"][data-name="Deadline Reminder"]');
    await row.getByRole('button', { name: 'Edit Deadline Reminder' }).click();
    const dialog = page.getByTestId('template-dialog');
    const subject = `Registration closes {{deadline}} (${Date.now()})`;
    await dialog.getByLabel('Subject').fill('Closes {{closingDay}}');
    await dialog.getByRole('button', { name: 'Save Template' }).click();
    await expect(dialog.getByTestId('template-error-subject')).toContainText('Unknown placeholder {{closingDay}}');
    await dialog.getByLabel('Subject').fill(subject);
    await dialog.getByRole('button', { name: 'Save Template' }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Template Saved')).toBeVisible();

    await row.getByRole('switch').click();
    await expect(toast(page, 'Template Disabled')).toBeVisible();
    await page.reload();
    await waitForTab(page, 'templates');
    await expect(row).toContainText(subject);
    await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'false');

    // A turned-off template cannot be chosen on Send; back on, it can.
    await row.getByRole('switch').click();
    await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'true');
    await page.reload();
    await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'true');
  });

  test('the Settings tab saves the mail server and shows the password only as saved', async ({ page }) => {
    await openNotifications(page, 'settings');
    const password = `pw-${Date.now()}-secret`;
    await page.getByLabel('Host', { exact: true }).fill('smtp.example.org');
    await page.getByLabel('Username').fill('league');
    await page.getByTestId('smtp-password').fill(password);
    await page.getByLabel('From address').fill('League <registrations@example.org>');
    await page.getByTestId('save-settings').click();
    await expect(toast(page, 'Settings Saved')).toBeVisible();

    await page.reload();
    await waitForTab(page, 'settings');
    await expect(page.getByLabel('Host', { exact: true })).toHaveValue('smtp.example.org');
    await expect(page.getByTestId('smtp-password')).toHaveValue('');
    await expect(page.getByTestId('smtp-password')).toHaveAttribute('placeholder', '••••••••');
    await expect(page.getByText('A password is saved. Leave empty to keep it while the server and user stay the same.')).toBeVisible();
    expect(await page.content()).not.toContain(password);
    const api = await page.request.get('/api/notifications/settings');
    const body = await api.text();
    expect(body).not.toContain(password);
    expect(ZNotificationSettings.parse(JSON.parse(body)).email).toMatchObject({ host: 'smtp.example.org', passwordSet: true, source: 'settings' });

    // A webhook that is not https is refused with the server's words, and nothing is saved.
    await page.getByTestId('slack-webhook').fill('http://hooks.example.org/services/x');
    await page.getByTestId('save-settings').click();
    await expect(page.getByTestId('settings-error')).toHaveText('The Slack webhook must be an https:// address (got http)');

    // Back to the e2e server's SMTP_URL for the other tests.
    await page.getByTestId('slack-webhook').fill('');
    await page.getByLabel('Host', { exact: true }).fill('');
    await page.getByLabel('Remove the saved password').check();
    await page.getByTestId('save-settings').click();
    await expect(toast(page, 'Settings Saved')).toBeVisible();
    expect(ZNotificationSettings.parse(await (await page.request.get('/api/notifications/settings')).json()).email).toMatchObject({ host: '', passwordSet: false, source: 'environment' });
  });

  test('the quick action counts are the API’s, and a quick action fills the form in', async ({ page }) => {
    await openNotifications(page);
    const counts = ZQuickActions.parse(await (await page.request.get('/api/notifications/quick-actions')).json());
    const { withEmail } = counts.missingDocuments;
    await expect(page.getByTestId('quick-incomplete')).toContainText(
      `Notify incomplete players — ${withEmail} of ${counts.incompletePlayers} ${withEmail === 1 ? 'gets' : 'get'} the reminder`,
    );
    await expect(page.getByTestId('quick-deadline')).toContainText('Deadline Reminder (7 days)');
    await expect(page.getByTestId('quick-weekly-figures')).toHaveText(
      `Last 7 days: ${counts.lastWeek.received} received, ${counts.lastWeek.approved} approved, ${counts.lastWeek.rejected} rejected, ${counts.lastWeek.pending} pending`,
    );
    await expect(page.getByTestId('quick-maintenance')).toContainText(`(${counts.administrators} ${counts.administrators === 1 ? 'person' : 'people'})`);

    await page.getByTestId('quick-incomplete').click();
    await expect(page.getByRole('combobox', { name: 'Template' })).toHaveText('Missing Documents Reminder');
    await expect(page.getByRole('combobox', { name: 'Recipients' })).toHaveText('Players with Missing Documents');
    // The quick action and the recipients of the form it fills count the same messages.
    await expect(page.getByTestId('recipient-count')).toHaveText(String(withEmail));

    await page.getByTestId('quick-maintenance').click();
    await expect(page.getByRole('combobox', { name: 'Template' })).toHaveText('Custom Message');
    await expect(page.getByLabel('Subject')).toHaveValue('Scheduled maintenance');
    await expect(page.getByTestId('recipient-count')).toHaveText(String(counts.administrators));
  });

  test('past a thousand messages History shows an estimate, and a page past the real end says so and goes back to page 1', async ({ page }) => {
    // The demo holds a few messages; the server's answers are read as they are, then said to be estimates of a
    // long history (what the server answers past a thousand messages), so the screen meets them as it would.
    await page.route(/\/api\/notifications\/history\?/, async (route) => {
      const real = await route.fetch();
      const answer = ZNotificationHistory.parse(await real.json());
      const estimated = answer.items.length > 0 ? { total: 24_237, totalIsEstimate: true } : { total: 7_980, totalIsEstimate: true };
      await route.fulfill({ response: real, json: { ...answer, ...estimated } });
    });
    await openNotifications(page, 'history');
    await expect(page.getByText('About 24,200 messages, newest first; open a subject to read the message')).toBeVisible();
    const pages = page.getByRole('navigation', { name: 'History pages' });
    await expect(pages.getByRole('button', { name: 'Next page' })).toBeEnabled();

    await page.goto('/notifications?tab=history&page=400');
    const pastEnd = page.getByTestId('history-past-end');
    await expect(pastEnd).toContainText('No more messages');
    await expect(pastEnd).toContainText('The history ends before page 400');
    await expect(page.getByTestId('history-row')).toHaveCount(0);
    await pastEnd.getByRole('button', { name: 'Back to page 1' }).click();
    await expect(page).not.toHaveURL(/page=/);
    await expect(page.getByTestId('history-row').first()).toBeVisible();
  });
});
