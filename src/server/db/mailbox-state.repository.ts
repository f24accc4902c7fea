import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { mailboxState } from './schema';

export type MailboxStateRow = typeof mailboxState.$inferSelect;

/** The single scheduler row, created with its defaults on first read. */
export async function getMailboxState(db: Db): Promise<MailboxStateRow> {
  await db.insert(mailboxState).values({ id: 'default' }).onConflictDoNothing();
  const [row] = await db.select().from(mailboxState).where(eq(mailboxState.id, 'default'));
  if (!row) throw new Error('mailbox_state row missing after insert');
  return row;
}
