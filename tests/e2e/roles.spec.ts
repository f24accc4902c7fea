import { expect, test, type Page } from '@playwright/test';
import { FORBIDDEN_MESSAGE, ZSession, type TUserRole } from '../../src/contract';
import { startRolesServer, type RolesServer } from './roles-support';

/**
 * Each role sees only the controls it can use (the server refuses the rest anyway): a viewer and a moderator on
 * Documents, Players, Notifications and Settings, against a server of its own whose database the spec writes the
 * people and their sessions into (tests/e2e/roles-support.ts).
 */
let server: RolesServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startRolesServer();
});
test.afterAll(async () => {
  await server?.stop();
});

function own(): RolesServer {
  if (!server) throw new Error('the roles server did not start');
  return server;
}

/** Signs `page` in as a new person of `role` and opens `path`. */
async function openAs(page: Page, role: TUserRole, path: string) {
  const person = await own().signInAs(page, role);
  await page.goto(`${own().url}${path}`);
  return person;
}

const rows = (page: Page) => page.getByTestId('document-row');
const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

/** The pending documents of the demo data, listed (`type`: only waivers, which are approved with no step asking for facts). */
async function openPendingDocuments(page: Page, role: TUserRole, type?: 'waiver') {
  const person = await openAs(page, role, `/documents?status=pending${type ? `&type=${type}` : ''}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Documents' })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  return person;
}

async function openFirstPlayer(page: Page) {
  await page.getByTestId('player-row').first().getByTestId('player-name').click();
  const dialog = page.getByTestId('player-detail-dialog');
  await expect(dialog.getByTestId('player-document').first()).toBeVisible();
  return dialog;
}

async function openSettingsTab(page: Page, tab: 'integrations' | 'notifications') {
  await page.goto(`${own().url}/settings?tab=${tab}`);
  await expect(page.getByRole('heading', { level: 1, name: 'System Settings' })).toBeVisible();
}

test.describe('a viewer', () => {
  test('reads every document, with History and Export but nothing that opens a file or reviews', async ({ page }) => {
    await openPendingDocuments(page, 'viewer');
    const row = rows(page).first();
    await expect(row.getByRole('button', { name: /^History/ })).toBeVisible();
    for (const action of [/^View/, /^Approve/, /^Reject/, /^More/]) await expect(row.getByRole('button', { name: action })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Upload Selected/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Approve Selected/ })).toHaveCount(0);
    // Export writes what a viewer can read, so rows stay selectable for it.
    await expect(page.getByRole('button', { name: 'Export Selected (0)' })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: /^Select All/ })).toBeVisible();

    // History still opens.
    await row.getByRole('button', { name: /^History/ }).click();
    await expect(page.getByRole('dialog', { name: 'Document History' })).toBeVisible();
  });

  test('sees players without Add Player, and a player without their files', async ({ page }) => {
    await openAs(page, 'viewer', '/players');
    await expect(page.getByRole('heading', { level: 1, name: 'Players' })).toBeVisible();
    await expect(page.getByTestId('export-players-csv')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Player' })).toHaveCount(0);

    const dialog = await openFirstPlayer(page);
    await expect(dialog.getByRole('button', { name: /^View/ })).toHaveCount(0);
    await expect(dialog.getByRole('link', { name: /^Download/ })).toHaveCount(0);
    for (const action of [/^Approve/, /^Reject/]) await expect(dialog.getByRole('button', { name: action })).toHaveCount(0);
    await expect(dialog).not.toContainText('file://');
  });

  test('sees no upload link controls, and how long links work as text', async ({ page }) => {
    await openAs(page, 'viewer', '/players');
    await expect(page.getByTestId('player-row').first()).toBeVisible();
    await expect(page.getByTestId('player-row-actions')).toHaveCount(0);

    const dialog = await openFirstPlayer(page);
    await expect(dialog.getByTestId('upload-link-section')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: /upload link|Send link|Stop links/ })).toHaveCount(0);

    await openSettingsTab(page, 'notifications');
    const card = page.getByTestId('upload-link-settings');
    await expect(card.getByTestId('fact-uploadLinkDays')).toHaveText('Upload links work for 30 days.');
    await expect(card.getByRole('spinbutton')).toHaveCount(0);
    await expect(card.getByTestId('read-only-note')).toBeVisible();
  });

  test('has no Send tab; templates and notification settings are read-only text', async ({ page }) => {
    await openAs(page, 'viewer', '/notifications');
    await expect(page.getByRole('tab')).toHaveText(['Templates', 'History', 'Settings']);
    await expect(page.getByRole('tab', { name: 'Templates' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('template-row').first()).toBeVisible();
    await expect(page.getByTestId('read-only-note')).toBeVisible();
    await expect(page.getByRole('switch')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Edit/ })).toHaveCount(0);
    await expect(page.getByTestId('template-enabled-text').first()).toBeVisible();

    // A link to the Send tab shows the first tab the role has.
    await page.goto(`${own().url}/notifications?tab=send`);
    await expect(page.getByRole('tab', { name: 'Templates' })).toHaveAttribute('aria-selected', 'true');

    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByTestId('settings-read-only')).toBeVisible();
    // The mail server's details are for those who configure it: the server leaves them out, the screen says so.
    for (const detail of ['mail-host', 'mail-port', 'mail-username']) await expect(page.getByTestId(detail)).toHaveText('Hidden — admins only');
    await expect(page.getByRole('button', { name: 'Save Settings' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Send test' })).toHaveCount(0);
    await expect(page.getByRole('textbox')).toHaveCount(0);
  });

  test('reads the settings as text, and the mailbox without its controls', async ({ page }) => {
    await own().signInAs(page, 'viewer');
    await openSettingsTab(page, 'notifications');
    const card = page.getByTestId('notification-settings');
    await expect(card.getByTestId('read-only-note')).toBeVisible();
    await expect(card.getByRole('switch')).toHaveCount(0);
    await expect(card.getByTestId('setting-emailNotifications-value')).toHaveText(/E-mail notifications: (On|Off)/);

    await openSettingsTab(page, 'integrations');
    const mailbox = page.getByTestId('gmail-settings');
    await expect(mailbox.getByTestId('gmail-scheduler')).toBeVisible();
    await expect(mailbox.getByTestId('read-only-note')).toBeVisible();
    for (const control of ['gmail-start', 'gmail-stop', 'gmail-check']) await expect(mailbox.getByTestId(control)).toHaveCount(0);
    await expect(page.getByTestId('storage-driver')).toBeVisible();
  });
});

test.describe('a moderator', () => {
  test('reviews documents and opens their files, in rows and in bulk', async ({ page }) => {
    await openPendingDocuments(page, 'moderator');
    const row = rows(page).first();
    for (const action of [/^View/, /^Approve/, /^Reject/, /^More/]) await expect(row.getByRole('button', { name: action })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upload Selected (0)' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Export Selected (0)' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve Selected (0)' })).toBeVisible();
  });

  test('adds players and opens their files, with no storage path shown', async ({ page }) => {
    await openAs(page, 'moderator', '/players');
    await expect(page.getByRole('button', { name: 'Add Player' })).toBeVisible();

    const dialog = await openFirstPlayer(page);
    await expect(dialog.getByRole('button', { name: /^View/ }).first()).toBeVisible();
    await expect(dialog.getByRole('link', { name: /^Download/ }).first()).toBeVisible();
    await expect(dialog).not.toContainText('file://');
  });

  test('sends notifications, and reads templates and notification settings', async ({ page }) => {
    await openAs(page, 'moderator', '/notifications');
    await expect(page.getByRole('tab')).toHaveText(['Send', 'Templates', 'History', 'Settings']);
    await expect(page.getByTestId('send-button')).toBeVisible();
    await expect(page.getByTestId('quick-incomplete')).toBeVisible();

    await page.getByRole('tab', { name: 'Templates' }).click();
    await expect(page.getByTestId('template-row').first()).toBeVisible();
    await expect(page.getByRole('switch')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Edit/ })).toHaveCount(0);

    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByTestId('settings-read-only')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save Settings' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Send test' })).toHaveCount(0);
  });

  test('checks the mailbox now, but neither starts nor stops it, and reads the switches as text', async ({ page }) => {
    await own().signInAs(page, 'moderator');
    await openSettingsTab(page, 'integrations');
    const mailbox = page.getByTestId('gmail-settings');
    await expect(mailbox.getByTestId('gmail-check')).toBeVisible();
    await expect(mailbox.getByTestId('gmail-start')).toHaveCount(0);
    await expect(mailbox.getByTestId('gmail-stop')).toHaveCount(0);

    await openSettingsTab(page, 'notifications');
    const card = page.getByTestId('notification-settings');
    await expect(card.getByRole('switch')).toHaveCount(0);
    await expect(card.getByTestId('setting-realtimeUpdates-value')).toBeVisible();
  });
});

test("a role lowered while the page is open: the refused action says the server's message, and the controls follow", async ({ page }) => {
  const moderator = await openPendingDocuments(page, 'moderator', 'waiver');
  const approve = rows(page).first().getByRole('button', { name: /^Approve/ });
  await expect(approve).toBeVisible();

  await own().setRole(moderator.userId, 'viewer');
  // The server reads a session's person again within seconds: wait until it answers as a viewer.
  await expect
    .poll(async () => ZSession.parse(await (await page.request.get(`${own().url}/api/auth/session`)).json()).principal?.role, { timeout: 15_000 })
    .toBe('viewer');

  await approve.click();
  await expect(toast(page, FORBIDDEN_MESSAGE)).toBeVisible();
  // The session was read again: the row keeps only what a viewer can use.
  await expect(rows(page).first().getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  await expect(rows(page).first().getByRole('button', { name: /^History/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Upload Selected/ })).toHaveCount(0);
});

test('Documents, Settings and notification settings at 1280 and 390 px, as a viewer and as a moderator', async ({ page }) => {
  test.setTimeout(120_000);
  for (const role of ['viewer', 'moderator'] as const) {
    await own().signInAs(page, role);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.goto(`${own().url}/documents?status=pending`);
      await expect(rows(page).first()).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`${role}-documents-${width}.png`) });
      await rows(page).nth(1).scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`${role}-documents-rows-${width}.png`) });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

      await openSettingsTab(page, 'notifications');
      await expect(page.getByTestId('setting-emailNotifications-value')).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`${role}-settings-${width}.png`), fullPage: true });
      await openSettingsTab(page, 'integrations');
      await expect(page.getByTestId('gmail-scheduler')).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`${role}-settings-integrations-${width}.png`), fullPage: true });

      await page.goto(`${own().url}/notifications?tab=settings`);
      await expect(page.getByTestId('settings-read-only')).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`${role}-notifications-settings-${width}.png`), fullPage: true });
    }
  }
});
