export { listDocumentHistory, recordAuditEvent, recordAuditEvents, type AuditEventRow, type NewAuditEvent } from './audit-events.repository';
