import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ZDocument, ZDocumentList, ZNotificationHistory, ZQuickActions, ZRecipientPreview, ZNotificationTemplates } from '../../src/contract';
import { choose, openNotifications, toast } from './notifications-support';
import { openSignedIn } from './support';
import type { PrivateServer } from './private-server';

/**
 * The steps of notify-preview.spec.ts (1280 px) and notify-preview.phone.spec.ts (390 px): the message a family
 * will get is shown before it is sent, History keeps its whole text, the reject dialog shows the guardian's
 * e-mail, and a send with no mail server set up is stopped with a warning that names where to set one.
 */
type Size = { phone: boolean };

/** What the viewport shows (the screen's header is sticky, so a full-page picture would draw it mid-page). */
const shot = (page: Page, name: string, size: Size) => page.screenshot({ path: test.info().outputPath(`${name}-${size.phone ? 'phone' : 'desktop'}.png`) });

/** The quick action fills the form in; the preview names the first family and shows their message; a custom message to that family is sent and read back whole from History. */
export async function previewAndHistory(page: Page, size: Size): Promise<void> {
  await openNotifications(page);
  const counts = ZQuickActions.parse(await (await page.request.get('/api/notifications/quick-actions')).json());
  const templates = ZNotificationTemplates.parse(await (await page.request.get('/api/notifications/templates')).json()).templates;
  const reminder = templates.find((t) => t.name === 'Missing Documents Reminder');
  if (!reminder) throw new Error('no Missing Documents Reminder template');

  // Templates only an automatic message fills are not offered by hand.
  await page.getByRole('combobox', { name: 'Template' }).click();
  await expect(page.getByRole('option', { name: 'Missing Documents Reminder', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'File Not Accepted' })).toHaveCount(0);
  await expect(page.getByRole('option', { name: 'Document Rejected' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await page.getByTestId('quick-incomplete').click();
  await expect(page.getByTestId('recipient-count')).toHaveText(String(counts.missingDocuments.withEmail));
  const expected = ZRecipientPreview.parse(
    await (await page.request.post('/api/notifications/preview', { data: { templateId: reminder.id, recipients: 'missing_documents' } })).json(),
  ).message;
  if (!expected) throw new Error('nobody is missing a document in the demo season');
  const playerName = expected.audience.replace(/^the family of /, '');
  expect(playerName).not.toBe(expected.audience);
  const preview = page.getByTestId('message-preview');
  await expect(preview.getByTestId('message-preview-audience')).toHaveText(`Preview for the family of ${playerName}`);
  await expect(preview.getByTestId('message-preview-subject')).toHaveText(expected.subject);
  await expect(preview.getByTestId('message-preview-body')).toContainText(`missing these documents for ${playerName}`);
  await expect(preview.getByTestId('message-preview-body')).not.toContainText('{{');
  await preview.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await shot(page, 'notify-preview-send', size);

  // A custom message to that family alone: the preview and the sent text are theirs.
  const subject = `Preview check ${randomUUID().slice(0, 8)}`;
  await choose(page, 'Template', 'Custom Message');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill('Hello {{guardianName}},\n\nThis is about {{playerName}}.\nThe last line is kept too.');
  await choose(page, 'Recipients', 'Custom List');
  await page.getByLabel('E-mail addresses').fill(expected.to);
  await expect(preview.getByTestId('message-preview-body')).toContainText(`This is about ${playerName}.`);
  await expect(preview.getByTestId('message-preview-audience')).toHaveText(`Preview for the family of ${playerName}`);
  const shownBody = (await preview.getByTestId('message-preview-body').textContent()) ?? '';
  await page.getByTestId('send-button').click();
  await expect(toast(page, 'Notifications Sent')).toBeVisible();
  await page.getByRole('button', { name: 'Close notification' }).click();
  await expect(toast(page, 'Notifications Sent')).toHaveCount(0);

  const stored = ZNotificationHistory.parse(await (await page.request.get('/api/notifications/history?pageSize=100')).json()).items.find((item) => item.subject === subject);
  expect(stored?.body).toBe(shownBody);

  await page.getByRole('tab', { name: 'History' }).click();
  const open = page.getByTestId('history-row').filter({ hasText: subject }).getByTestId('history-open');
  await open.click();
  const dialog = page.getByTestId('history-message-dialog');
  await expect(dialog.getByRole('heading', { name: subject })).toBeVisible();
  await expect(dialog.getByTestId('history-message-body')).toHaveText(shownBody);
  await expect(dialog.getByTestId('history-message-body')).toContainText('The last line is kept too.');
  await shot(page, 'notify-preview-history', size);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
}

/** A pending document whose player has a guardian e-mail: its list row and its detail. */
async function pendingDocumentWithEmail(page: Page) {
  const list = ZDocumentList.parse(await (await page.request.get('/api/documents?status=pending&pageSize=50')).json()).documents;
  for (const item of list) {
    const detail = ZDocument.parse(await (await page.request.get(`/api/documents/${item.id}`)).json());
    if (detail.guardianEmail) return { item, guardianEmail: detail.guardianEmail };
  }
  throw new Error('no pending document with a guardian e-mail in the demo data');
}

/** The reject dialog shows the e-mail the guardian would get, with the reason as typed; Esc gives focus back to Reject. Nothing is rejected. */
export async function rejectDialogPreview(page: Page, size: Size): Promise<void> {
  await openSignedIn(page, '/documents');
  const { item, guardianEmail } = await pendingDocumentWithEmail(page);
  await page.goto(`/documents?status=pending&q=${encodeURIComponent(item.fileName)}`);
  const reject = page.getByRole('button', { name: `Reject ${item.fileName}` }).first();
  await reject.click();
  const dialog = page.getByTestId('reject-dialog');
  await expect(dialog.getByTestId('notify-guardian')).toBeChecked();
  const preview = dialog.getByTestId('message-preview');
  await expect(preview.getByTestId('message-preview-audience')).toHaveText(`Preview for the family of ${item.playerName}`);
  await expect(preview).toContainText(guardianEmail);
  await expect(preview.getByTestId('message-preview-subject')).toContainText(`${item.playerName}'s`);
  await expect(preview.getByTestId('message-preview-body')).toContainText('[the reason you choose above]');
  await dialog.getByLabel('Reason for rejection').selectOption('The photo is blurry or cut off');
  await dialog.getByLabel('More detail (optional)').fill('The bottom of the page is missing');
  await expect(preview.getByTestId('message-preview-body')).toContainText('The photo is blurry or cut off. The bottom of the page is missing');
  await shot(page, 'notify-preview-reject', size);

  // Unticked, no e-mail goes and none is shown.
  await dialog.getByTestId('notify-guardian').click();
  await expect(preview).toHaveCount(0);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(reject).toBeFocused();
  const after = ZDocument.parse(await (await page.request.get(`/api/documents/${item.id}`)).json());
  expect(after.status).toBe('pending');
}

/**
 * On a server of its own with no mail server (no SMTP_URL, nothing saved): Send stops with a warning naming
 * Notifications → Settings → Mail Server, sends nothing, and its button goes there.
 */
export async function noMailServerWarning(browser: Browser, server: PrivateServer, size: Size): Promise<void> {
  const context = await browser.newContext({ baseURL: server.url, ...(size.phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 800 } }) });
  try {
    const page = await context.newPage();
    const login = await page.request.post('/api/auth/login', { data: { password: server.sharedPassword } });
    expect(login.ok()).toBe(true);
    const season = await page.request.post('/api/seasons', {
      data: { name: 'Fall Ball 2026', kind: 'Fall Ball', year: 2026, startsOn: '2026-08-15', endsOn: '2026-11-30', registrationDeadline: '2026-09-30', divisions: ['AA'] },
    });
    expect(season.status(), await season.text()).toBe(201);

    await page.goto('/notifications');
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    await choose(page, 'Template', 'Custom Message');
    await page.getByLabel('Subject').fill('Practice moved');
    await page.getByLabel('Message').fill('Hello {{guardianName}}, practice moved to Field 2.');
    await choose(page, 'Recipients', 'Custom List');
    await page.getByLabel('E-mail addresses').fill('family@example.org');
    // The preview says so already; Send asks before anything goes.
    await expect(page.getByTestId('message-preview').getByTestId('delivery-warning')).toContainText('No mail server is set up');
    await page.getByTestId('send-button').click();
    const dialog = page.getByTestId('undeliverable-dialog');
    await expect(dialog.getByRole('heading', { name: 'No mail server is set up' })).toBeVisible();
    await expect(dialog).toContainText('Set one up in Notifications → Settings → Mail Server. Nothing has been sent.');
    await shot(page, 'notify-preview-warning', size);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('send-button')).toBeFocused();
    const history = ZNotificationHistory.parse(await (await page.request.get('/api/notifications/history')).json());
    expect(history.total).toBe(0);

    await page.getByTestId('send-button').click();
    await dialog.getByRole('button', { name: 'Go to Notifications → Settings' }).click();
    await expect(page).toHaveURL(/\/notifications\?tab=settings$/);
    await expect(page.getByText('Mail Server', { exact: true }).first()).toBeVisible();
  } finally {
    await context.close();
  }
}
