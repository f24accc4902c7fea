import { test } from '@playwright/test';
import { startPrivateServer, type PrivateServer } from './private-server';
import { environmentSetFlow, freshSetupFlow } from './setup-integrations-flow';

/**
 * Setting up intake from Settings → Integrations at 1280 px: on a server of its own without FORM_WEBHOOK_SECRET
 * or IMAP_* (a fresh install), and on the shared server, where both are set.
 */
let server: PrivateServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startPrivateServer({ name: 'setupdesktop', mailbox: true, mailboxInEnvironment: false, webhookSecretInEnvironment: false });
});
test.afterAll(async () => {
  await server?.stop();
});

test('a fresh install: reveal, copy and rotate the form webhook secret; fill, test and save the mailbox', async ({ browser }) => {
  test.setTimeout(120_000);
  if (!server) throw new Error('the setup server did not start');
  await freshSetupFlow(browser, server, { phone: false });
});

test('where the server sets them, the webhook secret and every mailbox field say which variable, and cannot be changed here', async ({ page }) => {
  await environmentSetFlow(page, { phone: false });
});
