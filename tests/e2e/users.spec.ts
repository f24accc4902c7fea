import { expect, test } from '@playwright/test';
import {
  apiCreateUser,
  apiUsers,
  chooseOption,
  expectParam,
  fillAddUser,
  gotoUsers,
  newPerson,
  openUsers,
  shownEmails,
  userRow,
  userRows,
  waitForUsers,
  watchConsole,
} from './users-support';
import { signInByApi } from './support';

/**
 * The User Management screen (list, search, filters, add, edit, delete) against the real server. The demo data
 * holds Morgan Reyes (admin, active), Priya Natarajan (moderator, inactive) and Sam Okafor (viewer, pending,
 * never signed in); these tests read them and never change them: what they change, they create first.
 */

const consoleErrors: string[] = [];
let allowFailedResponse: (status: number) => void = () => undefined;
test.beforeEach(({ page }) => {
  consoleErrors.length = 0;
  allowFailedResponse = watchConsole(page, consoleErrors).allow;
});
test.afterEach(() => {
  expect(consoleErrors).toEqual([]);
});

test.describe('User Management screen', () => {
  test('lists the users with initials, role and status badges, last login or Never, and the created date', async ({ page }) => {
    await openUsers(page);
    await expect(page.getByRole('button', { name: 'Add User' })).toBeVisible();
    const table = page.getByTestId('users-table');
    for (const column of ['Name', 'E-mail', 'Role', 'Status', 'Last login', 'Created']) {
      await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    }

    const morgan = userRow(page, 'morgan.reyes@example.org');
    await expect(morgan.getByTestId('user-name')).toHaveText('Morgan Reyes');
    await expect(morgan.getByTestId('user-initials')).toHaveText('MR');
    await expect(morgan.locator('[data-role]')).toHaveText('Admin');
    await expect(morgan.locator('[data-role]')).toHaveAttribute('data-role', 'admin');
    await expect(morgan.locator('[data-status]')).toHaveText('Active');
    // A date and a time, e.g. 'Nov 24, 2026, 1:02 PM'.
    await expect(morgan.getByTestId('user-last-login')).toHaveText(/\d{4}.*\d{1,2}:\d{2}/);

    const sam = userRow(page, 'sam.okafor@example.org');
    await expect(sam.getByTestId('user-last-login')).toHaveText('Never');
    await expect(sam.locator('[data-role]')).toHaveText('Viewer');
    await expect(sam.locator('[data-status]')).toHaveText('Pending');
    await expect(userRow(page, 'priya.natarajan@example.org').locator('[data-status]')).toHaveText('Inactive');

    // The table shows what the API answers, in its order.
    expect(await shownEmails(page)).toEqual((await apiUsers(page.request)).map((u) => u.email));
    await expect(page.getByTestId('users-count')).toHaveText(/^\d+ users?$/);
  });

  test('Add User creates the user: the dialog closes, a toast says so, the table and GET /api/users show it', async ({ page }) => {
    await openUsers(page);
    const person = newPerson('Added');
    const dialog = await fillAddUser(page, { ...person, role: 'Moderator' });
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('User added', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add User' })).toBeFocused();

    const row = userRow(page, person.email);
    await expect(row).toBeVisible();
    await expect(row.getByTestId('user-name')).toHaveText(`Alex ${person.lastName}`);
    await expect(row.getByTestId('user-initials')).toHaveText(`A${person.lastName[0]}`);
    await expect(row.locator('[data-role]')).toHaveText('Moderator');
    await expect(row.locator('[data-status]')).toHaveText('Active');
    await expect(row.getByTestId('user-last-login')).toHaveText('Never');

    const [listed] = await apiUsers(page.request, `?search=${person.lastName}`);
    expect(listed).toMatchObject({ email: person.email, firstName: 'Alex', lastName: person.lastName, role: 'moderator', status: 'active', lastLogin: null });
  });

  test('a taken e-mail, in any letter case, is shown on the e-mail field and nothing is added', async ({ page }) => {
    await openUsers(page);
    const before = (await apiUsers(page.request)).length;
    const dialog = await fillAddUser(page, { email: 'MORGAN.Reyes@Example.org', firstName: 'Morgan', lastName: 'Again', role: 'Viewer' });
    allowFailedResponse(409);
    await dialog.getByRole('button', { name: 'Create User' }).click();

    const email = dialog.getByRole('textbox', { name: 'E-mail' });
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription('MORGAN.Reyes@Example.org is already used by Morgan Reyes');
    await expect(email).toBeFocused();
    await expect(page.getByText('User not added', { exact: true })).toBeVisible();
    await expect(dialog).toBeVisible();
    expect(await apiUsers(page.request)).toHaveLength(before);

    // Editing the field clears its message; Cancel closes without adding.
    await email.fill('someone.else@example.org');
    await expect(email).toHaveAttribute('aria-invalid', 'false');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await apiUsers(page.request)).toHaveLength(before);
  });

  test('an invalid e-mail and the missing fields are named next to them, the first is focused, nothing is sent', async ({ page }) => {
    await openUsers(page);
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/users') posted++;
    });
    const dialog = await fillAddUser(page, { email: 'not-an-email' });
    await dialog.getByRole('button', { name: 'Create User' }).click();

    const email = dialog.getByRole('textbox', { name: 'E-mail' });
    await expect(email).toHaveAccessibleDescription('Enter a valid e-mail address, such as name@example.org');
    await expect(email).toBeFocused();
    await expect(dialog.getByRole('textbox', { name: 'First name' })).toHaveAccessibleDescription('First name is required');
    await expect(dialog.getByRole('textbox', { name: 'Last name' })).toHaveAccessibleDescription('Last name is required');
    await expect(dialog.getByRole('combobox', { name: 'Role' })).toHaveAccessibleDescription('Role is required');
    expect(posted).toBe(0);
  });

  test('search, role and status narrow the list, live in the address, survive a reload; Clear Filters resets them', async ({ page }) => {
    await openUsers(page);
    const all = await shownEmails(page);
    const filters = page.getByRole('search', { name: 'User filters' });

    await filters.getByRole('searchbox', { name: 'Search' }).fill('OKAFOR');
    await expectParam(page, 'search', 'OKAFOR');
    await waitForUsers(page);
    expect(await shownEmails(page)).toEqual(['sam.okafor@example.org']);
    await filters.getByRole('searchbox', { name: 'Search' }).fill('priya.nat');
    await expectParam(page, 'search', 'priya.nat');
    await waitForUsers(page);
    expect(await shownEmails(page)).toEqual(['priya.natarajan@example.org']);
    await filters.getByRole('searchbox', { name: 'Search' }).fill('');
    await expectParam(page, 'search', null);

    await chooseOption(page, filters, 'Role', 'Admin');
    await expectParam(page, 'role', 'admin');
    await waitForUsers(page);
    const admins = await shownEmails(page);
    expect(admins).toContain('morgan.reyes@example.org');
    expect(admins.length).toBeLessThan(all.length);
    for (const badge of await userRows(page).locator('[data-role]').all()) await expect(badge).toHaveAttribute('data-role', 'admin');

    await chooseOption(page, filters, 'Role', 'All roles');
    await chooseOption(page, filters, 'Status', 'Inactive');
    await expectParam(page, 'status', 'inactive');
    await waitForUsers(page);
    expect(await shownEmails(page)).toContain('priya.natarajan@example.org');
    for (const badge of await userRows(page).locator('[data-status]').all()) await expect(badge).toHaveAttribute('data-status', 'inactive');
    expect(await shownEmails(page)).toEqual((await apiUsers(page.request, '?status=inactive')).map((u) => u.email));

    await page.goto('/users?role=viewer&status=pending&search=okafor');
    await waitForUsers(page);
    await expect(filters.getByRole('combobox', { name: 'Role' })).toHaveText('Viewer');
    await expect(filters.getByRole('combobox', { name: 'Status' })).toHaveText('Pending');
    await expect(filters.getByRole('searchbox', { name: 'Search' })).toHaveValue('okafor');
    expect(await shownEmails(page)).toEqual(['sam.okafor@example.org']);
    await page.reload();
    await waitForUsers(page);
    expect(await shownEmails(page)).toEqual(['sam.okafor@example.org']);

    await filters.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await waitForUsers(page);
    await expect(filters.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
    await expect(filters.getByRole('combobox', { name: 'Role' })).toHaveText('All roles');
    await expect(filters.getByRole('combobox', { name: 'Status' })).toHaveText('All statuses');
    await expect(filters.getByRole('button', { name: 'Clear Filters' })).toBeDisabled();
  });

  test("shows 'No users found' when nothing matches", async ({ page }) => {
    await openUsers(page, '?search=zzzz-no-such-user');
    await expect(page.getByText('No users found', { exact: true })).toBeVisible();
    await expect(page.getByText('No users match your current filters.', { exact: true })).toBeVisible();
    await expect(userRows(page)).toHaveCount(0);
  });

  test('Edit changes the role (and status) of a user; the API answers the new values', async ({ page }) => {
    await signInByApi(page);
    const person = newPerson('Edited');
    await apiCreateUser(page.request, { ...person, role: 'viewer', status: 'pending' });
    await gotoUsers(page, `?search=${person.lastName}`);
    const row = userRow(page, person.email);

    const editButton = row.getByRole('button', { name: `Edit Alex ${person.lastName}` });
    await editButton.click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect(dialog).toContainText(person.email);
    await expect(dialog.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    await chooseOption(page, dialog, 'Role', 'Admin');
    await chooseOption(page, dialog, 'Status', 'Active');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('User updated', { exact: true })).toBeVisible();
    await expect(editButton).toBeFocused();

    await expect(row.locator('[data-role]')).toHaveText('Admin');
    await expect(row.locator('[data-status]')).toHaveText('Active');
    const [listed] = await apiUsers(page.request, `?search=${person.lastName}`);
    expect(listed).toMatchObject({ email: person.email, role: 'admin', status: 'active' });
  });

  test('Delete asks first: Cancel keeps the user, Delete removes it and the API no longer lists it', async ({ page }) => {
    await signInByApi(page);
    const person = newPerson('Deleted');
    await apiCreateUser(page.request, { ...person, role: 'viewer' });
    await gotoUsers(page, `?search=${person.lastName}`);
    const row = userRow(page, person.email);
    const deleteButton = row.getByRole('button', { name: `Delete Alex ${person.lastName}` });

    await deleteButton.click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete User' });
    await expect(dialog).toContainText(`Are you sure you want to delete Alex ${person.lastName}? This action cannot be undone.`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(deleteButton).toBeFocused();
    await expect(row).toBeVisible();
    expect(await apiUsers(page.request, `?search=${person.lastName}`)).toHaveLength(1);

    await deleteButton.click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('User deleted', { exact: true })).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(page.getByText('No users found', { exact: true })).toBeVisible();
    expect(await apiUsers(page.request, `?search=${person.lastName}`)).toEqual([]);
  });

  test('a failed load shows the server message and Try again reads the users again', async ({ page }) => {
    await signInByApi(page);
    let failures = 1;
    await page.route('**/api/users', async (route) => {
      if (failures-- > 0) {
        await route.fulfill({ status: 503, json: { code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering. Try again in a moment.' } });
      } else {
        await route.continue();
      }
    });
    allowFailedResponse(503);
    await page.goto('/users');
    const error = page.getByTestId('users-error');
    await expect(error.getByRole('alert')).toContainText('Unable to load users');
    await expect(error.getByRole('alert')).toContainText('The database is not answering. Try again in a moment.');
    await error.getByRole('button', { name: 'Try again' }).click();
    await waitForUsers(page);
    await expect(userRow(page, 'morgan.reyes@example.org')).toBeVisible();
  });
});
