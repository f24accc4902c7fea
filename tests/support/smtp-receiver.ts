import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; subject: string; text: string; html: string };

export type SmtpReceiver = {
  port: number;
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Resolves once at least `count` mails have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
};

export type SmtpReceiverOptions = {
  /** Recipients refused at RCPT TO with 550 5.1.1. */
  refuse?: readonly string[];
  /** When set, AUTH is required and only this user and password pass (535 otherwise). */
  credentials?: { user: string; password: string };
  /** Never sends its greeting: the client must give up on its own time limit. */
  silent?: boolean;
  /** Called with each message as it is accepted (the e2e server writes it to its outbox file). */
  onReceived?: (mail: ReceivedMail) => void;
};

/**
 * A real SMTP server (npm smtp-server) on 127.0.0.1 that keeps every message it accepts, parsed with mailparser.
 * Plain text without STARTTLS, so nodemailer talks to it as to a local relay.
 */
export async function startSmtpReceiver(options: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const refused = new Set((options.refuse ?? []).map((address) => address.toLowerCase()));
  const credentials = options.credentials;

  const server = new SMTPServer({
    secure: false,
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: credentials === undefined,
    logger: false,
    onConnect(_session, callback) {
      if (options.silent) return; // the greeting never comes
      callback();
    },
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.password) return callback(null, { user: auth.username });
      const error = Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 });
      callback(error);
    },
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        const error = Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`), { responseCode: 550 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const accepted: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
          };
          received.push(accepted);
          options.onReceived?.(accepted);
          for (const wake of [...waiters]) wake();
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  // A client cut off mid-conversation (the timeout test) is not a failure of the receiver.
  server.on('error', () => undefined);

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor(count, timeoutMs = 15_000) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} mails, got ${received.length}`));
        }, timeoutMs);
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(received);
        };
        waiters.add(check);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
