import type { ImapConfig } from '../../platform/config';
import type { Readable } from 'node:stream';

/** One message of the watched mailbox, by its IMAP UID (stable within one UIDVALIDITY of one folder). */
export type MailRef = { uid: number; messageId: string | null; folder: string };

/**
 * A session with the mailbox. Every command runs to its end before the next starts (an IMAP connection
 * is one conversation), so callers must finish reading a `download` before issuing anything else.
 */
export interface MailboxSession {
  /** Unread messages of the intake folder, oldest first. */
  listUnseen(): Promise<MailRef[]>;
  /** Messages with this Message-ID in the intake folder or the processed folder, any flags. */
  findByMessageId(messageId: string): Promise<MailRef[]>;
  /** The raw RFC 822 message, streamed; reading it does not mark it read. */
  download(ref: MailRef): Promise<Readable>;
  /** Marks the message read and, when a processed folder is set, moves it there. */
  acknowledge(ref: MailRef): Promise<void>;
  close(): Promise<void>;
}

export interface MailboxClient {
  /** `user@host:port/folder`, for logs and the status screen; never a secret. */
  readonly description: string;
  /** Opens a session on the intake folder; rejects with MailboxUnavailableError when it cannot. */
  open(): Promise<MailboxSession>;
}

/** The mailbox could not be reached or refused us: nothing was read, nothing is lost, try again later. */
export class MailboxUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailboxUnavailableError';
  }
}

/** The mailbox settings of config.ts (IMAP_*) or of Settings → Integrations, and how long to wait on the server. */
export type ImapSettings = Omit<ImapConfig, 'intervalMs'> & {
  /**
   * On a plain connection (`tls` false): true insists on STARTTLS, false never tries it; left out, it is used
   * when the server offers it.
   */
  startTls?: boolean;
  /** Connecting and each command give up after this long. */
  timeoutMs?: number;
};

