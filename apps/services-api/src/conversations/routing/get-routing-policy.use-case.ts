import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { defaultPolicyOf, RoutingPolicy } from './routing-policy';
import { RoutingRepository } from './routing.repository';

export interface GetRoutingPolicyCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  inboxID: string;
}

/** Any operator of the tenant reads a live inbox's routing policy (manual when none was set; else 404 1940). */
@Injectable()
export class GetRoutingPolicyUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly routing: RoutingRepository,
  ) {}

  async execute(command: GetRoutingPolicyCommand): Promise<RoutingPolicy> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const stored = await this.routing.storedPolicy(scope.tenantID, command.inboxID);
    if (stored === undefined) throw new AppException('InboxNotFound');
    return stored ?? defaultPolicyOf(command.inboxID);
  }
}
