import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { BACKUP_SCHEDULE_PATH, BACKUPS_PATH, ZBackupState } from '../../src/contract';
import { seriousViolations } from './axe-support';
import { openSettings, pageOverflow } from './settings-support';

// One test: the steps share the server's one schedule, in order.
test('Settings → System → Backups: a bad folder is refused in the server’s words, a good one is saved, Back up now writes a backup, Turn off stops it', async ({ page }, testInfo) => {
  const folder = await mkdtemp(join(tmpdir(), 'clearbase-e2e-backups-'));
  try {
    await openSettings(page, 'system');
    const card = page.getByTestId('backups-card');
    await expect(card.getByRole('heading', { name: 'Backups' })).toBeVisible();
    await expect(card.getByTestId('backups-last-message')).toHaveText('No backup has been made yet.');
    await expect(card.getByTestId('backups-no-passphrase')).toHaveCount(0);
    // Nothing to back up into yet: the button says why it waits.
    await expect(card.getByTestId('backups-run')).toBeDisabled();
    await expect(card.getByTestId('backups-run-reason')).toHaveText('Choose a folder and save first.');
    await expect(card.getByLabel('Backups kept')).toHaveValue('14');
    await expect(card.getByLabel('Hour (server time)')).toHaveText('02:00');

    // Checked here first: a folder that is not a full path.
    const field = card.getByLabel('Folder on the server');
    await field.fill('backups');
    await card.getByTestId('backups-save').click();
    await expect(card.getByTestId('error-folder')).toHaveText('Give the folder as a full path, such as /mnt/backup/clearbase, or a folder in an S3 bucket, such as s3://league-backups/clearbase.');
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    // Then by the server: a folder it cannot make, as a file stands in its way (the same whether the server runs as root or not).
    const blocked = join(folder, 'a-file', 'backups');
    await writeFile(join(folder, 'a-file'), 'not a folder');
    await field.fill(blocked);
    await card.getByTestId('backups-save').click();
    await expect(card.getByTestId('backups-form-error')).toHaveText(`Clearbase cannot write into ${blocked}: it is not a folder.`);
    await rm(join(folder, 'a-file'));
    expect(ZBackupState.parse(await (await page.request.get(BACKUPS_PATH)).json()).schedule).toBeNull();

    // A good folder, at 03:00, the newest 5 kept.
    await field.fill(folder);
    await card.getByLabel('Hour (server time)').click();
    await page.getByRole('option', { name: '03:00' }).click();
    await card.getByLabel('Backups kept').fill('5');
    await card.getByTestId('backups-save').click();
    await expect(card.getByTestId('backups-turn-off')).toBeVisible();
    await expect(card.getByTestId('backups-form-error')).toHaveCount(0);
    expect(ZBackupState.parse(await (await page.request.get(BACKUPS_PATH)).json()).schedule).toEqual({ folder, hour: 3, keep: 5 });
    await expect(card.getByTestId('backups-next')).toContainText('Next backup:');
    await expect(card.getByLabel('Hour (server time)')).toHaveText('03:00');

    // Back up now: progress while it runs, then the result in words, with its size.
    await expect(card.getByTestId('backups-run')).toBeEnabled();
    await card.getByTestId('backups-run').click();
    await expect(card.getByTestId('backups-run-status')).toHaveText(/^Backup finished\. Backed up /, { timeout: 60_000 });
    await expect(card.getByTestId('backups-last-state')).toHaveText('Backed up');
    await expect(card.getByTestId('backups-last-size')).toHaveText(/^\d[\d,]*\.\d MB, [\d,]+ files?$/);
    await expect(card.getByTestId('backups-run')).toHaveText('Back up now');
    // The size shown is the one the server's message says, in the same megabytes.
    const said = /into ([\d,.]+ MB)\./.exec((await card.getByTestId('backups-last-message').textContent()) ?? '')?.[1];
    expect(said).toBeDefined();
    await expect(card.getByTestId('backups-last-size')).toContainText(said!);
    const written = await readdir(folder);
    expect(written).toHaveLength(1);
    await expect(card.getByTestId('backups-last-file')).toContainText(written[0]!);
    await card.screenshot({ path: testInfo.outputPath('backups-1280.png') });
    expect(await seriousViolations(page, '[data-testid="backups-card"]')).toEqual([]);

    // At 390 px the card fits the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    await card.screenshot({ path: testInfo.outputPath('backups-390.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Turn off: no nightly backup, the last result stays.
    await card.getByTestId('backups-turn-off').click();
    await expect(card.getByTestId('backups-turn-off')).toHaveCount(0);
    await expect(card.getByTestId('backups-next')).toHaveText('No nightly backup is set: choose a folder and save.');
    await expect(card.getByTestId('backups-last-state')).toHaveText('Backed up');
    await expect(card.getByTestId('backups-run')).toBeDisabled();
  } finally {
    // The shared e2e server is left without a schedule even when a step failed.
    await page.request.put(BACKUP_SCHEDULE_PATH, { data: { schedule: null } });
    await rm(folder, { recursive: true, force: true });
  }
});
