import { createHmac } from 'node:crypto';
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { seriousViolations } from './axe-support';
import type { PrivateServer } from './private-server';
import { pageOverflow } from './settings-support';
import { E2E_WEBHOOK_SECRET, openSignedIn } from './support';

type Options = { phone: boolean };

async function press(locator: Locator, { phone }: Options): Promise<void> {
  if (phone) await locator.tap();
  else await locator.click();
}

/**
 * What the form webhook answers a body signed with `secret`: 401 for a secret it does not take; a body it takes
 * but whose fields are missing is 400, so no submission is recorded by the check.
 */
async function webhookAnswer(request: APIRequestContext, secret: string): Promise<number> {
  const body = JSON.stringify({ submissionId: 'setup-check' });
  const response = await request.post('/api/intake/form', {
    data: body,
    headers: { 'content-type': 'application/json', 'x-clearbase-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` },
  });
  return response.status();
}

/**
 * Settings → Integrations on a fresh install (no FORM_WEBHOOK_SECRET, no IMAP_* variables): the form webhook's
 * address and its generated secret (Reveal, Copy, Rotate after a confirmation, the old secret refused at once),
 * and the mailbox filled in, tested against the server's Dovecot (wrong password, then connected) and saved.
 * Nothing says Gmail on Settings or the dashboard; on a phone nothing scrolls sideways.
 */
export async function freshSetupFlow(browser: Browser, server: PrivateServer, options: Options): Promise<void> {
  const width = options.phone ? 390 : 1280;
  const mail = server.mailbox;
  if (!mail) throw new Error('the server was started without its Dovecot');
  const context = await browser.newContext({ baseURL: server.url });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    expect(page.viewportSize()?.width).toBe(width);
    page.on('pageerror', (error) => errors.push(error.message));
    const login = await page.request.post('/api/auth/login', { data: { password: server.sharedPassword } });
    expect(login.ok()).toBe(true);
    await page.goto('/settings?tab=integrations');
    await expect(page.getByRole('heading', { level: 1, name: 'System Settings' })).toBeVisible();

    const webhook = page.getByTestId('form-webhook');
    const secretValue = webhook.getByTestId('form-webhook-secret-value');
    const first = await test.step('the form webhook shows its address, and its secret after Reveal; Copy puts it on the clipboard', async () => {
      await expect(webhook.getByTestId('form-webhook-url')).toHaveText(`${server.url}/api/intake/form`);
      await expect(secretValue).toHaveText(/^•+$/);
      await expect(webhook.getByTestId('form-webhook-env-note')).toHaveCount(0);
      await press(webhook.getByRole('button', { name: 'Reveal' }), options);
      await expect(secretValue).not.toHaveText(/•/);
      const secret = (await secretValue.textContent()) ?? '';
      expect(secret.length).toBeGreaterThanOrEqual(32);
      await press(webhook.getByRole('button', { name: 'Copy secret' }), options);
      await expect(webhook.getByRole('button', { name: 'Copied' })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      // The secret shown is the one the webhook takes.
      expect(await webhookAnswer(page.request, secret)).toBe(400);
      expect(await webhookAnswer(page.request, 'not-the-secret-at-all')).toBe(401);
      return secret;
    });

    await test.step('Rotate asks first, then the new secret is shown and the old one is refused at once', async () => {
      const rotate = webhook.getByRole('button', { name: 'Rotate' });
      await press(rotate, options);
      const dialog = page.getByRole('alertdialog', { name: 'Replace the form webhook secret?' });
      await expect(dialog).toContainText('Update every form or script that sends to this address');
      await press(dialog.getByRole('button', { name: 'Cancel' }), options);
      await expect(dialog).toHaveCount(0);
      await expect(rotate).toBeFocused();
      expect(await webhookAnswer(page.request, first)).toBe(400);

      await press(rotate, options);
      await press(page.getByRole('alertdialog').getByRole('button', { name: 'Rotate secret' }), options);
      await expect(webhook.getByTestId('form-webhook-status')).toContainText('The old one no longer works');
      await expect(secretValue).not.toHaveText(first);
      const second = (await secretValue.textContent()) ?? '';
      expect(second.length).toBeGreaterThanOrEqual(32);
      expect(await webhookAnswer(page.request, first)).toBe(401);
      expect(await webhookAnswer(page.request, second)).toBe(400);
    });

    const mailbox = page.getByTestId('gmail-settings');
    const form = mailbox.getByTestId('mailbox-settings');
    await test.step('the mailbox is filled in and tested: a wrong password is named, the right one connects', async () => {
      await expect(mailbox).toContainText('The mailbox is not set up yet');
      await form.getByLabel('Mail server').fill(mail.host);
      await form.getByRole('combobox', { name: 'Security' }).click();
      await page.getByRole('option', { name: 'None' }).click();
      await form.getByLabel('Port').fill(String(mail.port));
      await form.getByLabel('User name').fill(mail.user);
      await form.getByLabel('Password or app password').fill('not the password');
      await expect(form.getByLabel('Folder')).toHaveValue('INBOX');
      await press(form.getByRole('button', { name: 'Test connection' }), options);
      await expect(form.getByTestId('mailbox-test-result')).toHaveAttribute('data-outcome', 'wrong_password');
      await expect(form.getByTestId('mailbox-test-result')).toContainText('refused the sign-in');

      await form.getByLabel('Password or app password').fill(mail.password);
      await press(form.getByRole('button', { name: 'Test connection' }), options);
      await expect(form.getByTestId('mailbox-test-result')).toHaveAttribute('data-outcome', 'connected');
      await expect(form.getByTestId('mailbox-test-result')).toContainText(/Connected: \d+ e-mails? in INBOX/);
    });

    await test.step('saved, the mailbox is in use at once and its password is only "set"', async () => {
      await press(form.getByRole('button', { name: 'Save mailbox' }), options);
      await expect(form.getByTestId('mailbox-saved')).toHaveText('Mailbox saved. Clearbase uses it from now on.');
      await expect(form.getByLabel('Password or app password')).toHaveValue('');
      await expect(form.getByText('Set. Leave empty to keep it while the server, port, user name and security stay the same.')).toBeVisible();
      await expect(mailbox.getByTestId('gmail-unavailable')).toHaveCount(0);
      await expect(mailbox.getByTestId('gmail-connection')).toHaveAttribute('data-state', 'connected');
      const saved = await page.request.get('/api/integrations/mailbox');
      expect(await saved.text()).not.toContain(mail.password);
    });

    await test.step('nothing says Gmail, nothing scrolls sideways, axe finds nothing serious', async () => {
      await expect(page.locator('main')).not.toContainText('Gmail');
      if (options.phone) expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      // The screen at rest: the pointer left on the button it clicked would be read in its hover colour.
      await page.mouse.move(0, 0);
      expect(await seriousViolations(page)).toEqual([]);
      // The whole tab in one window's height, so the fixed header stays at the top of the picture.
      await page.setViewportSize({ width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
      await page.screenshot({ path: test.info().outputPath(`settings-integrations-${options.phone ? 'phone' : 'desktop'}.png`) });
      await page.setViewportSize({ width, height: options.phone ? 844 : 800 });
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
      await expect(page.getByText('Mailbox Document Intake')).toBeVisible();
      await expect(page.locator('body')).not.toContainText('Gmail');
    });
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

/**
 * The shared e2e server, whose FORM_WEBHOOK_SECRET and IMAP_* variables are set: the screen says so field by
 * field, Rotate is off, the mailbox cannot be changed here, and Test connection still tries the mailbox in force.
 */
export async function environmentSetFlow(page: Page, options: Options): Promise<void> {
  await openSignedIn(page, '/settings?tab=integrations');
  const webhook = page.getByTestId('form-webhook');
  await expect(webhook.getByTestId('form-webhook-env-note')).toHaveText('Set on the server by FORM_WEBHOOK_SECRET; change it there.');
  await expect(webhook.getByRole('button', { name: 'Rotate' })).toBeDisabled();
  await press(webhook.getByRole('button', { name: 'Reveal' }), options);
  await expect(webhook.getByTestId('form-webhook-secret-value')).toHaveText(E2E_WEBHOOK_SECRET);

  const form = page.getByTestId('mailbox-settings');
  await expect(form.getByTestId('mailbox-env-note')).toContainText('set on the server by the IMAP_* variables');
  for (const [field, label, variable] of [
    ['host', 'Mail server', 'IMAP_HOST'],
    ['port', 'Port', 'IMAP_PORT'],
    ['security', 'Security', 'IMAP_TLS'],
    ['user', 'User name', 'IMAP_USER'],
    ['password', 'Password or app password', 'IMAP_PASSWORD'],
    ['folder', 'Folder', 'IMAP_MAILBOX'],
  ] as const) {
    await expect(form.getByTestId(`env-note-${field}`)).toHaveText(`Set on the server by ${variable}`);
    await expect(form.getByLabel(label, { exact: true })).toBeDisabled();
  }
  await expect(form.getByRole('button', { name: 'Save mailbox' })).toHaveCount(0);
  await press(form.getByRole('button', { name: 'Test connection' }), options);
  await expect(form.getByTestId('mailbox-test-result')).toHaveAttribute('data-outcome', 'connected');
  await expect(page.locator('main')).not.toContainText('Gmail');
}
