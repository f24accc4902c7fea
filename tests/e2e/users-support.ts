import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ZUserList, ZUserResponse, type TUser } from '../../src/contract';
import { uniqueSurname } from './players-support';
import { signInByApi } from './support';

/**
 * Helpers for the User Management specs (users.spec.ts, users.phone.spec.ts, accessibility.spec.ts). The e2e
 * server is shared by every spec: tests add users under names of their own and read the rest from the screen.
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

export async function apiCreateUser(
  request: APIRequestContext,
  user: { email: string; firstName: string; lastName: string; role: TUser['role']; status?: TUser['status'] },
): Promise<TUser> {
  const response = await request.post('/api/users', { data: user });
  expect(response.status()).toBe(201);
  return ZUserResponse.parse(await response.json()).user;
}

/** Picks an option of a labelled Radix select. */
export async function chooseOption(page: Page, scope: Page | Locator, label: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Opens Add User and fills what is given; the dialog is returned unsubmitted. */
export async function fillAddUser(
  page: Page,
  user: { email?: string; firstName?: string; lastName?: string; role?: 'Admin' | 'Moderator' | 'Viewer' },
): Promise<Locator> {
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await expect(dialog).toBeVisible();
  if (user.email !== undefined) await dialog.getByRole('textbox', { name: 'E-mail' }).fill(user.email);
  if (user.firstName !== undefined) await dialog.getByRole('textbox', { name: 'First name' }).fill(user.firstName);
  if (user.lastName !== undefined) await dialog.getByRole('textbox', { name: 'Last name' }).fill(user.lastName);
  if (user.role !== undefined) await chooseOption(page, dialog, 'Role', user.role);
  return dialog;
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
