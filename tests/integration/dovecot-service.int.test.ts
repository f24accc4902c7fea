import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendMail, createMailbox, listMessages, withImap } from '../support/imap';
import { buildMail } from '../support/mail';
import { startDovecot } from '../../scripts/services/start-dovecot';
import { useDovecot } from '../support/dovecot';

const { running } = useDovecot('Dovecot integration tests');

const mail = (n: number) =>
  buildMail({
    from: 'Parent <parent@example.org>',
    to: 'intake@example.test',
    subject: `Registration documents ${n}`,
    text: `Attached, message ${n}.`,
    messageId: `<doc-${n}@example.org>`,
    attachments: [{ filename: `birth-${n}.pdf`, content: Buffer.from(`%PDF-1.7\n% ${n}\n%%EOF\n`), contentType: 'application/pdf' }],
  });

describe('Dovecot test IMAP server', () => {
  it('takes two appended messages and lists them unseen, in mail owned by vmail', async (context) => {
    const server = running(context);
    expect(server.users).toEqual([{ user: 'intake@example.test', password: expect.stringMatching(/^[0-9a-f]{24}$/) as unknown }]);
    const first = await appendMail(server, await mail(1));
    const second = await appendMail(server, await mail(2));
    expect(second).toBeGreaterThan(first);

    const messages = await listMessages(server);
    expect(messages).toEqual([
      { uid: first, flags: [], messageId: '<doc-1@example.org>', subject: 'Registration documents 1' },
      { uid: second, flags: [], messageId: '<doc-2@example.org>', subject: 'Registration documents 2' },
    ]);
    const vmailUid = Number(execFileSync('id', ['-u', 'vmail'], { encoding: 'utf8' }).trim());
    expect(statSync(path.join(server.dir, 'mail', 'intake@example.test', 'cur')).uid).toBe(vmailUid);
  });

  it('shows a message marked \\Seen with imapflow as seen, and only that one', async (context) => {
    const server = running(context);
    const [first, second] = await listMessages(server);
    if (!first || !second) throw new Error('the previous test appends two messages');
    await withImap(server, async (client) => {
      const lock = await client.getMailboxLock('INBOX');
      try {
        await expect(client.messageFlagsAdd(String(first.uid), ['\\Seen'], { uid: true })).resolves.toBe(true);
      } finally {
        lock.release();
      }
    });
    const after = await listMessages(server);
    expect(after.map(({ uid, flags }) => ({ uid, flags }))).toEqual([
      { uid: first.uid, flags: ['\\Seen'] },
      { uid: second.uid, flags: [] },
    ]);
  });

  it('refuses a wrong password with an authentication failure', async (context) => {
    const server = running(context);
    const wrong = { ...server, users: [{ user: 'intake@example.test', password: 'not-the-password' }] };
    await expect(withImap(wrong, () => Promise.resolve('logged in'))).rejects.toMatchObject({
      authenticationFailed: true,
      serverResponseCode: 'AUTHENTICATIONFAILED',
      responseStatus: 'NO',
    });
  });

  it('files into a new mailbox, with flags, and serves a user added while running', async (context) => {
    const server = running(context);
    const clerk = await server.addUser('clerk@example.test');
    await createMailbox(server, 'Processed', clerk.user);
    const uid = await appendMail(server, await mail(3), { mailbox: 'Processed', flags: ['\\Seen'], user: clerk.user });
    expect(await listMessages(server, 'Processed', clerk.user)).toEqual([
      { uid, flags: ['\\Seen'], messageId: '<doc-3@example.org>', subject: 'Registration documents 3' },
    ]);
    expect(await listMessages(server, 'INBOX', clerk.user)).toEqual([]);
  });

  it('stop() ends the server and removes its folder, and is safe twice', async (context) => {
    running(context);
    const other = await startDovecot({ users: [{ user: 'a@example.test', password: 'secret-a' }] });
    expect(existsSync(other.dir)).toBe(true);
    await other.stop();
    await other.stop();
    expect(existsSync(other.dir)).toBe(false);
    await expect(canConnect(other.port)).resolves.toBe(false);
  });
});

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
