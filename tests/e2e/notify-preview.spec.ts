import { test } from '@playwright/test';
import { noMailServerWarning, previewAndHistory, rejectDialogPreview } from './notify-preview-flow';
import { startPrivateServer, type PrivateServer } from './private-server';

/**
 * Notifications that do what they say, at 1280 px: the message a family will get before it is sent, its whole
 * text in History, the reject dialog's e-mail preview, and the warning when no mail server is set up (on a
 * server of this spec's own: the shared one sends through its SMTP_URL).
 */
let server: PrivateServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startPrivateServer({ name: 'notifypreview', demo: false });
});
test.afterAll(async () => {
  await server?.stop();
});

test('the Send tab previews one family’s message, and History keeps its whole text', async ({ page }) => {
  await previewAndHistory(page, { phone: false });
});

test('the reject dialog shows the guardian’s e-mail before it is sent; Esc gives focus back to Reject', async ({ page }) => {
  await rejectDialogPreview(page, { phone: false });
});

test('with no mail server set up, Send warns and names where to set one, sending nothing', async ({ browser }) => {
  test.setTimeout(60_000);
  if (!server) throw new Error('the private server did not start');
  await noMailServerWarning(browser, server, { phone: false });
});
