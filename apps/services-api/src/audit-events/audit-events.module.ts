import { DynamicModule, Module } from '@nestjs/common';
import { AUDIT_RETENTION_DAYS, AuditRetention } from './audit-retention';
import { AuditEventsController } from './audit-events.controller';
import { ListAuditEventsUseCase } from './list-audit-events.use-case';

/** The audit log's read side and retention; every app records through AuditTrail (@platform/audit). */
@Module({})
export class AuditEventsModule {
  static forRoot(settings: { retentionDays: number }): DynamicModule {
    return {
      module: AuditEventsModule,
      controllers: [AuditEventsController],
      providers: [{ provide: AUDIT_RETENTION_DAYS, useValue: settings.retentionDays }, ListAuditEventsUseCase, AuditRetention],
      exports: [AuditRetention],
    };
  }
}
