import type { ImapFlow, ImapFlowOptions } from 'imapflow';
import type { TMailboxTestResult } from '../../../contract';
import { MailboxUnavailableError, type ImapSettings, type MailboxClient, type MailboxSession, type MailRef } from './port';

/** imapflow is loaded by the first mailbox check or test, not with the server: most servers have no mailbox. */
const loadImapFlow = async (): Promise<typeof ImapFlow> => (await import('imapflow')).ImapFlow;

function imapOptions(settings: ImapSettings, timeoutMs: number): ImapFlowOptions {
  return {
    host: settings.host,
    port: settings.port,
    secure: settings.tls,
    ...(settings.tls || settings.startTls === undefined ? {} : { doSTARTTLS: settings.startTls }),
    auth:
      settings.auth.kind === 'password'
        ? { user: settings.user, pass: settings.auth.password }
        : { user: settings.user, accessToken: settings.auth.accessToken },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 4,
  };
}

/**
 * Test connection of Settings → Integrations: signs in, opens the folder read-only and counts its e-mails,
 * touching nothing. Every outcome is an answer in words, never a thrown error.
 */
export async function testImapConnection(settings: ImapSettings): Promise<TMailboxTestResult> {
  const Imap = await loadImapFlow();
  const client = new Imap(imapOptions(settings, settings.timeoutMs ?? 15_000));
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    client.close();
    const details = error as { authenticationFailed?: boolean } | undefined;
    return {
      outcome: details?.authenticationFailed ? 'wrong_password' : isUnreachable(error) ? 'unreachable' : 'failed',
      message: describeImapError(error, settings),
      messages: null,
    };
  }
  try {
    const folder = await client.mailboxOpen(settings.mailbox, { readOnly: true });
    const count = folder.exists;
    return { outcome: 'connected', message: `Connected: ${count} ${count === 1 ? 'e-mail' : 'e-mails'} in ${settings.mailbox}.`, messages: count };
  } catch (error) {
    const details = error as { serverResponseCode?: string; responseText?: string } | undefined;
    const missing = details?.serverResponseCode === 'NONEXISTENT' || /doesn.?t exist|not exist|unknown mailbox|no such/i.test(details?.responseText ?? '');
    return missing
      ? { outcome: 'folder_not_found', message: `Signed in, but the folder “${settings.mailbox}” was not found. Check the folder name (INBOX is the usual one).`, messages: null }
      : { outcome: 'failed', message: describeImapError(error, settings), messages: null };
  } finally {
    await client.logout().catch(() => client.close());
  }
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'NoConnection', 'EHOSTUNREACH', 'ENETUNREACH']);
const isUnreachable = (error: unknown) => UNREACHABLE_CODES.has((error as { code?: string } | undefined)?.code ?? '');

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
      const Imap = await loadImapFlow();
      const client = new Imap(imapOptions(settings, timeoutMs));
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
    return `The mail server refused the sign-in${details.responseText ? ` (${details.responseText})` : ''}: check the user name and the password (or app password) in Settings → Integrations.`;
  }
  switch (details?.code) {
    case 'ECONNREFUSED':
      return `The mail server could not be reached at ${settings.host}:${settings.port}: check the server and the port in Settings → Integrations.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The mail server ${settings.host} could not be found: check its name in Settings → Integrations.`;
    case 'ETIMEDOUT':
    case 'CONNECT_TIMEOUT':
    case 'GREETING_TIMEOUT':
    case 'NoConnection':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `The mail server at ${settings.host}:${settings.port} did not answer in time.`;
    default:
      return details?.responseText ?? details?.message ?? String(error);
  }
}
