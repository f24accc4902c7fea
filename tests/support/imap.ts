import { ImapFlow } from 'imapflow';
import type { DovecotUser } from '../../scripts/services/start-dovecot';

/** Where to reach an IMAP server and who may log in: a StartedDovecot fits. */
export type ImapServer = { host: string; port: number; users: readonly DovecotUser[] };

export type ListedMessage = { uid: number; flags: string[]; messageId: string | null; subject: string | null };

/**
 * Runs `use` with a client logged in as `user` (default: the server's first user), and always logs out and
 * closes the connection afterwards. In imapflow never issue a command inside a `for await` over fetch():
 * the fetch holds the connection and the command waits forever. Collect first (fetchAll), then act.
 */
export async function withImap<T>(server: ImapServer, use: (client: ImapFlow) => Promise<T>, user?: string): Promise<T> {
  const login = user === undefined ? server.users[0] : server.users.find((candidate) => candidate.user === user);
  if (!login) throw new Error(user === undefined ? 'The IMAP server has no users' : `The IMAP server has no user ${user}`);
  const client = new ImapFlow({ host: server.host, port: server.port, secure: false, auth: { user: login.user, pass: login.password }, logger: false });
  // A connection dropped later must not become an unhandled 'error' event that kills the test worker.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await use(client);
  } finally {
    await client.logout().catch(() => undefined);
    client.close();
  }
}

/** Puts a raw message into a mailbox (default INBOX) with IMAP APPEND; answers its UID. */
export async function appendMail(server: ImapServer, raw: Buffer, opts: { mailbox?: string; flags?: string[]; user?: string } = {}): Promise<number> {
  const mailbox = opts.mailbox ?? 'INBOX';
  const appended = await withImap(server, (client) => client.append(mailbox, raw, opts.flags ?? []), opts.user);
  if (!appended || appended.uid === undefined) throw new Error(`APPEND to ${mailbox} returned no UID (does the server lack UIDPLUS?)`);
  return appended.uid;
}

/**
 * The messages of a mailbox (default INBOX) in UID order, read without changing their flags. `flags` are the
 * stored ones: `\\Recent` is left out, since it only says which session saw a message first.
 */
export function listMessages(server: ImapServer, mailbox = 'INBOX', user?: string): Promise<ListedMessage[]> {
  return withImap(
    server,
    async (client) => {
      const lock = await client.getMailboxLock(mailbox, { readOnly: true });
      try {
        if (!client.mailbox || client.mailbox.exists === 0) return [];
        const messages = await client.fetchAll('1:*', { uid: true, flags: true, envelope: true });
        return messages
          .map((message) => ({
            uid: message.uid,
            flags: [...(message.flags ?? [])].filter((flag) => flag !== '\\Recent').sort(),
            messageId: message.envelope?.messageId ?? null,
            subject: message.envelope?.subject ?? null,
          }))
          .sort((a, b) => a.uid - b.uid);
      } finally {
        lock.release();
      }
    },
    user,
  );
}

/** Creates a mailbox (folder) such as `Processed` or `Failed`. */
export async function createMailbox(server: ImapServer, name: string, user?: string): Promise<void> {
  await withImap(server, (client) => client.mailboxCreate(name), user);
}
