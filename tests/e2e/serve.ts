import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startDovecot } from '../../scripts/services/start-dovecot';
import { runMain } from '../../src/server/main';
import { startSmtpReceiver } from '../support/smtp-receiver';
import { E2E_MAILBOX_FILE, E2E_OUTBOX_FILE } from './support';

/**
 * The end-to-end server (playwright.config.ts webServer): a private Dovecot for the mailbox, then
 * Clearbase with its embedded defaults and IMAP_* pointing at that Dovecot. The tests read the
 * mailbox's address and user from E2E_MAILBOX_FILE to deliver mail into it.
 */
const dovecot = await startDovecot();
mkdirSync(path.dirname(E2E_MAILBOX_FILE), { recursive: true });
const [user] = dovecot.users;
if (!user) throw new Error('Dovecot started without a user');
writeFileSync(E2E_MAILBOX_FILE, JSON.stringify({ host: dovecot.host, port: dovecot.port, users: dovecot.users }));
Object.assign(process.env, {
  IMAP_HOST: dovecot.host,
  IMAP_PORT: String(dovecot.port),
  IMAP_TLS: 'false',
  IMAP_USER: user.user,
  IMAP_PASSWORD: user.password,
});
// Notifications' outgoing mail goes to a real SMTP server in this process (npm smtp-server), which accepts
// everything: the Notifications specs see 'Sent' in History. SMTP_FROM comes from playwright.config.ts.
// Each mail is also appended to E2E_OUTBOX_FILE as one JSON line, for specs to read (tests/e2e/outbox.ts).
mkdirSync(path.dirname(E2E_OUTBOX_FILE), { recursive: true, mode: 0o700 });
writeFileSync(E2E_OUTBOX_FILE, '');
const smtp = await startSmtpReceiver({
  onReceived: (mail) => appendFileSync(E2E_OUTBOX_FILE, `${JSON.stringify({ ...mail, receivedAt: new Date().toISOString() })}\n`),
});
process.env.SMTP_URL = smtp.url;
// Dovecot leaves with the server: stopped on the signals Playwright sends, and on any other exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.prependOnceListener(signal, () => void dovecot.stop());
await runMain();
