import { Injectable, Logger } from '@nestjs/common';
import { TenantAccessService, TenantScope } from '@platform/auth';

/**
 * After a membership change commits: the operator's standing is forgotten on
 * every replica of every app, so their next request is checked against the
 * new membership (docs/security.md, Immediate revocation of a membership).
 */
@Injectable()
export class MemberStanding {
  private readonly logger = new Logger(MemberStanding.name);

  constructor(private readonly access: TenantAccessService) {}

  async forget(scope: TenantScope, operatorID: string): Promise<void> {
    // The change has committed; if Redis fails now, the replicas that could not hear this are not listening either, and read no in-process copy.
    await this.access.forget(scope.tenantID, `operator:${operatorID}`).catch((error: unknown) =>
      this.logger.warn({ err: error, tenantID: scope.tenantID, operatorID }, 'standing not forgotten after a membership change; its Redis copy lapses within 5 s'),
    );
  }
}
