import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { INBOX_OWNERS_ONLY } from '../inboxes/inbox-view';
import type { RoutingPolicy } from './routing-policy';
import { RoutingRequests } from './routing-requests';
import { RoutingRepository } from './routing.repository';

export interface SetRoutingPolicyCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  policy: RoutingPolicy;
}

/**
 * An owner sets a live inbox's routing policy (else 404 1940), as inboxes
 * are configured (a member gets 403 1004). Every operator it names must be
 * a member of this tenant (else 404 1990, nothing stored). The change is
 * audited (`inbox.routingChanged`) and asks for a routing pass: a routed
 * policy, or a larger capacity, may let queued sessions be assigned now.
 */
@Injectable()
export class SetRoutingPolicyUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly routing: RoutingRepository,
    private readonly requests: RoutingRequests,
    private readonly audit: AuditTrail,
  ) {}

  async execute(command: SetRoutingPolicyCommand): Promise<RoutingPolicy> {
    const scope = await this.access.require(command.principal, command.tenantID, INBOX_OWNERS_ONLY);
    const { policy } = command;
    if ((await this.routing.nonMembers(scope.tenantID, policy.operatorIDs)).length > 0) throw new AppException('MemberNotFound');
    const stored = await this.routing.transaction(async (runner) => {
      if (!(await this.routing.store(runner, scope.tenantID, policy))) return false;
      await this.audit.record(runner, scope, {
        action: 'inbox.routingChanged',
        targetID: policy.inboxID,
        summary: { policy: policy.policy, capacity: policy.capacity, operatorIDs: policy.operatorIDs, requeueOfflineAfterSeconds: policy.requeueOfflineAfterSeconds },
      });
      await this.requests.request(runner, scope.tenantID);
      return true;
    });
    if (!stored) throw new AppException('InboxNotFound');
    return policy;
  }
}
