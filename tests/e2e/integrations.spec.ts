import { test } from '@playwright/test';
import { integrationsFlow } from './integrations-flow';
import { startPrivateServer, type PrivateServer } from './private-server';

/**
 * Settings → Integrations at 1280 px: Tally's secret, question mapping and deliveries log, on a server of this
 * spec's own whose database holds the deliveries (the steps are in tests/e2e/integrations-flow.ts).
 */
let server: PrivateServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startPrivateServer({ name: 'integrations' });
});
test.afterAll(async () => {
  await server?.stop();
});

test('an admin opens Tally, saves a generated secret, maps its questions and reads its deliveries', async ({ browser }) => {
  test.setTimeout(120_000);
  if (!server) throw new Error('the integrations server did not start');
  await integrationsFlow(browser, server, { phone: false });
});
