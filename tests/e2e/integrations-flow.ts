import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { ZIntegrations, type TIntegration } from '../../src/contract';
import { seriousViolations } from './axe-support';
import type { PrivateServer } from './private-server';
import { pageOverflow } from './settings-support';

type Options = { phone: boolean };

/** The questions of the Tally form's last delivery, as a delivery would have noted them. */
const QUESTIONS = [
  { key: 'question_first', label: 'First name' },
  { key: 'question_last', label: 'Last name' },
  { key: 'question_dob', label: 'Date of birth' },
  { key: 'question_waiver', label: 'Signed waiver' },
];
const REFUSAL = 'The signature does not match the secret set for Tally.';

async function press(locator: Locator, { phone }: Options): Promise<void> {
  if (phone) await locator.tap();
  else await locator.click();
}

async function integration(page: Page, provider: string): Promise<TIntegration> {
  const response = await page.request.get('/api/integrations');
  expect(response.status()).toBe(200);
  const found = ZIntegrations.parse(await response.json()).integrations.find((entry) => entry.provider === provider);
  if (!found) throw new Error(`${provider} is not listed`);
  return found;
}

/**
 * What Tally's deliveries would have left: the questions of its last delivery, one delivery stored for a
 * player of the demo data (its body kept) and one refused (its body not kept), written into the server's
 * database. Answers the player's name as the log shows it.
 */
async function writeTallyDeliveries(server: PrivateServer): Promise<string> {
  const { db } = server;
  const players = await db.query<{ id: string; first_name: string; last_name: string }>('select id, first_name, last_name from players order by id limit 1');
  const player = players.rows[0];
  if (!player) throw new Error('the demo data has no player');
  await db.query(`insert into settings (key, value) values ('integration.tally', $1::jsonb)`, [JSON.stringify({ lastQuestions: QUESTIONS })]);
  await db.query(
    `insert into intake_deliveries (provider, received_at, outcome, status, player_id, documents, body_key, content_type)
     values ('tally', now() - interval '2 hours', 'stored', 202, $1, 2, 'e2e/kept-body', 'application/json')`,
    [player.id],
  );
  await db.query(
    `insert into intake_deliveries (provider, received_at, outcome, status, error)
     values ('tally', now() - interval '1 hour', 'refused', 401, $1)`,
    [REFUSAL],
  );
  return `${player.first_name} ${player.last_name}`;
}

/**
 * Settings → Integrations as an admin: Tally's row says it is receiving, opens to its address, a generated
 * secret of its own is saved (and shown only by its last four characters), a question is mapped (and the same
 * question for a second field is refused), and its deliveries are listed with Replay only where the body is
 * kept. On a phone the log is stacked rows, and nothing scrolls sideways.
 */
export async function integrationsFlow(browser: Browser, server: PrivateServer, options: Options): Promise<void> {
  const width = options.phone ? 390 : 1280;
  const playerName = await writeTallyDeliveries(server);
  const context = await browser.newContext({ baseURL: server.url });
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    expect(page.viewportSize()?.width).toBe(width);
    page.on('pageerror', (error) => errors.push(error.message));
    const login = await page.request.post('/api/auth/login', { data: { password: server.sharedPassword } });
    expect(login.ok()).toBe(true);

    await page.goto('/settings?tab=integrations');
    await expect(page.getByRole('heading', { level: 1, name: 'System Settings' })).toBeVisible();
    const card = page.getByTestId('form-builders');
    const tally = card.getByTestId('integration-tally');

    await test.step('the list says which builders receive deliveries', async () => {
      await expect(card.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) })).toHaveCount(8);
      await expect(tally.getByTestId('integration-state')).toHaveText('Receiving');
      await expect(tally.getByTestId('integration-last-delivery')).toContainText('Last delivery');
      await expect(card.getByTestId('integration-google').getByTestId('integration-state')).toHaveText('Ready');
      await expect(card.getByTestId('integration-google').getByTestId('integration-last-delivery')).toHaveText('No deliveries yet');
    });

    const toggle = tally.getByRole('button', { name: /^Tally/ });
    await test.step('opening Tally shows the address to paste into it', async () => {
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await press(toggle, options);
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const panel = page.getByRole('region', { name: /^Tally/ });
      await expect(panel.getByTestId('webhook-url')).toHaveText(`${server.url}/api/intake/tally`);
      await expect(panel.getByRole('button', { name: 'Copy address' })).toBeVisible();
      await expect(panel.getByTestId('webhook-address')).toContainText('signing secret');
    });

    const secret = tally.getByTestId('secret-section');
    const secretSaved = await test.step('a generated secret of its own is saved, and shown only by its last four characters', async () => {
      await expect(secret.getByTestId('secret-section-state')).toHaveText('Uses the default secret (FORM_WEBHOOK_SECRET)');
      await press(secret.getByRole('button', { name: 'Set own secret' }), options);
      const input = secret.getByLabel('New secret for Tally');
      await input.fill('too short');
      await press(secret.getByRole('button', { name: 'Save secret' }), options);
      await expect(secret.getByText('The secret must be at least 16 characters')).toBeVisible();
      await expect(input).toHaveAttribute('aria-invalid', 'true');

      await press(secret.getByRole('button', { name: 'Generate' }), options);
      const generated = await input.inputValue();
      expect(generated).toMatch(/^[A-Za-z0-9]{32}$/);
      await expect(secret.getByTestId('secret-section-status')).toContainText('A new secret was generated');
      await expect(secret.getByRole('button', { name: 'Copy secret' })).toBeEnabled();
      const saved = page.waitForResponse((response) => response.request().method() === 'PATCH' && new URL(response.url()).pathname === '/api/integrations/tally');
      await press(secret.getByRole('button', { name: 'Save secret' }), options);
      const answer = await saved;
      expect(answer.status()).toBe(200);
      expect(await answer.text()).not.toContain(generated);
      await expect(secret.getByTestId('secret-section-status')).toHaveText('Secret saved.');
      await expect(secret.getByTestId('secret-section-state')).toHaveText(`Own secret ••••${generated.slice(-4)}`);
      await expect(secret.getByRole('button', { name: 'Replace secret' })).toBeVisible();
      await expect(secret.getByRole('button', { name: 'Remove secret' })).toBeVisible();
      return generated;
    });
    expect(await integration(page, 'tally')).toMatchObject({ secretSource: 'own', secretHint: `••••${secretSaved.slice(-4)}` });
    // Tally needs no download key: it is not offered.
    await expect(tally.getByTestId('download-key-section')).toHaveCount(0);

    const mapping = tally.getByTestId('mapping-section');
    await test.step('a question of the last delivery is mapped to the player’s first name', async () => {
      const choose = async (field: string, option: string) => {
        await press(mapping.getByRole('combobox', { name: field, exact: true }), options);
        await press(page.getByRole('option', { name: option }), options);
      };
      await expect(mapping.getByRole('combobox', { name: 'Player first name', exact: true })).toHaveText('Find by label: “Player first name”');
      await choose('Player first name', 'First name (question_first)');
      await choose('Player last name', 'First name (question_first)');
      await press(mapping.getByRole('button', { name: 'Save mapping' }), options);
      await expect(mapping.getByTestId('mapping-error')).toContainText('One question is chosen for two fields');
      await expect(mapping.getByTestId('mapping-playerLastName')).toContainText('The same question is chosen for “Player first name”');

      await choose('Player last name', 'Last name (question_last)');
      await choose('Liability waiver', 'Signed waiver (question_waiver)');
      await press(mapping.getByRole('button', { name: 'Save mapping' }), options);
      await expect(mapping.getByTestId('mapping-status')).toHaveText('Question mapping saved.');
    });
    expect((await integration(page, 'tally')).mapping).toEqual({ playerFirstName: 'question_first', playerLastName: 'question_last', waiver: 'question_waiver' });

    const log = tally.getByTestId('deliveries-log');
    await test.step('the deliveries are listed newest first, with Replay only where the body is kept', async () => {
      const rows = log.getByTestId('delivery-row');
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(0)).toHaveAttribute('data-outcome', 'refused');
      await expect(rows.nth(0)).toContainText('Refused');
      await expect(rows.nth(0)).toContainText(REFUSAL);
      await expect(rows.nth(0).getByTestId('delivery-replay')).toBeDisabled();
      await expect(rows.nth(1)).toHaveAttribute('data-outcome', 'stored');
      await expect(rows.nth(1)).toContainText('Stored');
      await expect(rows.nth(1)).toContainText(playerName);
      await expect(rows.nth(1).getByTestId('delivery-replay')).toBeEnabled();
      // A table on a wide screen; stacked rows on a phone.
      await expect(log.locator('table')).toHaveCount(options.phone ? 0 : 1);
    });

    await test.step('it fits the screen and has no serious accessibility problem', async () => {
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page, '[data-testid="form-builders"]')).toEqual([]);
      await page.screenshot({ path: test.info().outputPath(`integrations-${width}.png`), fullPage: true });
    });

    await test.step('the own secret is removed after asking, and the default secret is in force again', async () => {
      await press(secret.getByRole('button', { name: 'Remove secret' }), options);
      const dialog = page.getByRole('alertdialog', { name: 'Remove Tally’s own secret?' });
      await expect(dialog).toBeVisible();
      await press(dialog.getByRole('button', { name: 'Remove', exact: true }), options);
      await expect(secret.getByTestId('secret-section-status')).toHaveText('Secret removed.');
      await expect(secret.getByTestId('secret-section-state')).toHaveText('Uses the default secret (FORM_WEBHOOK_SECRET)');
    });
    expect(await integration(page, 'tally')).toMatchObject({ secretSource: 'default', secretHint: null });
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}
