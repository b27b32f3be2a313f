import type { AuditRecord, AuditTrail } from '@platform/audit';
import { fake } from './doubles';

/** An AuditTrail for unit tests: keeps what a use case recorded, with the runner it recorded in. */
export class RecordingAuditTrail {
  readonly records: { runner: unknown; tenantID: string; record: AuditRecord; actor?: string }[] = [];

  asTrail(): AuditTrail {
    return fake<AuditTrail>({
      record: async (runner: unknown, scope: { tenantID: string }, record: AuditRecord, actor?: string) => {
        this.records.push({ runner, tenantID: scope.tenantID, record, ...(actor ? { actor } : {}) });
      },
    });
  }

  /** The actions recorded, in order. */
  actions(): string[] {
    return this.records.map((entry) => entry.record.action);
  }
}
