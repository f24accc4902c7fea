import { ImapFlow } from 'imapflow';
import type { ImapConfig } from '../../platform/config';
import { MailboxUnavailableError, type MailboxClient, type MailboxSession, type MailRef } from './port';

/** The mailbox settings of config.ts (IMAP_*), and how long to wait on the server. */
export type ImapSettings = Omit<ImapConfig, 'intervalMs'> & {
  /** Connecting and each command give up after this long. */
  timeoutMs?: number;
};

/**
 * The mailbox over IMAP (imapflow): Gmail with an app password or OAuth2 (XOAUTH2), Microsoft 365, any
 * IMAP server. One connection per session; commands run one after another, and never inside a `for await`
 * fetch loop (the fetch holds the connection, so the command would wait forever): lists are collected before
 * anything else is asked.
 */
export function createImapMailbox(settings: ImapSettings): MailboxClient {
  const description = `${settings.user}@${settings.host}:${settings.port}/${settings.mailbox}`;
  const timeoutMs = settings.timeoutMs ?? 30_000;

  return {
    description,
    async open() {
      const client = new ImapFlow({
        host: settings.host,
        port: settings.port,
        secure: settings.tls,
        auth:
          settings.auth.kind === 'password'
            ? { user: settings.user, pass: settings.auth.password }
            : { user: settings.user, accessToken: settings.auth.accessToken },
        logger: false,
        disableAutoIdle: true,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs * 4,
      });
      // A dropped connection is reported through the command that was running; an 'error' with no
      // listener would instead take the whole process down.
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.mailboxOpen(settings.mailbox);
      } catch (error) {
        client.close();
        throw new MailboxUnavailableError(describeImapError(error, settings), { cause: error });
      }
      return createSession(client, settings);
    },
  };
}

function createSession(client: ImapFlow, settings: ImapSettings): MailboxSession {
  let selected = settings.mailbox;
  let processedReady = false;

  const select = async (folder: string) => {
    if (folder === selected) return;
    await client.mailboxOpen(folder);
    selected = folder;
  };
  const guard = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof MailboxUnavailableError) throw error;
      throw new MailboxUnavailableError(`${what}: ${describeImapError(error, settings)}`, { cause: error });
    }
  };
  const refsIn = async (folder: string, uids: number[]): Promise<MailRef[]> => {
    if (uids.length === 0) return [];
    // Collected in full before the next command: nothing may be sent while a fetch is being read.
    const messages = await client.fetchAll(uids.join(','), { uid: true, envelope: true }, { uid: true });
    return messages
      .map((message) => ({ uid: message.uid, messageId: message.envelope?.messageId ?? null, folder }))
      .sort((a, b) => a.uid - b.uid);
  };

  return {
    listUnseen: () =>
      guard('Could not list new mail', async () => {
        await select(settings.mailbox);
        const uids = (await client.search({ seen: false }, { uid: true })) || [];
        return refsIn(settings.mailbox, uids);
      }),

    findByMessageId: (messageId) =>
      guard('Could not look the e-mail up', async () => {
        const found: MailRef[] = [];
        for (const folder of [settings.mailbox, ...(settings.processedMailbox ? [settings.processedMailbox] : [])]) {
          try {
            await select(folder);
          } catch {
            continue; // the processed folder may not exist yet
          }
          const uids = (await client.search({ header: { 'message-id': messageId } }, { uid: true })) || [];
          found.push(...(await refsIn(folder, uids)));
        }
        return found;
      }),

    download: (ref) =>
      guard('Could not download the e-mail', async () => {
        await select(ref.folder);
        const result = await client.download(String(ref.uid), undefined, { uid: true });
        if (!('content' in result) || !result.content) throw new MailboxUnavailableError(`The e-mail (UID ${ref.uid}) is no longer in ${ref.folder}.`);
        return result.content;
      }),

    acknowledge: (ref) =>
      guard('Could not mark the e-mail as handled', async () => {
        await select(ref.folder);
        await client.messageFlagsAdd(String(ref.uid), ['\\Seen'], { uid: true });
        const target = settings.processedMailbox;
        if (!target || ref.folder === target) return;
        if (!processedReady) {
          // Made on first use; a folder that already exists is fine.
          await client.mailboxCreate(target).catch(() => undefined);
          processedReady = true;
        }
        await client.messageMove(String(ref.uid), target, { uid: true });
      }),

    async close() {
      await client.logout().catch(() => client.close());
    },
  };
}

/** One sentence for the status screen: what went wrong and, when it is ours to fix, what to check. */
export function describeImapError(error: unknown, settings: Pick<ImapSettings, 'host' | 'port'>): string {
  const details = error as { authenticationFailed?: boolean; code?: string; responseText?: string; message?: string } | undefined;
  if (details?.authenticationFailed) {
    return `The mailbox refused the sign-in${details.responseText ? ` (${details.responseText})` : ''}: check IMAP_USER and the password or token.`;
  }
  switch (details?.code) {
    case 'ECONNREFUSED':
      return `Nothing is listening at ${settings.host}:${settings.port}: check IMAP_HOST and IMAP_PORT.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The mail server ${settings.host} could not be found: check IMAP_HOST.`;
    case 'ETIMEDOUT':
    case 'CONNECT_TIMEOUT':
    case 'GREETING_TIMEOUT':
    case 'NoConnection':
      return `The mail server at ${settings.host}:${settings.port} did not answer in time.`;
    default:
      return details?.responseText ?? details?.message ?? String(error);
  }
}
