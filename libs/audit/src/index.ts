export { AUDIT_ACTION_NAMES, AUDIT_ACTIONS } from './audit-actions';
export type { AuditAction, AuditRecord, AuditSummaryValue, AuditTargetKind } from './audit-actions';
export { AuditEventsRepository } from './audit-events.repository';
export type { AuditEventFilter, NewAuditEvent, StoredAuditEvent } from './audit-events.repository';
export { AuditModule } from './audit.module';
export { AuditTrail } from './audit-trail';
