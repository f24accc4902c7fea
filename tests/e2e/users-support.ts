import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ZUserCreated, ZUserList, type TDivision, type TUser, type TUserCreated } from '../../src/contract';
import { uniqueSurname } from './players-support';
import { signInByApi } from './support';

/**
 * Helpers for the User Management specs (users.spec.ts, users.phone.spec.ts, accessibility.spec.ts) and the
 * accounts flow (accounts-flow.ts). The e2e server is shared by every spec: tests invite users under names of
 * their own and read the rest from the screen. Signed in with the shared password, the page acts as an admin:
 * every row has its full actions menu.
 */

export async function openUsers(page: Page, query = ''): Promise<void> {
  await signInByApi(page);
  await gotoUsers(page, query);
}

/** The screen, for a page already signed in. */
export async function gotoUsers(page: Page, query = ''): Promise<void> {
  await page.goto(`/users${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'User Management' })).toBeVisible();
  await waitForUsers(page);
}

/** The list shows the answer to the current filters (not the previous list kept while the next loads). */
export async function waitForUsers(page: Page): Promise<void> {
  await expect(page.getByTestId('users-results')).toHaveAttribute('aria-busy', 'false');
}

export const userRows = (scope: Page | Locator): Locator => scope.getByTestId('user-row');
export const userRow = (page: Page, email: string): Locator => userRows(page).filter({ has: page.getByTestId('user-email').getByText(email, { exact: true }) });

/** The e-mails the list shows, in order. */
export const shownEmails = (page: Page): Promise<string[]> => page.getByTestId('user-email').allTextContents();

/** A person no other test or run has made: a unique last name and the e-mail built from it. */
export function newPerson(prefix: string): { firstName: string; lastName: string; email: string } {
  const lastName = uniqueSurname(prefix);
  return { firstName: 'Alex', lastName, email: `alex.${lastName.toLowerCase()}@example.org` };
}

/** GET /api/users as the signed-in page (its session cookie). */
export async function apiUsers(request: APIRequestContext, query = ''): Promise<TUser[]> {
  const response = await request.get(`/api/users${query}`);
  expect(response.status()).toBe(200);
  return ZUserList.parse(await response.json()).users;
}

/** POST /api/users as the signed-in page: invites a person, who is pending until they choose a password. */
export async function apiInviteUser(
  request: APIRequestContext,
  user: { email: string; firstName: string; lastName: string; role: TUser['role']; divisions?: TDivision[] },
): Promise<TUserCreated> {
  const response = await request.post('/api/users', { data: user });
  expect(response.status(), await response.text()).toBe(201);
  return ZUserCreated.parse(await response.json());
}

/** Picks an option of a labelled Radix select. */
export async function chooseOption(page: Page, scope: Page | Locator, label: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

export type RoleLabel = 'Admin' | 'Moderator' | 'Viewer';

/** The Invite or Edit form's role: one of three radio cards. */
export const roleRadio = (dialog: Locator, role: RoleLabel): Locator => dialog.getByRole('radio', { name: role, exact: true });

/** The division checkboxes the form shows once 'Only some divisions' is picked. */
export const divisionBox = (dialog: Locator, division: TDivision): Locator =>
  dialog.getByRole('group', { name: 'Divisions to include' }).getByRole('checkbox', { name: division, exact: true });

/** Sets the form's divisions: 'all', or 'Only some divisions' with exactly these ticked. */
export async function chooseDivisions(dialog: Locator, divisions: 'all' | readonly TDivision[]): Promise<void> {
  if (divisions === 'all') {
    await dialog.getByRole('radio', { name: 'All divisions', exact: true }).click();
    return;
  }
  await dialog.getByRole('radio', { name: 'Only some divisions', exact: true }).click();
  for (const division of ['AAA', 'AA', 'A', 'TEST', 'Peewee'] as const) await divisionBox(dialog, division).setChecked(divisions.includes(division));
}

/** Opens Invite User and fills what is given; the dialog is returned unsubmitted. */
export async function fillInviteUser(
  page: Page,
  user: { email?: string; firstName?: string; lastName?: string; role?: RoleLabel; divisions?: 'all' | readonly TDivision[] },
): Promise<Locator> {
  await page.getByRole('button', { name: 'Invite User' }).click();
  // By its test id: the dialog's name changes to 'Invitation ready' once the link is made.
  const dialog = page.getByTestId('invite-user-dialog');
  await expect(dialog).toHaveAccessibleName('Invite User');
  if (user.email !== undefined) await dialog.getByRole('textbox', { name: 'E-mail' }).fill(user.email);
  if (user.firstName !== undefined) await dialog.getByRole('textbox', { name: 'First name' }).fill(user.firstName);
  if (user.lastName !== undefined) await dialog.getByRole('textbox', { name: 'Last name' }).fill(user.lastName);
  if (user.role !== undefined) await roleRadio(dialog, user.role).click();
  if (user.divisions !== undefined) await chooseDivisions(dialog, user.divisions);
  return dialog;
}

/**
 * Sends the filled Invite User form and waits for the link panel: answers what the server said (the link, and
 * whether it was e-mailed) and the panel, which must show exactly that.
 */
export async function sendInvitation(page: Page, dialog: Locator): Promise<{ created: TUserCreated; panel: Locator }> {
  const answer = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/users');
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  const response = await answer;
  expect(response.status()).toBe(201);
  const created = ZUserCreated.parse(await response.json());
  const panel = dialog.getByTestId('invitation-link-panel');
  await expect(dialog).toHaveAccessibleName('Invitation ready');
  await expect(panel.getByTestId('invitation-url')).toHaveValue(created.invitation.url);
  return { created, panel };
}

/** A row's actions menu button ('Actions for First Last'). */
export const actionsButton = (row: Locator, name: string): Locator => row.getByRole('button', { name: `Actions for ${name}`, exact: true });

/** The items of the open row menu, in order. */
export const menuItems = (page: Page): Locator => page.getByRole('menu').getByRole('menuitem');

/** Opens a row's actions menu and picks `action` (Edit, Resend invitation, Sessions, Deactivate, Delete...). */
export async function rowAction(page: Page, row: Locator, name: string, action: string): Promise<void> {
  await actionsButton(row, name).click();
  await page.getByRole('menu').getByRole('menuitem', { name: action, exact: true }).click();
}

/** The token of an invitation link (after #token=). */
export const tokenOf = (url: string): string => new URLSearchParams(new URL(url).hash.slice(1)).get('token') ?? '';

/** POST /api/auth/invitation/status (no session needed): 200 while a link works, 404 once it does not. */
export async function invitationStatus(request: APIRequestContext, url: string): Promise<number> {
  const response = await request.post('/api/auth/invitation/status', { data: { token: tokenOf(url) } });
  return response.status();
}

/** The address bar's query parameter, once the debounced search (or a filter) has written it. */
export async function expectParam(page: Page, name: string, value: string | null): Promise<void> {
  await expect.poll(() => new URL(page.url()).searchParams.get(name)).toBe(value);
}

/**
 * Collects console errors for the afterEach check, except Chromium's own line for a response a test
 * provokes on purpose (the 409 of a taken e-mail): `allow(409)` before provoking it.
 */
export function watchConsole(page: Page, errors: string[]): { allow: (status: number) => void } {
  const allowed: RegExp[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && !allowed.some((re) => re.test(text))) errors.push(text);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { allow: (status) => allowed.push(new RegExp(`^Failed to load resource: the server responded with a status of ${status}\\b`)) };
}
