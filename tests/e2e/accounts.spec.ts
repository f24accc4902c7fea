import { test } from '@playwright/test';
import { accountsFlow } from './accounts-flow';
import { startPrivateServer, type PrivateServer } from './private-server';

/**
 * Personal accounts from invitation to deactivation, at 1280 px, on a server of this spec's own (it changes the
 * sign-in mode, which every other spec relies on): the steps are in tests/e2e/accounts-flow.ts.
 */
let server: PrivateServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startPrivateServer({ name: 'accounts' });
});
test.afterAll(async () => {
  await server?.stop();
});

test('an admin invites a coordinator of AA, who sets a password, sees AA alone, approves, and is signed out at once when deactivated', async ({ browser }) => {
  test.setTimeout(120_000);
  if (!server) throw new Error('the accounts server did not start');
  await accountsFlow(browser, server, { phone: false });
});
