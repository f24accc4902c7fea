import { test } from '@playwright/test';
import { accountsFlow } from './accounts-flow';
import { startPrivateServer, type PrivateServer } from './private-server';

/**
 * Personal accounts from invitation to deactivation on a 390 px phone, both people tapping, every screen of the
 * flow without sideways scrolling; a server of this spec's own, the steps in tests/e2e/accounts-flow.ts.
 */
let server: PrivateServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startPrivateServer({ name: 'accountsphone' });
});
test.afterAll(async () => {
  await server?.stop();
});

test('on a phone: an admin invites a coordinator of AA, who sets a password, sees AA alone, approves, and is signed out at once when deactivated', async ({ browser }) => {
  test.setTimeout(120_000);
  if (!server) throw new Error('the accounts server did not start');
  await accountsFlow(browser, server, { phone: true });
});
