import { expect, test } from '@playwright/test';
import {
  actionsButton,
  apiInviteUser,
  apiUsers,
  chooseOption,
  divisionBox,
  expectParam,
  fillInviteUser,
  gotoUsers,
  invitationStatus,
  menuItems,
  newPerson,
  openUsers,
  roleRadio,
  rowAction,
  sendInvitation,
  shownEmails,
  userRow,
  userRows,
  waitForUsers,
  watchConsole,
} from './users-support';
import { signInByApi } from './support';

/**
 * The User Management screen (list, search, filters, invite, the row menu's Edit, Resend invitation, Deactivate
 * and Delete) against the real server, signed in with the shared password (an admin). The demo data holds
 * Morgan Reyes (admin, active), Priya Natarajan (moderator, inactive) and Sam Okafor (viewer, pending, never
 * signed in); these tests read them and never change them: what they change, they invite first.
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

const DATE_AND_TIME = /\d{4}.*\d{1,2}:\d{2}/;

test.describe('User Management screen', () => {
  test('lists the users with initials, role, divisions and status badges, last login or Never, and the last action', async ({ page }) => {
    await openUsers(page);
    await expect(page.getByRole('button', { name: 'Invite User' })).toBeVisible();
    const table = page.getByTestId('users-table');
    for (const column of ['Name', 'Role and divisions', 'Status', 'Last login', 'Last action', 'Actions']) {
      await expect(table.getByRole('columnheader', { name: column, exact: true })).toHaveCount(1);
    }

    const morgan = userRow(page, 'morgan.reyes@example.org');
    await expect(morgan.getByTestId('user-name')).toHaveText('Morgan Reyes');
    await expect(morgan.getByTestId('user-initials')).toHaveText('MR');
    await expect(morgan.locator('[data-role]')).toHaveText('Admin');
    await expect(morgan.locator('[data-role]')).toHaveAttribute('data-role', 'admin');
    await expect(morgan.getByTestId('user-divisions')).toHaveText('All divisions');
    await expect(morgan.locator('[data-status]')).toHaveText('Active');
    // A date and a time, e.g. 'Nov 24, 2026, 1:02 PM'.
    await expect(morgan.getByTestId('user-last-login')).toHaveText(DATE_AND_TIME);
    await expect(actionsButton(morgan, 'Morgan Reyes')).toBeVisible();

    const sam = userRow(page, 'sam.okafor@example.org');
    await expect(sam.getByTestId('user-last-login')).toHaveText('Never');
    await expect(sam.locator('[data-role]')).toHaveText('Viewer');
    await expect(sam.locator('[data-status]')).toHaveText('Pending');
    await expect(userRow(page, 'priya.natarajan@example.org').locator('[data-status]')).toHaveText('Inactive');

    // The table shows what the API answers, in its order; the last action is a date and time, or 'None yet'.
    const listed = await apiUsers(page.request);
    expect(await shownEmails(page)).toEqual(listed.map((u) => u.email));
    const samListed = listed.find((u) => u.email === 'sam.okafor@example.org');
    await expect(sam.getByTestId('user-last-action')).toHaveText(samListed?.lastActionAt ? DATE_AND_TIME : 'None yet');
    await expect(page.getByTestId('users-count')).toHaveText(/^\d+ users?$/);
  });

  test('Invite User creates a pending user and shows the link: Done closes, a toast says so, the table and GET /api/users show it', async ({ page, baseURL }) => {
    await openUsers(page);
    const person = newPerson('Invited');
    const dialog = await fillInviteUser(page, { ...person, role: 'Moderator', divisions: ['AA', 'A'] });
    const { created, panel } = await sendInvitation(page, dialog);
    await expect(page.getByText('User invited', { exact: true })).toBeVisible();

    // The link panel: its heading has focus, the link points at this server's invitation page with the token in
    // the #fragment, it says until when it works and whether it was e-mailed (as the server answered).
    await expect(panel.getByRole('heading', { name: `Invitation for ${person.email}` })).toBeFocused();
    expect(created.invitation.url).toMatch(new RegExp(`^${baseURL}/invitation#token=[A-Za-z0-9_-]{43}$`));
    await expect(panel.getByTestId('invitation-url')).toHaveAccessibleDescription(/^Works once, until .+\. Earlier links for this person no longer work\.$/);
    await expect(panel.getByTestId('invitation-mail')).toHaveText(
      created.emailed ? `We e-mailed it to ${person.email}.` : 'Mail is not set up: send this link yourself.',
    );
    await expect(panel.getByRole('button', { name: 'Copy link' })).toBeVisible();
    expect(await invitationStatus(page.request, created.invitation.url)).toBe(200);

    await panel.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Invite User' })).toBeFocused();

    const row = userRow(page, person.email);
    await expect(row).toBeVisible();
    await expect(row.getByTestId('user-name')).toHaveText(`Alex ${person.lastName}`);
    await expect(row.getByTestId('user-initials')).toHaveText(`A${person.lastName[0]}`);
    await expect(row.locator('[data-role]')).toHaveText('Moderator');
    await expect(row.getByTestId('user-divisions')).toHaveText('AA, A');
    await expect(row.locator('[data-status]')).toHaveText('Pending');
    await expect(row.getByTestId('user-last-login')).toHaveText('Never');

    const [listed] = await apiUsers(page.request, `?search=${person.lastName}`);
    expect(listed).toMatchObject({
      id: created.user.id,
      email: person.email,
      firstName: 'Alex',
      lastName: person.lastName,
      role: 'moderator',
      divisions: ['AA', 'A'],
      status: 'pending',
      lastLogin: null,
    });
  });

  test('a taken e-mail, in any letter case, is shown on the e-mail field and nobody is invited', async ({ page }) => {
    await openUsers(page);
    const before = (await apiUsers(page.request)).length;
    const dialog = await fillInviteUser(page, { email: 'MORGAN.Reyes@Example.org', firstName: 'Morgan', lastName: 'Again', role: 'Viewer' });
    allowFailedResponse(409);
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();

    const email = dialog.getByRole('textbox', { name: 'E-mail' });
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription('MORGAN.Reyes@Example.org is already used by Morgan Reyes');
    await expect(email).toBeFocused();
    await expect(page.getByText('User not invited', { exact: true })).toBeVisible();
    await expect(dialog).toHaveAccessibleName('Invite User');
    await expect(dialog.getByTestId('invitation-link-panel')).toHaveCount(0);
    expect(await apiUsers(page.request)).toHaveLength(before);

    // Editing the field clears its message; Cancel closes without inviting.
    await email.fill('someone.else@example.org');
    await expect(email).toHaveAttribute('aria-invalid', 'false');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await apiUsers(page.request)).toHaveLength(before);
  });

  test('an invalid e-mail, the missing fields and no division picked are named next to them, the first is focused, nothing is sent', async ({ page }) => {
    await openUsers(page);
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/users') posted++;
    });
    const dialog = await fillInviteUser(page, { email: 'not-an-email', divisions: [] });
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();

    const email = dialog.getByRole('textbox', { name: 'E-mail' });
    await expect(email).toHaveAccessibleDescription('Enter a valid e-mail address, such as name@example.org');
    await expect(email).toBeFocused();
    await expect(dialog.getByRole('textbox', { name: 'First name' })).toHaveAccessibleDescription('First name is required');
    await expect(dialog.getByRole('textbox', { name: 'Last name' })).toHaveAccessibleDescription('Last name is required');
    await expect(dialog.getByRole('radiogroup', { name: 'Role' })).toHaveAccessibleDescription('Role is required');
    await expect(dialog.getByTestId('error-divisions')).toHaveText('Pick at least one division, or choose All divisions.');
    await expect(dialog.getByRole('group', { name: 'Divisions', exact: true })).toHaveAccessibleDescription('Pick at least one division, or choose All divisions.');

    // Ticking a division clears its message; the others stay until fixed.
    await divisionBox(dialog, 'AA').check();
    await expect(dialog.getByTestId('error-divisions')).toHaveCount(0);
    await roleRadio(dialog, 'Viewer').click();
    await expect(dialog.getByTestId('error-email')).toBeVisible();
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

  test("a pending user's menu, by keyboard: Edit changes the role and divisions; the API answers the new values", async ({ page }) => {
    await signInByApi(page);
    const person = newPerson('Edited');
    await apiInviteUser(page.request, { ...person, role: 'viewer' });
    await gotoUsers(page, `?search=${person.lastName}`);
    const row = userRow(page, person.email);
    const name = `Alex ${person.lastName}`;
    const menuButton = actionsButton(row, name);

    // The menu opens with Enter on its button, arrow keys move, Enter picks.
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect(menuItems(page)).toHaveText(['Edit', 'Resend invitation', 'Sessions', 'Deactivate', 'Delete']);
    await expect(menuItems(page).first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menuItems(page).nth(1)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    // Enter picks the item that has the focus: it has moved back to Edit first.
    await expect(menuItems(page).first()).toBeFocused();
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect(dialog.getByRole('textbox', { name: 'E-mail' })).toHaveValue(person.email);
    await expect(roleRadio(dialog, 'Viewer')).toBeChecked();
    await expect(dialog.getByRole('radio', { name: 'All divisions', exact: true })).toBeChecked();
    await roleRadio(dialog, 'Admin').click();
    await dialog.getByRole('radio', { name: 'Only some divisions', exact: true }).click();
    await divisionBox(dialog, 'A').check();
    await divisionBox(dialog, 'AAA').check();
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('User updated', { exact: true })).toBeVisible();
    await expect(menuButton).toBeFocused();

    await expect(row.locator('[data-role]')).toHaveText('Admin');
    await expect(row.getByTestId('user-divisions')).toHaveText('AAA, A');
    await expect(row.locator('[data-status]')).toHaveText('Pending');
    const [listed] = await apiUsers(page.request, `?search=${person.lastName}`);
    expect(listed).toMatchObject({ email: person.email, role: 'admin', divisions: ['AAA', 'A'], status: 'pending' });
  });

  test('Resend invitation makes a new link and the earlier one stops working', async ({ page }) => {
    await signInByApi(page);
    const person = newPerson('Resent');
    const { invitation: first } = await apiInviteUser(page.request, { ...person, role: 'viewer' });
    await gotoUsers(page, `?search=${person.lastName}`);
    const row = userRow(page, person.email);

    await rowAction(page, row, `Alex ${person.lastName}`, 'Resend invitation');
    const dialog = page.getByRole('dialog', { name: 'Resend invitation' });
    await expect(dialog).toContainText(`A new invitation link for Alex ${person.lastName}. The earlier link stops working.`);
    const answer = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/invitation'));
    await dialog.getByRole('button', { name: 'Make new invitation' }).click();
    expect((await answer).status()).toBe(200);
    const panel = dialog.getByTestId('invitation-link-panel');
    await expect(panel.getByRole('heading', { name: `Invitation for ${person.email}` })).toBeFocused();
    const second = await panel.getByTestId('invitation-url').inputValue();
    expect(second).toMatch(/\/invitation#token=[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first.url);

    expect(await invitationStatus(page.request, first.url)).toBe(404);
    expect(await invitationStatus(page.request, second)).toBe(200);
    await panel.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
  });

  test('Deactivate asks first: Cancel keeps the user, Deactivate makes them inactive and the menu offers Reactivate', async ({ page }) => {
    await signInByApi(page);
    const person = newPerson('Deactivated');
    await apiInviteUser(page.request, { ...person, role: 'moderator' });
    await gotoUsers(page, `?search=${person.lastName}`);
    const row = userRow(page, person.email);
    const name = `Alex ${person.lastName}`;

    await rowAction(page, row, name, 'Deactivate');
    const dialog = page.getByRole('alertdialog', { name: `Deactivate ${name}?` });
    await expect(dialog).toContainText('They are signed out at once on every device and cannot sign in until they are reactivated.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(actionsButton(row, name)).toBeFocused();
    await expect(row.locator('[data-status]')).toHaveText('Pending');
    expect((await apiUsers(page.request, `?search=${person.lastName}`))[0]?.status).toBe('pending');

    await rowAction(page, row, name, 'Deactivate');
    await dialog.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('User deactivated', { exact: true })).toBeVisible();
    await expect(row.locator('[data-status]')).toHaveText('Inactive');
    expect((await apiUsers(page.request, `?search=${person.lastName}`))[0]?.status).toBe('inactive');

    // No link for an inactive account; Reactivate takes Deactivate's place.
    await actionsButton(row, name).click();
    await expect(menuItems(page)).toHaveText(['Edit', 'Sessions', 'Reactivate', 'Delete']);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
  });

  test('Delete asks first: Cancel keeps the user, Delete removes it and the API no longer lists it', async ({ page }) => {
    await signInByApi(page);
    const person = newPerson('Deleted');
    await apiInviteUser(page.request, { ...person, role: 'viewer' });
    await gotoUsers(page, `?search=${person.lastName}`);
    const row = userRow(page, person.email);
    const name = `Alex ${person.lastName}`;

    await rowAction(page, row, name, 'Delete');
    const dialog = page.getByRole('alertdialog', { name: 'Delete User' });
    await expect(dialog).toContainText(`Are you sure you want to delete ${name}? This action cannot be undone.`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(actionsButton(row, name)).toBeFocused();
    await expect(row).toBeVisible();
    expect(await apiUsers(page.request, `?search=${person.lastName}`)).toHaveLength(1);

    await rowAction(page, row, name, 'Delete');
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
