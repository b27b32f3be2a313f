import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal, Principal } from '@platform/auth';
import { ApiErrors, TenantParams } from '@platform/http-common';
import { ListOperatorTenantsUseCase } from './list-operator-tenants.use-case';
import { ReadTenantUseCase } from './read-tenant.use-case';
import { OperatorTenantListResponse, TenantDetailsResponse } from './tenant.dto';

@ApiTags('Tenants')
@Controller()
export class TenantsController {
  constructor(
    private readonly listTenants: ListOperatorTenantsUseCase,
    private readonly readTenant: ReadTenantUseCase,
  ) {}

  /** Operation 15 (docs/operations.md). */
  @Get('tenants')
  @Auth('operator')
  @ApiOperation({ operationId: 'listOperatorTenants', summary: 'List the tenants of the operator token', description: 'Each with the operator\'s role in it, by name.' })
  @ApiOkResponse({ type: OperatorTenantListResponse })
  async list(@CurrentPrincipal() principal: OperatorPrincipal): Promise<OperatorTenantListResponse> {
    return { data: await this.listTenants.execute({ principal }) };
  }

  /** A tenant's public details, for its operators, its installed plugins and its own connections. */
  @Get('v1/tenants/:tenantID')
  @Auth('operator', 'plugin', 'pluginConnection')
  @ApiOperation({ operationId: 'readTenant', summary: 'Read a tenant' })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: TenantDetailsResponse })
  async read(@CurrentPrincipal() principal: Principal, @Param() params: TenantParams): Promise<TenantDetailsResponse> {
    return { data: await this.readTenant.execute({ principal, tenantID: params.tenantID }) };
  }
}
