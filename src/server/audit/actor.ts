import { AUDIT_ACTOR_NAMES, SHARED_PASSWORD_NAME, type TAuditActorKind, type TPrincipal, type TSubmissionSource } from '../../contract';

/** Who is acting on a request: the signed-in principal, and the request id the audit record carries. */
export type Actor = { requestId: string; principal: TPrincipal };

/**
 * Who an audit record names: a signed-in principal (a person or the shared password), the system, or the
 * intake channel a submission came through.
 */
export type AuditActor = TPrincipal | 'system' | TSubmissionSource;

/** The three audit columns for an actor: its kind, the person's id, and the name as it is now. */
export function auditActorColumns(actor: AuditActor): { actor: TAuditActorKind; actorUserId: string | null; actorName: string } {
  if (typeof actor === 'string') return { actor, actorUserId: null, actorName: AUDIT_ACTOR_NAMES[actor] };
  if (actor.kind === 'shared') return { actor: 'shared-password', actorUserId: null, actorName: SHARED_PASSWORD_NAME };
  return { actor: 'user', actorUserId: actor.userId, actorName: actor.name };
}

/** The name of a recorded actor, for records written before names were kept. */
export function recordedActorName(row: { actor: string; actorName: string | null }): string {
  if (row.actorName) return row.actorName;
  return (AUDIT_ACTOR_NAMES as Record<string, string | undefined>)[row.actor] ?? row.actor;
}
