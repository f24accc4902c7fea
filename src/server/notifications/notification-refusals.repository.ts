import { and, eq, or, sql } from 'drizzle-orm';
import type { TSubmissionSource } from '../../contract';
import type { Db } from '../platform/db/client';
import { auditEvents, players, seasons, submissions } from '../platform/db/schema';

export type SubmissionFamily = {
  submissionId: string;
  source: TSubmissionSource;
  externalId: string;
  playerId: string;
  seasonId: string;
  seasonName: string;
  firstName: string;
  lastName: string;
  /** The guardian's name as the submission gave it, else as the player's record has it. */
  guardianName: string | null;
  /** The e-mail the submission gave: the family that sent it hears back there. */
  guardianEmail: string | null;
};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The family a submission's refused-files notice goes to; undefined when it is gone or was matched to no player. */
export async function findSubmissionFamily(db: Db, submissionId: string): Promise<SubmissionFamily | undefined> {
  const [row] = await db
    .select({
      submissionId: submissions.id,
      source: submissions.source,
      externalId: submissions.externalId,
      fields: submissions.fields,
      playerId: players.id,
      seasonId: seasons.id,
      seasonName: seasons.name,
      firstName: players.firstName,
      lastName: players.lastName,
      guardianName: players.guardianName,
      guardianEmail: players.guardianEmail,
    })
    .from(submissions)
    .innerJoin(players, eq(players.id, submissions.playerId))
    .innerJoin(seasons, eq(seasons.id, submissions.seasonId))
    .where(eq(submissions.id, submissionId));
  if (!row) return undefined;
  const { fields, ...family } = row;
  return {
    ...family,
    guardianName: text(fields.guardianName) ?? text(family.guardianName),
    guardianEmail: text(fields.guardianEmail),
  };
}

/**
 * Locks the submission's row for the rest of the transaction and says whether its family was already told
 * about its refused files: for this submission, or for an earlier record of the same one (same source and
 * external id) that a staff retry replaced. Two runs of the notice take turns on the lock, so one sends.
 */
export async function lockAndCheckRefusalNotice(tx: Db, family: Pick<SubmissionFamily, 'submissionId' | 'source' | 'externalId'>): Promise<'gone' | 'told' | 'not told'> {
  const [locked] = await tx.select({ id: submissions.id }).from(submissions).where(eq(submissions.id, family.submissionId)).for('update');
  if (!locked) return 'gone';
  const [told] = await tx
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, 'submission.refusal_notified'),
        eq(auditEvents.subjectType, 'submission'),
        or(
          eq(auditEvents.subjectId, family.submissionId),
          sql`${auditEvents.detail} @> ${JSON.stringify({ source: family.source, externalId: family.externalId })}::jsonb`,
        ),
      ),
    )
    .limit(1);
  return told ? 'told' : 'not told';
}
