import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { ZSeasons } from '../../src/contract';
import { buildMultipart, makePdf } from '../support/multipart';
import { startPrivateServer, type PrivateServer } from './private-server';

/**
 * A new installation (CLEARBASE_DEMO=false: no season, no player), on a server of this spec's own: after sign-in
 * the first-run step asks for the first season; once it is created the app opens, and a family's form is stored
 * at once and shows on the Players screen.
 */
let server: PrivateServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startPrivateServer({ name: 'firstrun', demo: false });
});
test.afterAll(async () => {
  await server?.stop();
});

/** Posts a signed form submission as the form provider does; answers the HTTP status. */
async function submitForm(target: PrivateServer, division: string): Promise<number> {
  const { body, contentType } = buildMultipart([
    { name: 'submissionId', value: `e2e-first-run-${division}-${Date.now()}` },
    { name: 'season', value: '2026' },
    { name: 'division', value: division },
    { name: 'playerFirstName', value: 'Mae' },
    { name: 'playerLastName', value: 'Jemison' },
    { name: 'playerBirthDate', value: '2015-10-17' },
    { name: 'birth_certificate', filename: 'mae birth certificate.pdf', content: makePdf(`first run ${division}`) },
  ]);
  const signature = `sha256=${createHmac('sha256', target.webhookSecret).update(body).digest('hex')}`;
  const response = await fetch(`${target.url}/api/intake/form`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': contentType, 'x-clearbase-signature': signature },
  });
  return response.status;
}

test('a new installation asks for its first season after sign-in, then opens, and a family’s form is stored and shows up', async ({ browser }) => {
  test.setTimeout(120_000);
  if (!server) throw new Error('the first-run server did not start');
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();

  await page.goto('/');
  await page.getByPlaceholder('Enter system password').fill(server.sharedPassword);
  await page.getByRole('button', { name: 'Access System' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Create your first season' })).toBeVisible();
  await expect(page).toHaveTitle(/Create your first season/);
  // No screen of the app shows meanwhile: they all need a season.
  await expect(page.getByRole('navigation')).toHaveCount(0);
  expect(await submitForm(server, 'AA')).toBe(400);

  // The name and dates follow the kind and year until typed into.
  await page.getByRole('radio', { name: 'Fall Ball' }).click();
  await page.getByLabel('Year').fill('2026');
  await expect(page.getByLabel('Name')).toHaveValue('Fall Ball 2026');
  await expect(page.getByLabel('Starts on')).toHaveValue('2026-08-15');
  await expect(page.getByLabel('Ends on')).toHaveValue('2026-11-30');
  await expect(page.getByLabel('Registration deadline')).toHaveValue('2026-09-15');
  await page.getByRole('checkbox', { name: 'Peewee' }).click();

  // A deadline after the end is caught before sending, next to its field, and focused.
  await page.getByLabel('Registration deadline').fill('2026-12-15');
  await page.getByRole('button', { name: 'Create season' }).click();
  await expect(page.getByTestId('error-registrationDeadline')).toHaveText('Registration deadline must be on or before the end date (2026-11-30)');
  await expect(page.getByLabel('Registration deadline')).toBeFocused();
  await page.getByLabel('Registration deadline').fill('2026-09-30');
  await page.getByRole('button', { name: 'Create season' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const seasons = ZSeasons.parse(await (await page.request.get('/api/seasons')).json()).seasons;
  expect(seasons).toEqual([
    {
      id: 'fall-2026',
      name: 'Fall Ball 2026',
      kind: 'Fall Ball',
      year: 2026,
      startsOn: '2026-08-15',
      endsOn: '2026-11-30',
      registrationDeadline: '2026-09-30',
      divisions: ['AAA', 'AA', 'A'],
      isCurrent: true,
      closed: false,
      closedAt: null,
    },
  ]);

  // Intake works at once: a division the season offers is stored, one it does not is refused.
  expect(await submitForm(server, 'Peewee')).toBe(400);
  expect(await submitForm(server, 'AA')).toBe(202);
  await page.getByRole('navigation').getByRole('link', { name: 'Players' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Players' })).toBeVisible();
  await expect(page.getByTestId('player-row').filter({ hasText: 'Jemison' })).toHaveCount(1);

  await context.close();
});
