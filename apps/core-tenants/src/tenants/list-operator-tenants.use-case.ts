import { Injectable } from '@nestjs/common';
import type { OperatorPrincipal } from '@platform/auth';
import { OperatorTenantRow, TenantsRepository } from './tenants.repository';

export interface ListOperatorTenantsCommand {
  principal: OperatorPrincipal;
}

/**
 * Operation 15: the tenants of the operator token, each with the operator's
 * role. No access check: it reads only the caller's own memberships.
 */
@Injectable()
export class ListOperatorTenantsUseCase {
  constructor(private readonly tenants: TenantsRepository) {}

  execute(command: ListOperatorTenantsCommand): Promise<OperatorTenantRow[]> {
    return this.tenants.listForOperator(command.principal.operatorID);
  }
}
