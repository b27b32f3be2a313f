import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal, Principal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { OperatorTenantList, TenantDetailsResponse, TenantParams } from './tenant.dto';
import { TenantsRepository } from './tenants.repository';
import { ApiErrors } from '@platform/http-common';

@ApiTags('Tenants')
@Controller()
export class TenantsController {
  constructor(
    private readonly tenants: TenantsRepository,
    private readonly access: TenantAccessService,
  ) {}

  /** Operation 15 of SPEC.md. */
  @Get('tenants')
  @Auth('operator')
  @ApiOperation({ summary: 'List the tenants of the operator token', description: 'Each with the operator\'s role in it, by name.' })
  @ApiOkResponse({ type: OperatorTenantList })
  async list(@CurrentPrincipal() principal: OperatorPrincipal): Promise<OperatorTenantList> {
    return { data: await this.tenants.listForOperator(principal.operatorID) };
  }

  /** A tenant's public details, for its operators, its installed plugins and its own connections. */
  @Get('v1/tenants/:tenantID')
  @Auth('operator', 'plugin', 'pluginConnection')
  @ApiOperation({ summary: 'Read a tenant' })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: TenantDetailsResponse })
  async read(@CurrentPrincipal() principal: Principal, @Param() params: TenantParams): Promise<TenantDetailsResponse> {
    await this.access.require(principal, params.tenantID, { tenantNotFoundIs404: true });
    const details = await this.tenants.findDetails(params.tenantID);
    if (!details) throw new AppException('TenantNotFound');
    return { data: details };
  }
}
