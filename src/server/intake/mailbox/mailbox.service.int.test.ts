import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../tests/support/databases';
import { dropNextQuery } from '../../../../tests/support/dropped-connection';
import { createLocalStorage } from '../../adapters/storage/local-storage';
import { MailboxUnavailableError, type MailboxClient } from '../../adapters/mailbox/port';
import type { Db } from '../../platform/db/client';
import { getMailboxState, updateMailboxState } from './mailbox-state.repository';
import { createLogger } from '../../platform/logger';
import { createMailboxService } from './mailbox.service';

/** A configured mailbox these tests never reach: the database fails before any session is opened. */
const unreachedMailbox: MailboxClient = {
  description: 'registrations@imap.example.test:993/INBOX',
  open: () => Promise.reject(new MailboxUnavailableError('not opened in this test')),
};

describeEachDatabase('mailbox service when the database connection drops', ({ getDb }) => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cb-mailbox-db-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const serviceOn = (db: Db, client: MailboxClient | undefined) =>
    createMailboxService({
      db,
      client: () => Promise.resolve(client),
      intake: { db, storage: createLocalStorage(root), masterKey: randomBytes(32), idPrefix: 'CB', maxFileBytes: 1_000_000, onRecorded: () => undefined },
      log: createLogger('silent'),
      intervalMs: 120_000,
    });

  it('answers again once the database is back, after the scheduler set-up failed on a dropped connection', async () => {
    const service = serviceOn(dropNextQuery(getDb(), 'update'), undefined);
    await expect(service.status()).rejects.toThrow('Connection terminated unexpectedly');
    await expect(service.status()).resolves.toMatchObject({ configured: false, scheduler: { intervalMs: 120_000 } });
    await service.close();
  });

  it('does not record a dropped database connection as the mailbox connection error staff see', async () => {
    await updateMailboxState(getDb(), { lastError: null, lastSuccessAt: null, lastCheckAt: null });
    const service = serviceOn(dropNextQuery(getDb(), 'update'), unreachedMailbox);
    service.startBackground();
    // Closing waits for the first connection probe, which met the dropped connection.
    await service.close();
    const state = await getMailboxState(getDb());
    expect(state.lastError).toBeNull();
    await expect(serviceOn(getDb(), unreachedMailbox).health()).resolves.toEqual({
      status: 'warning',
      message: 'Not checked yet: registrations@imap.example.test:993/INBOX',
    });
  });
});
