import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe-support';
import { openPlayers, playerRows, waitForPlayers } from './players-support';
import { openNotifications, waitForTab as waitForNotificationsTab } from './notifications-support';
import { openPastReport } from './reports-support';
import { openSignedIn, signInAndWaitForShell } from './support';
import { actionsButton, fillInviteUser, newPerson, openUsers, rowAction, sendInvitation, userRow } from './users-support';

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

// Players screen: the screen, a player's detail dialog and the Add Player dialog with its errors.
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

// Dashboard: the screen on real figures, and a detail modal on each of its tabs.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`Dashboard accessibility in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the dashboard and a detail modal have no serious or critical violations', async ({ page }) => {
      // Four scans of a long screen: more than the default 30 s on a busy machine.
      test.setTimeout(90_000);
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

// Documents screen: the list, the reject dialog with its error, the viewer and the history dialog.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`Documents accessibility in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the Documents screen and its dialogs have no serious or critical violations', async ({ page }) => {
      // Four scans of a 50-row screen: more than the default 30 s on a busy machine.
      test.setTimeout(90_000);
      await openSignedIn(page, '/documents?status=pending');
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

// Reports screen: the report of a past season on each of its four tabs, charts drawn.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`Reports accessibility in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the Reports screen has no serious or critical violations on any tab', async ({ page }) => {
      // Four scans of a long screen: more than the default 30 s on a busy machine.
      test.setTimeout(90_000);
      await openPastReport(page, { season: 'projected' });
      await expect(page.getByTestId('chart').first().locator('svg.recharts-surface')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      for (const name of ['Historical Trends', 'Growth Projections', 'Detailed Analysis']) {
        await page.getByRole('tab', { name }).click();
        await expect(page.getByRole('tabpanel', { name })).toBeVisible();
        if (name !== 'Detailed Analysis') await expect(page.getByTestId('chart').first().locator('svg.recharts-surface')).toBeVisible();
        expect(await seriousViolations(page), name).toEqual([]);
      }
    });
  });
}

// User Management: the screen, the Invite User dialog with its errors and its link panel, the Deactivate and
// Delete confirmations a row's menu opens, and the Activity tab.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`User Management accessibility in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the User Management screen, its dialogs and Activity tab have no serious or critical violations', async ({ page }) => {
      await openUsers(page);
      await expect(userRow(page, 'morgan.reyes@example.org')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      const person = newPerson('Axe');
      const invite = await fillInviteUser(page, { email: 'not-an-email', divisions: [] });
      await invite.getByRole('button', { name: 'Send Invitation' }).click();
      await expect(invite.getByText('First name is required')).toBeVisible();
      await expect(invite.getByTestId('error-divisions')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await invite.getByRole('textbox', { name: 'E-mail' }).fill(person.email);
      await invite.getByRole('textbox', { name: 'First name' }).fill(person.firstName);
      await invite.getByRole('textbox', { name: 'Last name' }).fill(person.lastName);
      await invite.getByRole('radio', { name: 'Viewer', exact: true }).click();
      await invite.getByRole('radio', { name: 'All divisions', exact: true }).click();
      const { panel } = await sendInvitation(page, invite);
      await expect(panel.getByTestId('invitation-mail')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await panel.getByRole('button', { name: 'Done' }).click();
      await expect(invite).toBeHidden();

      // The row's menu, open: it is not modal (a modal menu would hide the focusable page behind it from screen readers).
      const sam = userRow(page, 'sam.okafor@example.org');
      await actionsButton(sam, 'Sam Okafor').click();
      await expect(page.getByRole('menu')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toBeHidden();
      await rowAction(page, sam, 'Sam Okafor', 'Deactivate');
      const deactivate = page.getByRole('alertdialog', { name: 'Deactivate Sam Okafor?' });
      await expect(deactivate).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await deactivate.getByRole('button', { name: 'Cancel' }).click();
      await expect(deactivate).toBeHidden();

      await rowAction(page, sam, 'Sam Okafor', 'Delete');
      const confirm = page.getByRole('alertdialog', { name: 'Delete User' });
      await expect(confirm).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();

      await page.getByRole('tab', { name: 'Activity' }).click();
      await expect(page.getByTestId('activity-entry').first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

// System Settings (each tab), App Workflow and the User Guide.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`Settings, App Workflow and User Guide accessibility in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('System Settings, every tab, has no serious or critical violations', async ({ page }) => {
      test.setTimeout(90_000);
      await openSignedIn(page, '/settings');
      await expect(page.getByTestId('settings-health').getByText('Database')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      for (const [tab, ready] of [
        ['Integrations', 'storage-location'],
        ['Notifications', 'setting-realtimeUpdates'],
        ['Security', 'session-timeout-form'],
      ] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await expect(page.getByTestId(ready)).toBeVisible();
        expect(await seriousViolations(page), tab).toEqual([]);
      }
      // Submitted with Enter: a pointer left on Save would be scanned mid-way through the shared button's hover fade.
      await page.getByLabel('Session timeout (minutes)').fill('2');
      await page.getByLabel('Session timeout (minutes)').press('Enter');
      await expect(page.getByText('Session timeout must be at least 5 minutes.')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('App Workflow and the User Guide have no serious or critical violations', async ({ page }) => {
      await openSignedIn(page, '/backend-workflow');
      await expect(page.getByTestId('workflow-example-path')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      for (const step of [1, 8, 11]) {
        await page.goto(`/user-guide?step=${step}`);
        await expect(page.getByTestId('guide-counter')).toHaveText(`${step} of 12`);
        expect(await seriousViolations(page), `step ${step}`).toEqual([]);
      }
    });
  });
}

// Notifications: each tab, and the template Edit dialog with its placeholders help.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`Notifications accessibility in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the Notifications screen, every tab and the Edit dialog, has no serious or critical violations', async ({ page }) => {
      test.setTimeout(90_000);
      await openNotifications(page);
      expect(await seriousViolations(page)).toEqual([]);
      for (const [tab, key] of [['Templates', 'templates'], ['History', 'history'], ['Settings', 'settings']] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await waitForNotificationsTab(page, key);
        expect(await seriousViolations(page), tab).toEqual([]);
      }
      await page.getByRole('tab', { name: 'Templates' }).click();
      await page.getByRole('button', { name: 'Edit Missing Documents Reminder' }).click();
      await expect(page.getByTestId('template-dialog')).toBeVisible();
      expect(await seriousViolations(page), 'Edit dialog').toEqual([]);
    });
  });
}
