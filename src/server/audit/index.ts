export { auditActorColumns, recordedActorName, type Actor, type AuditActor } from './actor';
export { summarizeActivity } from './activity';
export { lastActionTimes, listActivity, listDocumentHistory, listPlayerEvents, recordAuditEvent, recordAuditEvents, type AuditEventRow, type NewAuditEvent } from './audit-events.repository';
