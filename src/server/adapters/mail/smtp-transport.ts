import type { Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import { MailDeliveryError, type MailTransport, type OpenMailTransport, type SmtpServer } from './port';

type SmtpError = Error & { code?: string; responseCode?: number; response?: string; command?: string };

/** nodemailer's error in words for History: the server's own answer when it gave one. */
export function describeSmtpError(error: unknown, server: SmtpServer, timeoutMs: number): string {
  const e = (error instanceof Error ? error : new Error(String(error))) as SmtpError;
  const where = server.kind === 'fields' ? `${server.host}:${server.port}` : 'the SMTP_URL server';
  if (e.responseCode !== undefined && e.response) return `SMTP ${e.response.trim()}`;
  switch (e.code) {
    case 'ETIMEDOUT':
      return `The mail server ${where} did not answer within ${timeoutMs / 1000} s`;
    case 'ECONNECTION':
    case 'ESOCKET':
    case 'EDNS':
      return `Could not connect to the mail server ${where}: ${e.message}`;
    case 'EAUTH':
      return `The mail server ${where} refused the username or password: ${e.message}`;
    case 'EENVELOPE':
      return `The mail server ${where} refused the message: ${e.message}`;
    default:
      return `Sending through ${where} failed: ${e.message}`;
  }
}

/** SMTP with nodemailer. */
export function createSmtpTransportFactory(options: { timeoutMs: number }): OpenMailTransport {
  return (server) => {
    const timeouts = { connectionTimeout: options.timeoutMs, greetingTimeout: options.timeoutMs, socketTimeout: options.timeoutMs };
    // A pool per batch: a reminder to 600 families reuses a few connections instead of opening 600.
    const pool = { pool: true as const, maxConnections: 3, ...timeouts };
    const transportOptions: SMTPPool.Options =
      server.kind === 'url'
        ? { url: server.url, ...pool }
        : {
            host: server.host,
            port: server.port,
            secure: server.secure,
            auth: server.username ? { user: server.username, pass: server.password ?? '' } : undefined,
            ...pool,
          };
    // nodemailer is loaded by the first mail sent, not with the server; the pool opens with it.
    let transport: Promise<Transporter> | undefined;
    const open = () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(transportOptions)));
    const mailer: MailTransport = {
      async send(mail) {
        try {
          await (await open()).sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        } catch (error) {
          throw new MailDeliveryError(describeSmtpError(error, server, options.timeoutMs), { cause: error });
        }
      },
      close() {
        void transport?.then((opened) => opened.close());
      },
    };
    return mailer;
  };
}
