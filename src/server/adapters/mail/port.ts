/** One e-mail, ready to go: both parts rendered. */
export type OutgoingMail = { from: string; to: string; subject: string; text: string; html: string };

/** Where e-mail goes: a server saved on the Settings tab, or SMTP_URL from the environment. */
export type SmtpServer =
  | { kind: 'fields'; host: string; port: number; secure: boolean; username: string; password: string | undefined }
  | { kind: 'url'; url: string };

/** An open connection (or pool) to one mail server, for a batch of messages; close it after the batch. */
export interface MailTransport {
  /** Resolves once the server accepted the message; rejects with MailDeliveryError in words staff can act on. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export type OpenMailTransport = (server: SmtpServer) => MailTransport;

/** A message the server refused or could not take; `message` is what History shows. */
export class MailDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailDeliveryError';
  }
}
