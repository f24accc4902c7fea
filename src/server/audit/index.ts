export { auditActorColumns, recordedActorName, type Actor, type AuditActor } from './actor';
export { listDocumentHistory, recordAuditEvent, recordAuditEvents, type AuditEventRow, type NewAuditEvent } from './audit-events.repository';
