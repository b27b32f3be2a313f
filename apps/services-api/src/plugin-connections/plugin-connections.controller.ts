import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { DeletePluginConnection, InstallPluginConnection } from '@platform/contracts';
import { TransportClient } from '@platform/transport';
import {
  DeletedPluginConnectionResponse,
  InstallPluginBody,
  InstalledPluginConnectionResponse,
  PluginConnectionParams,
  TenantPluginConnectionsParams,
} from './plugin-connection.dto';
import { ApiErrors } from '@platform/http-common';

/**
 * Plugin connections of a tenant. Owners only; core-tenants owns the
 * connections and the billing and VM providers, reached over the transport.
 */
@ApiTags('Plugins')
@Controller('v1/tenants/:tenantID/plugins/connections')
export class PluginConnectionsController {
  constructor(
    private readonly access: TenantAccessService,
    private readonly coreTenants: TransportClient,
  ) {}

  @Post()
  @Auth('operator')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Install a plugin on the tenant',
    description:
      'Creates the plugin connection and returns its token once. A paid plugin gets a subscription item at the billing ' +
      'provider, a hosted one a VM; a provider failure (502 5002) leaves no connection. Only tenant owners (else 403 1004).',
  })
  @ApiErrors('TenantNotFound', 'PluginAlreadyInstalled', 'TenantBillingNotConfigured', 'BadGateway', 'InternalServiceTimeout')
  @ApiCreatedResponse({ type: InstalledPluginConnectionResponse })
  async install(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantPluginConnectionsParams,
    @Body() body: InstallPluginBody,
  ): Promise<InstalledPluginConnectionResponse> {
    await this.access.require(principal, params.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    const installed = await this.coreTenants.send(InstallPluginConnection, {
      tenantID: params.tenantID.toLowerCase(),
      pluginID: body.pluginID.toLowerCase(),
    });
    return { data: installed };
  }

  /** Operation 1 of SPEC.md. */
  @Delete(':pluginConnectionID')
  @Auth('operator')
  @ApiOperation({
    summary: 'Delete a plugin connection',
    description:
      'Only tenant owners. A hosted connection\'s VM is deleted first (if that fails: 502 5002 and the connection stays); ' +
      'then the connection is removed and its token stops working at once; a paid connection\'s subscription item is ' +
      'canceled at the billing provider, retried until the provider confirms.',
  })
  @ApiErrors('TenantNotFound', 'PluginConnectionNotFound', 'BadGateway', 'InternalServiceTimeout')
  @ApiOkResponse({ type: DeletedPluginConnectionResponse })
  async remove(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: PluginConnectionParams): Promise<DeletedPluginConnectionResponse> {
    await this.access.require(principal, params.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    const result = await this.coreTenants.send(DeletePluginConnection, {
      tenantID: params.tenantID.toLowerCase(),
      pluginConnectionID: params.pluginConnectionID.toLowerCase(),
    });
    return { data: result };
  }
}
