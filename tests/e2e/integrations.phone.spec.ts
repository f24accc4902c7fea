import { test } from '@playwright/test';
import { integrationsFlow } from './integrations-flow';
import { startPrivateServer, type PrivateServer } from './private-server';

/**
 * Settings → Integrations on a 390 px phone: the same steps as integrations.spec.ts, tapped, with the deliveries
 * log as stacked rows and nothing scrolling sideways.
 */
let server: PrivateServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startPrivateServer({ name: 'integrationsphone' });
});
test.afterAll(async () => {
  await server?.stop();
});

test('on a phone: an admin opens Tally, saves a generated secret, maps its questions and reads its deliveries', async ({ browser }) => {
  test.setTimeout(120_000);
  if (!server) throw new Error('the integrations server did not start');
  await integrationsFlow(browser, server, { phone: true });
});
