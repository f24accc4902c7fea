import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { appendMail, type ImapServer } from '../support/imap';
import { buildMail } from '../support/mail';
import { makePdf } from '../support/multipart';
import { E2E_MAILBOX_FILE, signInAndWaitForShell } from './support';

/** The Dovecot that tests/e2e/serve.ts started for the e2e server, as it wrote it down. */
const mailbox = (): ImapServer => JSON.parse(readFileSync(E2E_MAILBOX_FILE, 'utf8')) as ImapServer;

test('Start, Check Now, and a new mail shows up in the Mailbox panel as processed', async ({ page }) => {
  await signInAndWaitForShell(page);
  const panel = page.getByTestId('gmail-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('gmail-connection')).toContainText('Connected');

  await panel.getByTestId('gmail-start').click();
  await expect(page.getByRole('status').filter({ hasText: 'Mailbox checks started' })).toBeVisible();
  await expect(panel.getByTestId('gmail-scheduler')).toContainText('Running');

  const subject = `Registration documents ${Date.now()}`;
  const server = mailbox();
  await appendMail(
    server,
    await buildMail({
      from: 'Grace Hopper <grace@example.org>',
      to: server.users[0]?.user ?? 'intake@example.test',
      subject,
      text: ['Player: Ada Hopper', 'Date of Birth: 2015-12-10', 'Division: AAA', 'Parent: Grace Hopper'].join('\n'),
      attachments: [
        { filename: 'birth-certificate.pdf', content: makePdf(`e2e mail ${subject}`), contentType: 'application/pdf' },
        { filename: 'waiver.pdf', content: makePdf(`e2e waiver ${subject}`), contentType: 'application/pdf' },
      ],
    }),
  );

  await panel.getByTestId('gmail-check').click();
  await expect(page.getByRole('status').filter({ hasText: 'Mailbox check started' })).toBeVisible();
  const row = panel.getByTestId('gmail-submission').filter({ hasText: subject });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toHaveAttribute('data-status', 'processed');
  await expect(row).toContainText('Ada Hopper');
  await page.screenshot({ path: test.info().outputPath('gmail-panel.png') });

  await panel.getByTestId('gmail-stop').click();
  await expect(panel.getByTestId('gmail-scheduler')).toContainText('Stopped');
});
