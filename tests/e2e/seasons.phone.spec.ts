import { expect, test, type Page } from '@playwright/test';
import { ZSeasons, type TCreateSeason } from '../../src/contract';
import { startPrivateServer, type PrivateServer } from './private-server';
import { pageOverflow } from './settings-support';

/**
 * Settings → Seasons on a phone (390 px), on a server of this spec's own with no demo data (it creates seasons,
 * changes the current one and closes one, which every other spec's figures rely on): it fits the width, in the
 * list and in its dialogs, and each action does what it says.
 */
let server: PrivateServer | undefined;

const FALL_2026: TCreateSeason = {
  name: 'Fall Ball 2026',
  kind: 'Fall Ball',
  year: 2026,
  startsOn: '2026-08-15',
  endsOn: '2026-11-30',
  registrationDeadline: '2026-09-15',
  divisions: ['AAA', 'AA', 'A', 'Peewee'],
};

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startPrivateServer({ name: 'seasons', demo: false });
});
test.afterAll(async () => {
  await server?.stop();
});

/** Opens Settings → Seasons (the page is signed in already). */
async function openSeasons(page: Page, target: PrivateServer): Promise<void> {
  await page.goto(`${target.url}/settings?tab=seasons`);
  await expect(page.getByRole('heading', { level: 1, name: 'System Settings' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Seasons' })).toHaveAttribute('aria-selected', 'true');
}

const seasonsOf = async (page: Page, target: PrivateServer) => ZSeasons.parse(await (await page.request.get(`${target.url}/api/seasons`)).json()).seasons;

test('Seasons fits 390 px, and a new season, Make current, Close season, Reopen and Edit work from it', async ({ page }) => {
  test.setTimeout(120_000);
  if (!server) throw new Error('the seasons server did not start');
  const login = await page.request.post(`${server.url}/api/auth/login`, { data: { password: server.sharedPassword } });
  expect(login.ok(), await login.text()).toBe(true);
  expect((await page.request.post(`${server.url}/api/seasons`, { data: FALL_2026 })).status()).toBe(201);
  await openSeasons(page, server);

  const fall = page.getByTestId('season-fall-2026');
  await expect(fall.getByRole('heading', { name: 'Fall Ball 2026' })).toBeVisible();
  await expect(fall.getByTestId('season-current-badge')).toHaveText('Current');
  await expect(fall.getByTestId('season-divisions-list')).toHaveText('AAAAAAPeewee');
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

  // New season: the next one is offered (Spring Ball 2027), its fields fit, and it is created not current.
  await page.getByRole('button', { name: 'New season' }).click();
  const dialog = page.getByRole('dialog', { name: 'New season' });
  await expect(dialog.getByLabel('Name')).toHaveValue('Spring Ball 2027');
  await expect(dialog.getByLabel('Starts on')).toHaveValue('2027-03-01');
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  await dialog.getByRole('checkbox', { name: 'Peewee' }).click();
  await dialog.getByRole('button', { name: 'Create season' }).click();
  await expect(dialog).toBeHidden();
  const spring = page.getByTestId('season-spring-2027');
  await expect(spring.getByRole('heading', { name: 'Spring Ball 2027' })).toBeVisible();
  await expect(spring.getByTestId('season-current-badge')).toHaveCount(0);

  // Make current moves the badge.
  await spring.getByRole('button', { name: 'Make current Spring Ball 2027' }).click();
  await expect(spring.getByTestId('season-current-badge')).toBeVisible();
  await expect(fall.getByTestId('season-current-badge')).toHaveCount(0);

  // Close season asks first, then shows Closed; Reopen takes it away.
  await fall.getByRole('button', { name: 'Close season Fall Ball 2026' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Close Fall Ball 2026?' });
  await expect(confirm).toContainText('The Fall Ball 2026 season is closed to new registrations.');
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  await confirm.getByRole('button', { name: 'Close season' }).click();
  await expect(fall.getByTestId('season-closed-badge')).toHaveText('Closed');
  expect((await seasonsOf(page, server)).find((s) => s.id === 'fall-2026')?.closed).toBe(true);
  await fall.getByRole('button', { name: 'Reopen Fall Ball 2026' }).click();
  await expect(fall.getByTestId('season-closed-badge')).toHaveCount(0);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

  // Edit: the server's refusal lands next to its field; a valid change is saved.
  await fall.getByRole('button', { name: 'Edit Fall Ball 2026' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit season' });
  await edit.getByLabel('Name').fill('Spring Ball 2027');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByTestId('error-name')).toHaveText('Another season is already called Spring Ball 2027. Choose another name.');
  await edit.getByLabel('Name').fill('Fall Ball 2026 (North)');
  await edit.getByRole('checkbox', { name: 'Peewee' }).click();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByTestId('season-fall-2026').getByRole('heading', { name: 'Fall Ball 2026 (North)' })).toBeVisible();
  expect((await seasonsOf(page, server)).find((s) => s.id === 'fall-2026')).toMatchObject({ name: 'Fall Ball 2026 (North)', divisions: ['AAA', 'AA', 'A'] });
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
});
