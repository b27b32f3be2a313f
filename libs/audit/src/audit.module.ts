import { DynamicModule, Global, Module } from '@nestjs/common';
import { AuditEventsRepository } from './audit-events.repository';
import { AUDIT_RECORDER, AuditTrail } from './audit-trail';

/** The audit log of one app: `app` is what its records name as `recorded_by`. */
@Global()
@Module({})
export class AuditModule {
  static forApp(app: string): DynamicModule {
    return {
      module: AuditModule,
      providers: [{ provide: AUDIT_RECORDER, useValue: app }, AuditEventsRepository, AuditTrail],
      exports: [AuditEventsRepository, AuditTrail],
    };
  }
}
