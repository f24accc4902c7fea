import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiCreateUser, apiUsers, chooseOption, expectParam, fillAddUser, gotoUsers, newPerson, openUsers, shownEmails, userRow, waitForUsers, watchConsole } from './users-support';
import { signInByApi } from './support';

/** User Management on a 390 px phone: one card a user, stacked filters, dialogs that fit, every action in reach. */

const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function expectInsideViewport(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (!box) throw new Error('Not on screen');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
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
    await expect(card.locator('[data-status]')).toHaveText('Pending');
    await expect(card.getByTestId('user-last-login')).toHaveText('Never');
    for (const action of ['Edit Sam Okafor', 'Delete Sam Okafor']) await expectInsideViewport(page, card.getByRole('button', { name: action }));
    await expectInsideViewport(page, page.getByRole('button', { name: 'Add User' }));

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

  test('the Add User dialog fits; it names a bad or taken e-mail, then adds the user', async ({ page }) => {
    await openUsers(page);
    const person = newPerson('Phone');
    const dialog = await fillAddUser(page, { email: 'not-an-email', firstName: person.firstName, lastName: person.lastName, role: 'Viewer' });
    await expectInsideViewport(page, dialog);
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const create = dialog.getByRole('button', { name: 'Create User' });
    await create.tap();
    const email = dialog.getByRole('textbox', { name: 'E-mail' });
    await expect(email).toHaveAccessibleDescription('Enter a valid e-mail address, such as name@example.org');

    await email.fill('Sam.Okafor@example.org');
    allowFailedResponse(409);
    await create.tap();
    await expect(email).toHaveAccessibleDescription('Sam.Okafor@example.org is already used by Sam Okafor');
    await expectInsideViewport(page, dialog);

    await email.fill(person.email);
    await create.tap();
    await expect(dialog).toBeHidden();
    await expect(userRow(page, person.email)).toBeVisible();
    expect((await apiUsers(page.request, `?search=${person.lastName}`)).map((u) => u.email)).toEqual([person.email]);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('a card edits the role and deletes through the confirmation, both dialogs inside the screen', async ({ page }) => {
    await signInByApi(page);
    const person = newPerson('Pocket');
    await apiCreateUser(page.request, { ...person, role: 'viewer' });
    await gotoUsers(page, `?search=${person.lastName}`);
    const card = userRow(page, person.email);
    const name = `Alex ${person.lastName}`;

    await card.getByRole('button', { name: `Edit ${name}` }).tap();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await expectInsideViewport(page, edit);
    await chooseOption(page, edit, 'Role', 'Moderator');
    await edit.getByRole('button', { name: 'Save Changes' }).tap();
    await expect(edit).toBeHidden();
    await expect(card.locator('[data-role]')).toHaveText('Moderator');
    expect((await apiUsers(page.request, `?search=${person.lastName}`))[0]?.role).toBe('moderator');

    await card.getByRole('button', { name: `Delete ${name}` }).tap();
    const confirm = page.getByRole('alertdialog', { name: 'Delete User' });
    await expect(confirm).toContainText(`Are you sure you want to delete ${name}? This action cannot be undone.`);
    await expectInsideViewport(page, confirm);
    await confirm.getByRole('button', { name: 'Cancel' }).tap();
    await expect(confirm).toBeHidden();
    await expect(card).toBeVisible();

    await card.getByRole('button', { name: `Delete ${name}` }).tap();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).tap();
    await expect(confirm).toBeHidden();
    await expect(card).toHaveCount(0);
    expect(await apiUsers(page.request, `?search=${person.lastName}`)).toEqual([]);
  });
});
