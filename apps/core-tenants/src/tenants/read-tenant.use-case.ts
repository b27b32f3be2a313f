import { Injectable } from '@nestjs/common';
import { Principal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { TenantsRepository } from './tenants.repository';

export interface ReadTenantCommand {
  principal: Principal;
  tenantID: string;
}

export interface TenantDetails {
  tenantID: string;
  tenantName: string;
  createdAt: string;
}

/** A tenant's public details, for its operators, its installed plugins and its own connections. */
@Injectable()
export class ReadTenantUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly tenants: TenantsRepository,
  ) {}

  async execute(command: ReadTenantCommand): Promise<TenantDetails> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const details = await this.tenants.findDetails(scope);
    // Removed between the access check and the read.
    if (!details) throw new AppException('TenantNotFound');
    return { ...details, createdAt: details.createdAt.toISOString() };
  }
}
