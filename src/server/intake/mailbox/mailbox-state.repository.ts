import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { mailboxState } from '../../platform/db/schema';

export type MailboxStateRow = typeof mailboxState.$inferSelect;

/** The single scheduler row, created with its defaults on first read. */
export async function getMailboxState(db: Db): Promise<MailboxStateRow> {
  await db.insert(mailboxState).values({ id: 'default' }).onConflictDoNothing();
  const [row] = await db.select().from(mailboxState).where(eq(mailboxState.id, 'default'));
  if (!row) throw new Error('mailbox_state row missing after insert');
  return row;
}

export async function updateMailboxState(
  db: Db,
  changes: Partial<Pick<MailboxStateRow, 'schedulerRunning' | 'intervalMs' | 'lastCheckAt' | 'lastSuccessAt' | 'lastError'>>,
): Promise<MailboxStateRow> {
  await getMailboxState(db);
  const [row] = await db.update(mailboxState).set(changes).where(eq(mailboxState.id, 'default')).returning();
  if (!row) throw new Error('mailbox_state row missing');
  return row;
}

/**
 * Takes the check lease for `owner` until `until`, when it is free, expired or already this owner's:
 * with several instances on one database, only the holder checks the mailbox. Answers whether it was taken.
 */
export async function takeCheckLease(db: Db, owner: string, now: Date, until: Date): Promise<boolean> {
  await getMailboxState(db);
  const rows = await db
    .update(mailboxState)
    .set({ checkOwner: owner, checkLeaseUntil: until })
    .where(
      and(
        eq(mailboxState.id, 'default'),
        or(isNull(mailboxState.checkLeaseUntil), lt(mailboxState.checkLeaseUntil, now), eq(mailboxState.checkOwner, owner)),
      ),
    )
    .returning({ owner: mailboxState.checkOwner });
  return rows.length === 1;
}

/** Gives the lease back (only if this owner still holds it), so another instance may check at once. */
export async function releaseCheckLease(db: Db, owner: string): Promise<void> {
  await db
    .update(mailboxState)
    .set({ checkOwner: null, checkLeaseUntil: null })
    .where(and(eq(mailboxState.id, 'default'), eq(mailboxState.checkOwner, owner)));
}
