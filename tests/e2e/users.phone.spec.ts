import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  actionsButton,
  apiInviteUser,
  apiUsers,
  chooseOption,
  expectParam,
  fillInviteUser,
  gotoUsers,
  menuItems,
  newPerson,
  openUsers,
  roleRadio,
  sendInvitation,
  shownEmails,
  userRow,
  waitForUsers,
  watchConsole,
} from './users-support';
import { signInByApi } from './support';

/** User Management on a 390 px phone: one card a user, stacked filters, dialogs and menus that fit, every action in reach. */

const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function expectInsideViewport(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (!box) throw new Error('Not on screen');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

/** Opens a card's actions menu by tapping, checks it fits the screen, and taps `action`. */
async function tapRowAction(page: Page, card: Locator, name: string, action: string): Promise<void> {
  await actionsButton(card, name).tap();
  await expectInsideViewport(page, page.getByRole('menu'));
  await page.getByRole('menu').getByRole('menuitem', { name: action, exact: true }).tap();
}

const consoleErrors: string[] = [];
let allowFailedResponse: (status: number) => void = () => undefined;
test.beforeEach(({ page }) => {
  consoleErrors.length = 0;
  allowFailedResponse = watchConsole(page, consoleErrors).allow;
});
test.afterEach(() => {
  expect(consoleErrors).toEqual([]);
});

test.describe('User Management on a phone (390 px)', () => {
  test('shows one card a user with its actions in reach, stacks the filters, and never scrolls sideways', async ({ page }) => {
    await openUsers(page);
    await expect(page.getByRole('table')).toHaveCount(0);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

    const card = userRow(page, 'sam.okafor@example.org');
    await expectInsideViewport(page, card);
    await expect(card.getByTestId('user-name')).toHaveText('Sam Okafor');
    await expect(card.locator('[data-role]')).toHaveText('Viewer');
    await expect(card.getByTestId('user-divisions')).toHaveText('All divisions');
    await expect(card.locator('[data-status]')).toHaveText('Pending');
    await expect(card.getByTestId('user-last-login')).toHaveText('Never');
    await expectInsideViewport(page, actionsButton(card, 'Sam Okafor'));
    await expectInsideViewport(page, page.getByRole('button', { name: 'Invite User' }));

    // The menu opens inside the screen with every action of a pending user.
    await actionsButton(card, 'Sam Okafor').tap();
    await expect(menuItems(page)).toHaveText(['Edit', 'Resend invitation', 'Sessions', 'Deactivate', 'Delete']);
    await expectInsideViewport(page, page.getByRole('menu'));
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);

    const filters = page.getByRole('search', { name: 'User filters' });
    let previousBottom = -Infinity;
    for (const control of [
      filters.getByRole('searchbox', { name: 'Search' }),
      filters.getByRole('combobox', { name: 'Role' }),
      filters.getByRole('combobox', { name: 'Status' }),
      filters.getByRole('button', { name: 'Clear Filters' }),
    ]) {
      const box = await control.boundingBox();
      if (!box) throw new Error('A filter is not on screen');
      expect(box.y).toBeGreaterThanOrEqual(previousBottom);
      previousBottom = box.y + box.height;
      await expectInsideViewport(page, control);
    }

    await chooseOption(page, filters, 'Role', 'Moderator');
    await expectParam(page, 'role', 'moderator');
    await waitForUsers(page);
    expect(await shownEmails(page)).toEqual((await apiUsers(page.request, '?role=moderator')).map((u) => u.email));
    expect(await shownEmails(page)).toContain('priya.natarajan@example.org');
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the Invite User dialog fits; it names a bad or taken e-mail, then invites the user and shows the link inside the screen', async ({ page }) => {
    await openUsers(page);
    const person = newPerson('Phone');
    const dialog = await fillInviteUser(page, { email: 'not-an-email', firstName: person.firstName, lastName: person.lastName, role: 'Viewer', divisions: ['A'] });
    await expectInsideViewport(page, dialog);
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const send = dialog.getByRole('button', { name: 'Send Invitation' });
    await send.tap();
    const email = dialog.getByRole('textbox', { name: 'E-mail' });
    await expect(email).toHaveAccessibleDescription('Enter a valid e-mail address, such as name@example.org');

    await email.fill('Sam.Okafor@example.org');
    allowFailedResponse(409);
    await send.tap();
    await expect(email).toHaveAccessibleDescription('Sam.Okafor@example.org is already used by Sam Okafor');
    await expectInsideViewport(page, dialog);

    await email.fill(person.email);
    const { created, panel } = await sendInvitation(page, dialog);
    await expectInsideViewport(page, dialog);
    await expectInsideViewport(page, panel.getByTestId('invitation-url'));
    await expectInsideViewport(page, panel.getByRole('button', { name: 'Copy link' }));
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await panel.getByRole('button', { name: 'Done' }).tap();
    await expect(dialog).toBeHidden();

    const card = userRow(page, person.email);
    await expect(card).toBeVisible();
    await expect(card.locator('[data-status]')).toHaveText('Pending');
    await expect(card.getByTestId('user-divisions')).toHaveText('A');
    expect((await apiUsers(page.request, `?search=${person.lastName}`)).map((u) => [u.id, u.email, u.status])).toEqual([[created.user.id, person.email, 'pending']]);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('a card edits the role, deactivates and deletes through their confirmations, every dialog inside the screen', async ({ page }) => {
    await signInByApi(page);
    const person = newPerson('Pocket');
    await apiInviteUser(page.request, { ...person, role: 'viewer' });
    await gotoUsers(page, `?search=${person.lastName}`);
    const card = userRow(page, person.email);
    const name = `Alex ${person.lastName}`;

    await tapRowAction(page, card, name, 'Edit');
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await expectInsideViewport(page, edit);
    await roleRadio(edit, 'Moderator').tap();
    await edit.getByRole('button', { name: 'Save Changes' }).tap();
    await expect(edit).toBeHidden();
    await expect(card.locator('[data-role]')).toHaveText('Moderator');
    expect((await apiUsers(page.request, `?search=${person.lastName}`))[0]?.role).toBe('moderator');

    await tapRowAction(page, card, name, 'Deactivate');
    const deactivate = page.getByRole('alertdialog', { name: `Deactivate ${name}?` });
    await expectInsideViewport(page, deactivate);
    await deactivate.getByRole('button', { name: 'Deactivate', exact: true }).tap();
    await expect(deactivate).toBeHidden();
    await expect(card.locator('[data-status]')).toHaveText('Inactive');
    expect((await apiUsers(page.request, `?search=${person.lastName}`))[0]?.status).toBe('inactive');

    await tapRowAction(page, card, name, 'Delete');
    const confirm = page.getByRole('alertdialog', { name: 'Delete User' });
    await expect(confirm).toContainText(`Are you sure you want to delete ${name}? This action cannot be undone.`);
    await expectInsideViewport(page, confirm);
    await confirm.getByRole('button', { name: 'Cancel' }).tap();
    await expect(confirm).toBeHidden();
    await expect(card).toBeVisible();

    await tapRowAction(page, card, name, 'Delete');
    await confirm.getByRole('button', { name: 'Delete', exact: true }).tap();
    await expect(confirm).toBeHidden();
    await expect(card).toHaveCount(0);
    expect(await apiUsers(page.request, `?search=${person.lastName}`)).toEqual([]);
  });
});
