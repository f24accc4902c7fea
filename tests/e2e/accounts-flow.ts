import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import {
  COMMON_PASSWORD_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  ZApiError,
  ZDocument,
  ZDocumentList,
  type TDocumentListItem,
} from '../../src/contract';
import type { PrivateServer } from './private-server';
import { answerApprovalStep } from './documents-helpers';
import { actionsButton, fillInviteUser, sendInvitation, userRow, waitForUsers } from './users-support';

/**
 * The whole life of a personal account, through the UI of a server of the spec's own (tests/e2e/private-server.ts),
 * shared by accounts.spec.ts (1280 px) and accounts.phone.spec.ts (390 px): the admin, signed in with the shared
 * password, lets people sign in with their own accounts too and invites a coordinator as a moderator of AA; the
 * coordinator, in a browser of their own, chooses a password through the link (a common one is refused), signs in,
 * sees AA's documents only, approves one and finds their name on it; the admin reads the approval under the
 * coordinator's name in Activity and deactivates them, and the coordinator's open page falls back to the sign-in
 * screen by itself within 5 seconds.
 */

const DIVISION = 'AA';
const BOTH_MODES = 'Personal accounts and the shared password';

/** Console errors of a page, except Chromium's line for an answer the flow provokes on purpose. */
function watchConsole(page: Page, errors: string[], who: string): { allow: (status: number) => void } {
  const allowed: number[] = [];
  const failedLoad = /^Failed to load resource: the server responded with a status of (\d+)\b/;
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const status = Number(failedLoad.exec(message.text())?.[1]);
    if (!allowed.includes(status)) errors.push(`${who}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${who}: ${error.message}`));
  return { allow: (status) => allowed.push(status) };
}

type Phone = { phone: boolean };

const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** On a phone, a tap (and the page must not scroll sideways); on a desktop, a click. */
async function press(locator: Locator, { phone }: Phone): Promise<void> {
  if (phone) await locator.tap();
  else await locator.click();
}

async function expectFits(page: Page, { phone }: Phone): Promise<void> {
  if (phone) expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
}

/** Every document of the server the admin's session sees (GET /api/documents, page by page). */
async function allDocuments(page: Page, status: string): Promise<TDocumentListItem[]> {
  const documents: TDocumentListItem[] = [];
  for (let pageNumber = 1; ; pageNumber++) {
    const response = await page.request.get(`/api/documents?status=${status}&pageSize=100&page=${pageNumber}`);
    expect(response.status()).toBe(200);
    const list = ZDocumentList.parse(await response.json());
    documents.push(...list.documents);
    if (documents.length >= list.total || list.documents.length === 0) return documents;
  }
}

/** The address bar's way to a record: the answer of GET `path`, opened in the page itself. */
async function openDirectly(page: Page, path: string): Promise<{ status: number; body: unknown }> {
  const response = await page.goto(path);
  if (!response) throw new Error(`no answer for ${path}`);
  return { status: response.status(), body: await response.json() };
}

export async function accountsFlow(browser: Browser, server: PrivateServer, options: Phone): Promise<void> {
  const width = options.phone ? 390 : 1280;
  const contexts: BrowserContext[] = [];
  const newPage = async () => {
    const context = await browser.newContext({ baseURL: server.url });
    contexts.push(context);
    const page = await context.newPage();
    expect(page.viewportSize()?.width).toBe(width);
    return page;
  };
  const consoleErrors: string[] = [];
  const lastName = `Coordinator${randomUUID().slice(0, 8)}`;
  const coordinator = { firstName: 'Casey', lastName, name: `Casey ${lastName}`, email: `casey.${lastName.toLowerCase()}@league.example.org` };
  const password = `Kestrel meadow ${randomUUID().slice(0, 6)} lantern`;

  try {
    const admin = await newPage();
    watchConsole(admin, consoleErrors, 'admin');

    await test.step('the admin signs in with the shared password and lets people sign in with their own accounts too', async () => {
      await admin.goto('/');
      await expect(admin.getByRole('heading', { level: 1, name: 'Access System' })).toBeVisible();
      await admin.getByPlaceholder('Enter system password').fill(server.sharedPassword);
      await press(admin.getByRole('button', { name: 'Access System' }), options);
      await expect(admin.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

      await admin.goto('/settings');
      await press(admin.getByRole('tab', { name: 'Security' }), options);
      const mode = admin.getByTestId('setting-signInMode');
      await expect(mode.getByRole('radio', { name: 'Shared password only' })).toBeChecked();
      const saved = admin.waitForResponse((response) => response.request().method() === 'PATCH' && new URL(response.url()).pathname === '/api/settings');
      await press(mode.getByRole('radio', { name: BOTH_MODES }), options);
      expect((await saved).status()).toBe(200);
      await expect(mode.getByRole('radio', { name: BOTH_MODES })).toBeChecked();
      await expectFits(admin, options);
      // Saved, not just shown: a reload reads it back, and the admin's shared-password session goes on.
      await admin.reload();
      await expect(admin.getByTestId('setting-signInMode').getByRole('radio', { name: BOTH_MODES })).toBeChecked();
    });

    const link = await test.step('the admin invites the coordinator as a moderator of AA and reads the link from the panel', async () => {
      await admin.goto('/users');
      await waitForUsers(admin);
      const dialog = await fillInviteUser(admin, { ...coordinator, role: 'Moderator', divisions: [DIVISION] });
      const { created, panel } = await sendInvitation(admin, dialog);
      // This server has no mail server: the admin passes the link on.
      expect(created.emailed).toBe(false);
      await expect(panel.getByTestId('invitation-mail')).toHaveText('Mail is not set up: send this link yourself.');
      const url = await panel.getByTestId('invitation-url').inputValue();
      expect(url).toMatch(new RegExp(`^${server.url}/invitation#token=[A-Za-z0-9_-]{43}$`));
      await expectFits(admin, options);
      await press(panel.getByRole('button', { name: 'Done' }), options);
      await expect(dialog).toBeHidden();

      const row = userRow(admin, coordinator.email);
      await expect(row.locator('[data-status]')).toHaveText('Pending');
      await expect(row.locator('[data-role]')).toHaveText('Moderator');
      await expect(row.getByTestId('user-divisions')).toHaveText(DIVISION);
      return url;
    });

    const casey = await newPage();
    const caseyConsole = watchConsole(casey, consoleErrors, 'coordinator');

    await test.step('the coordinator opens the link: a common password is refused, a good one is set, and the link is used up', async () => {
      await casey.goto(link);
      await expect(casey.getByRole('heading', { level: 1, name: `Welcome, ${coordinator.firstName}` })).toBeVisible();
      await expect(casey.getByRole('textbox', { name: 'E-mail' })).toHaveValue(coordinator.email);
      await expectFits(casey, options);
      const newPassword = casey.getByLabel('New password', { exact: true });
      const again = casey.getByLabel('Type it again', { exact: true });

      caseyConsole.allow(400);
      await newPassword.fill('password1234');
      await again.fill('password1234');
      await press(casey.getByRole('button', { name: 'Set password' }), options);
      await expect(casey.getByTestId('error-password')).toHaveText(COMMON_PASSWORD_MESSAGE);
      await expect(newPassword).toHaveAttribute('aria-invalid', 'true');
      await expect(newPassword).toBeFocused();
      await expect(casey.getByRole('heading', { level: 1, name: `Welcome, ${coordinator.firstName}` })).toBeVisible();
      await expectFits(casey, options);

      await newPassword.fill(password);
      await again.fill(password);
      await press(casey.getByRole('button', { name: 'Set password' }), options);
      await expect(casey.getByRole('heading', { level: 1, name: 'Your password is set' })).toBeVisible();
      await expect(casey.getByRole('status').filter({ hasText: 'Sign in as' })).toHaveText(`Sign in as ${coordinator.email}`);

      // Used once: the same link now answers that it cannot be used.
      const usedLink = await casey.context().newPage();
      await usedLink.goto(link);
      await expect(usedLink.getByRole('heading', { level: 1, name: 'This link cannot be used' })).toBeVisible();
      await expect(usedLink.getByTestId('invitation-invalid').getByRole('alert')).toHaveText(INVITATION_INVALID_MESSAGE);
      await usedLink.close();
    });

    await test.step('the coordinator signs in with their e-mail and password and is a moderator of AA', async () => {
      await press(casey.getByRole('button', { name: 'Sign in', exact: true }), options);
      await expect(casey.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
      // The address came along from the invitation page.
      await expect(casey.getByRole('textbox', { name: 'E-mail' })).toHaveValue(coordinator.email);
      await expect(casey.getByTestId('sign-in-method-switch')).toHaveText('Use the shared password instead');
      await casey.getByLabel('Password', { exact: true }).fill(password);
      await press(casey.getByRole('button', { name: 'Sign in', exact: true }), options);
      await expect(casey.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
      await expectFits(casey, options);

      const menu = casey.getByTestId('user-menu-trigger');
      await expect(menu).toHaveAccessibleName(`Account: ${coordinator.name}`);
      await press(menu, options);
      await press(casey.getByRole('menuitem', { name: 'My account' }), options);
      await expect(casey.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
      await expect(casey.getByTestId('account-profile').getByRole('definition')).toHaveText([coordinator.name, coordinator.email, /^Moderator/, DIVISION]);
    });

    const approved = await test.step("the coordinator sees only AA's documents; another division's document opened directly is unknown", async () => {
      await casey.goto('/documents?status=pending');
      await expect(casey.getByRole('heading', { level: 1, name: 'Documents' })).toBeVisible();
      const rows = casey.getByTestId('document-row');
      await expect(rows.first()).toBeVisible();
      // Each row (a table row, or a phone's card) names its player's division after a ' · '.
      const shownDivisions = (await rows.allInnerTexts()).map((text) => [...text.matchAll(/ · (AAA|AA|A|TEST|Peewee)(?=\s|$)/g)].map((match) => match[1]));
      expect(shownDivisions.length).toBeGreaterThan(0);
      for (const divisions of shownDivisions) expect(divisions).toEqual([DIVISION]);
      await expectFits(casey, options);

      // Exactly AA's pending documents: as many as the admin's list holds in AA, fewer than it holds in all.
      const everyPending = await allDocuments(admin, 'pending');
      const pendingInAA = everyPending.filter((document) => document.division === DIVISION).length;
      expect(pendingInAA).toBeLessThan(everyPending.length);
      await expect(casey.getByText(/^Showing \d+–\d+ of \d+ documents?$/)).toHaveText(new RegExp(` of ${pendingInAA} documents?$`));

      const first = rows.first();
      const id = await first.getAttribute('data-document-id');
      const fileName = await first.getByTestId('document-file-name').textContent();
      const player = await first.getByTestId('document-player').evaluate((element) => element.firstChild?.textContent ?? '');
      if (!id || !fileName || !player) throw new Error('the first row names no document');

      // Opened by its address: a document of AA answers, one of another division answers as an unknown id does.
      const other = everyPending.find((document) => document.division !== null && document.division !== DIVISION);
      if (!other) throw new Error('the demo data has no pending document outside AA');
      caseyConsole.allow(404);
      const own = await openDirectly(casey, `/api/documents/${id}`);
      expect(own.status).toBe(200);
      expect(ZDocument.pick({ id: true, status: true }).parse(own.body)).toEqual({ id, status: 'pending' });
      const hidden = await openDirectly(casey, `/api/documents/${other.id}`);
      const unknownId = randomUUID();
      const unknown = await openDirectly(casey, `/api/documents/${unknownId}`);
      expect(hidden.status).toBe(404);
      expect(unknown.status).toBe(404);
      const shape = (body: unknown, documentId: string) => {
        const { code, message } = ZApiError.parse(body);
        return { code, message: message.replaceAll(documentId, '<id>') };
      };
      expect(shape(hidden.body, other.id)).toEqual(shape(unknown.body, unknownId));
      expect(shape(hidden.body, other.id).code).toBe('NOT_FOUND');
      // The admin (every division) reads that same document.
      expect((await admin.request.get(`/api/documents/${other.id}`)).status()).toBe(200);
      return { id, fileName, player, docType: everyPending.find((document) => document.id === id)?.docType ?? null };
    });

    await test.step('the coordinator approves a pending document of AA and finds their own name on it in History', async () => {
      await casey.goto('/documents?status=pending');
      const row = casey.locator(`[data-testid="document-row"][data-document-id="${approved.id}"]`);
      await expect(row).toBeVisible();
      await press(row.getByRole('button', { name: `Approve ${approved.fileName}` }), options);
      await answerApprovalStep(casey, approved.docType);
      // Its toast, or the live 'Document Status Updated' that may follow and replace it (one toast at a time).
      const toast = (title: string) => casey.getByRole('status').filter({ hasText: title });
      await expect(toast('Document Approved').or(toast('Document Status Updated'))).toBeVisible();
      // No longer under review: it leaves the pending list.
      await expect(row).toHaveCount(0);

      await casey.goto(`/documents?q=${encodeURIComponent(approved.player)}`);
      await expect(row.locator('[data-status]')).toHaveText('Verified');
      await press(row.getByRole('button', { name: `More ${approved.fileName}` }), options);
      await press(casey.getByRole('menuitem', { name: 'History' }), options);
      const history = casey.getByRole('dialog', { name: 'Document History' });
      const approval = history.getByTestId('document-history').getByRole('listitem').filter({ hasText: 'Status changed from pending to verified' });
      await expect(approval).toHaveCount(1);
      await expect(approval).toContainText(coordinator.name);
      await expectFits(casey, options);
      await casey.keyboard.press('Escape');
      await expect(history).toBeHidden();
      // The page stays open, connected live, for what the admin does next.
      await expect(casey.getByTestId('live-indicator')).toHaveAttribute('data-state', 'connected');
    });

    await test.step("the admin's Activity tab names the coordinator's approval", async () => {
      await admin.goto('/users');
      await press(admin.getByRole('tab', { name: 'Activity' }), options);
      await press(admin.getByTestId('activity-person'), options);
      await press(admin.getByRole('option', { name: coordinator.name, exact: true }), options);
      const entries = admin.getByTestId('activity-entry');
      const approval = entries.filter({ hasText: `${coordinator.name} · Approved a document` });
      await expect(approval).toHaveCount(1);
      await expect(approval).toHaveAttribute('data-action', 'document.status_changed');
      // Only the coordinator's own entries under their name.
      for (const entry of await entries.all()) await expect(entry).toContainText(`${coordinator.name} · `);
      await expectFits(admin, options);
    });

    await test.step("the admin deactivates the coordinator, and the coordinator's open page shows the sign-in screen within 5 seconds", async () => {
      await press(admin.getByRole('tab', { name: 'Users' }), options);
      await waitForUsers(admin);
      const row = userRow(admin, coordinator.email);
      await expect(row.locator('[data-status]')).toHaveText('Active');
      await expect(row.getByTestId('user-last-login')).not.toHaveText('Never');

      const openMenu = async () => {
        await press(actionsButton(row, coordinator.name), options);
        await press(admin.getByRole('menu').getByRole('menuitem', { name: 'Deactivate', exact: true }), options);
      };
      // It asks first; Cancel changes nothing, and the coordinator's page stays as it is.
      await openMenu();
      const confirm = admin.getByRole('alertdialog', { name: `Deactivate ${coordinator.name}?` });
      await press(confirm.getByRole('button', { name: 'Cancel' }), options);
      await expect(confirm).toBeHidden();
      await expect(row.locator('[data-status]')).toHaveText('Active');
      await expect(casey.getByRole('heading', { level: 1, name: 'Documents' })).toBeVisible();

      await openMenu();
      const answered = admin.waitForResponse((response) => response.request().method() === 'PATCH' && new URL(response.url()).pathname.startsWith('/api/users/'));
      await press(confirm.getByRole('button', { name: 'Deactivate', exact: true }), options);
      expect((await answered).status()).toBe(200);
      // Nothing is done on the coordinator's page: the server closes its live connection and the page signs out.
      caseyConsole.allow(401);
      await expect(casey.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible({ timeout: 5_000 });
      await expect(casey.getByRole('heading', { level: 1, name: 'Documents' })).toHaveCount(0);
      await expect(row.locator('[data-status]')).toHaveText('Inactive');

      // And they cannot sign in again: the same answer as a wrong password.
      await casey.getByRole('textbox', { name: 'E-mail' }).fill(coordinator.email);
      await casey.getByLabel('Password', { exact: true }).fill(password);
      await press(casey.getByRole('button', { name: 'Sign in', exact: true }), options);
      await expect(casey.getByTestId('personal-sign-in').getByRole('alert')).toHaveText(INVALID_CREDENTIALS_MESSAGE);
      await expectFits(casey, options);
    });

    expect(consoleErrors).toEqual([]);
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
  }
}
