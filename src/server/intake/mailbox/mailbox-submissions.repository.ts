import { and, count, desc, eq, gte, or, sql, sum } from 'drizzle-orm';
import { DIVISIONS, type TDivision, type TMailboxStats, type TMailboxSubmission } from '../../../contract';
import type { Db } from '../../platform/db/client';
import { registrationInDivisions, type DivisionScope } from '../../platform/db/division-scope';
import { players, registrations, submissions } from '../../platform/db/schema';

/**
 * A submission is in a scope when the player it was matched to is registered for its season in one of the
 * divisions; one not matched to a player is in no limited scope. Nothing for every division.
 */
const submissionInScope = (scope: DivisionScope) => registrationInDivisions(submissions.playerId, submissions.seasonId, scope);

/** Counts of mailbox submissions received since `since` (of the scope's divisions), by outcome, with their attachments (TMailboxStats). */
export async function mailboxStats(db: Db, since: Date, scope: DivisionScope = null): Promise<TMailboxStats> {
  const rows = await db
    .select({ status: submissions.status, n: count(), attachments: sum(submissions.attachmentCount).mapWith(Number) })
    .from(submissions)
    .where(and(eq(submissions.source, 'mailbox'), gte(submissions.receivedAt, since), submissionInScope(scope)))
    .groupBy(submissions.status);
  const of = (status: string) => rows.find((row) => row.status === status)?.n ?? 0;
  return {
    received: rows.reduce((total, row) => total + row.n, 0),
    processed: of('processed'),
    failed: of('failed'),
    totalAttachments: rows.reduce((total, row) => total + (row.attachments ?? 0), 0),
  };
}

/**
 * Newest first, as TMailboxSubmission rows, of the scope's divisions. The player's name and division are the
 * matched player's; for a mail that failed before a player was found, whatever the mail itself said.
 */
export async function listMailboxSubmissions(
  db: Db,
  query: { status: 'all' | 'processed' | 'failed'; limit: number },
  scope: DivisionScope = null,
): Promise<TMailboxSubmission[]> {
  const rows = await db
    .select({
      id: submissions.id,
      fromEmail: submissions.fromEmail,
      subject: submissions.subject,
      receivedAt: submissions.receivedAt,
      attachmentCount: submissions.attachmentCount,
      status: submissions.status,
      errorMessage: submissions.errorMessage,
      fields: submissions.fields,
      firstName: players.firstName,
      lastName: players.lastName,
      division: registrations.division,
    })
    .from(submissions)
    .leftJoin(players, eq(players.id, submissions.playerId))
    .leftJoin(registrations, and(eq(registrations.playerId, submissions.playerId), eq(registrations.seasonId, submissions.seasonId)))
    .where(and(eq(submissions.source, 'mailbox'), query.status === 'all' ? undefined : eq(submissions.status, query.status), submissionInScope(scope)))
    .orderBy(desc(submissions.receivedAt), desc(submissions.id))
    .limit(query.limit);
  return rows.map((row) => {
    const fields = row.fields;
    const mailName = [fields.firstName, fields.lastName].filter((part): part is string => typeof part === 'string' && part !== '').join(' ');
    const mailDivision = fields.division;
    return {
      id: row.id,
      fromEmail: row.fromEmail,
      subject: row.subject,
      receivedAt: row.receivedAt.toISOString(),
      attachmentCount: row.attachmentCount,
      playerName: row.firstName !== null && row.lastName !== null ? `${row.firstName} ${row.lastName}` : mailName || null,
      playerDivision: row.division ?? (isDivision(mailDivision) ? mailDivision : null),
      status: row.status,
      errorMessage: row.errorMessage,
    };
  });
}

const isDivision = (value: unknown): value is TDivision => typeof value === 'string' && (DIVISIONS as readonly string[]).includes(value);

/** Whether the submission is in the scope's divisions (always, for every division). */
export async function isSubmissionInScope(db: Db, id: string, scope: DivisionScope): Promise<boolean> {
  const condition = submissionInScope(scope);
  if (condition === undefined) return true;
  const [row] = await db.select({ id: submissions.id }).from(submissions).where(and(eq(submissions.id, id), condition));
  return row !== undefined;
}

/**
 * The mailbox submissions recorded from mails with this Message-ID: under `<message-id>#<content hash>`, or
 * under the bare Message-ID for one recorded before content hashes were kept (mail-identity.ts).
 */
export function findMailSubmissionsByMessageId(db: Db, messageId: string): Promise<Array<{ id: string; externalId: string }>> {
  return db
    .select({ id: submissions.id, externalId: submissions.externalId })
    .from(submissions)
    .where(
      and(
        eq(submissions.source, 'mailbox'),
        // starts_with, not LIKE: a Message-ID may hold % and _.
        or(eq(submissions.externalId, messageId), sql`starts_with(${submissions.externalId}, ${`${messageId}#`})`),
      ),
    );
}
