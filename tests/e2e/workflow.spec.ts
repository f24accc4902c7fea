import { expect, test } from '@playwright/test';
import { installation } from './settings-support';
import { signInByApi } from './support';

test.describe('App Workflow', () => {
  test('explains the pipeline in order with this installation’s driver, retention and a worked example', async ({ page }) => {
    await signInByApi(page);
    await page.goto('/backend-workflow');
    await expect(page.getByRole('heading', { level: 1, name: 'App Workflow' })).toBeVisible();
    const facts = await installation(page);

    await expect(page.getByTestId('workflow-driver')).toHaveText('Local encrypted storage (local)');
    await expect(page.getByTestId('workflow-location')).toHaveText(facts.storage.location ?? '');
    await expect(page.getByTestId('workflow-retention')).toHaveText('7 years after upload');
    await expect(page.getByTestId('workflow-scanning')).toHaveText('On, but ClamAV is not configured');
    await expect(page.getByTestId('workflow-max-size')).toHaveText('20 MB');
    await expect(page.getByTestId('workflow-mailbox')).toContainText('Configured, checked every');

    const stages = page.getByTestId('workflow-stage');
    await expect(stages).toHaveCount(12);
    await expect(stages.first()).toContainText('Intake');
    await expect(stages.nth(3)).toContainText('Antivirus scan');
    await expect(stages.nth(10)).toContainText('Notifications and audit');
    await expect(stages.last()).toContainText('Read the document');

    await expect(page.getByTestId('workflow-player-id-format')).toHaveText('CB-{year}-{8 hex}');
    await expect(page.getByTestId('workflow-example-player-id')).toHaveText(facts.example.playerId);
    await expect(page.getByTestId('workflow-example-path')).toHaveText(facts.example.storedPath);
    expect(facts.example.storedPath).toMatch(new RegExp(`^seasons/\\d{4}/AA/zoe_obrien_2015-03-02_${facts.example.playerId}/zoe_obrien_2015-03-02_medical_`));
  });
});
